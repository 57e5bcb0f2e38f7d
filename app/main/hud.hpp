#pragma once
#include <optional>

#include "app/main/hud_layout.hpp"

struct GLFWwindow;

namespace particles {

struct AppState;

// Dear ImGui lifetime (GLFW + OpenGL3 backends), the panel drawn over the scene each frame (Tab or
// F1 hides it) and the comparison view's labels on the image.
class Hud {
 public:
  // `ui_scale` (--ui-scale) scales the font and every spacing; unset, the monitor's content scale
  // decides (hud_layout.hpp).
  Hud(GLFWwindow* window, std::optional<float> ui_scale);
  ~Hud();
  Hud(const Hud&) = delete;
  Hud& operator=(const Hud&) = delete;

  void draw(AppState& state);  // builds and renders the HUD into the current framebuffer
  float scale() const { return scale_; }

 private:
  // Draws the panel; returns where it lies in the window.
  ImageRect panel(AppState& state);
  float scale_ = 1.0f;
};

}  // namespace particles
