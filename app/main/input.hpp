#pragma once
// Window input: an orbit/zoom/pan camera on the mouse and keys for every toggle.
#include <span>
#include <string>

struct GLFWwindow;

namespace particles {

struct AppState;

// Installs GLFW callbacks that write into `state`; call before ImGui installs its own (ImGui
// chains to these).
void install_input_callbacks(GLFWwindow* window, AppState& state);

// What key `key` (a GLFW_KEY_ code) does to `state`, as a press in the window does when ImGui
// does not want the keyboard: R steps to the next renderer this backend implements
// (next_renderer), wrapping around, and so on (key_bindings).
void apply_key(AppState& state, int key);

// Applies mouse dragging to the camera once per frame, unless ImGui wants the mouse.
void apply_mouse(GLFWwindow* window, AppState& state);

// The key bindings, for --help and the HUD's key list: the keys ("Tab, F1") and what they do.
struct KeyBinding {
  const char* keys;
  const char* action;
};
std::span<const KeyBinding> key_bindings();
// Every binding on one line, for --help: "1-5 algorithm: ...; R renderer ...; ...".
std::string key_help();

}  // namespace particles
