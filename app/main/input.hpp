#pragma once
// Window input: an orbit/zoom/pan camera on the mouse and keys for every toggle.
struct GLFWwindow;

namespace particles {

struct AppState;

// Installs GLFW callbacks that write into `state`; call before ImGui installs its own (ImGui
// chains to these).
void install_input_callbacks(GLFWwindow* window, AppState& state);

// Applies mouse dragging to the camera once per frame, unless ImGui wants the mouse.
void apply_mouse(GLFWwindow* window, AppState& state);

// The key bindings, for --help and the HUD.
const char* key_help();

}  // namespace particles
