#pragma once
struct GLFWwindow;

namespace particles {

struct AppState;

// Dear ImGui lifetime (GLFW + OpenGL3 backends) and the panel drawn over the scene each frame.
class Hud {
 public:
  explicit Hud(GLFWwindow* window);
  ~Hud();
  Hud(const Hud&) = delete;
  Hud& operator=(const Hud&) = delete;

  void draw(AppState& state);  // builds and renders the panel into the current framebuffer
};

}  // namespace particles
