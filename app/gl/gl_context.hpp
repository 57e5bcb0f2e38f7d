#pragma once
// One interface over the two ways we get a GL 4.5 core context: a GLFW window (interactive) and
// EGL without any window system (CI, benchmarks, the GPU machine with no display). Both render
// the scene into an offscreen RenderTarget, so a screenshot is the same image either way.
#include <glm/vec2.hpp>
#include <memory>
#include <string>

struct GLFWwindow;

namespace particles::gl {

class GlContext {
 public:
  GlContext() = default;
  GlContext(const GlContext&) = delete;
  GlContext& operator=(const GlContext&) = delete;
  virtual ~GlContext();

  virtual bool headless() const = 0;
  virtual glm::ivec2 framebuffer_size() const = 0;
  virtual void swap_buffers() = 0;
  virtual bool should_close() const = 0;
  virtual void poll_events() = 0;
  // "GL_RENDERER, GL_VERSION" of the current context, for logs and reports.
  virtual std::string renderer_description() const;
  virtual GLFWwindow* glfw_window() { return nullptr; }
};

// A GLFW window with a GL 4.5 core context, made current, glad loaded. Throws on failure.
std::unique_ptr<GlContext> make_window_context(int width, int height, const std::string& title,
                                               bool vsync);

// A GL 4.5 core context with no window system, made current, glad loaded. Tries, in order: an
// NVIDIA device through the EGL device platform, Mesa's surfaceless platform, any other EGL
// device, the default display. Throws with every attempt's reason when none gives GL 4.5 core.
std::unique_ptr<GlContext> make_headless_context(int width, int height);

// True when a window can be opened: DISPLAY or WAYLAND_DISPLAY is set and glfwInit succeeds.
bool display_available();

// ---- shared by the context implementations -------------------------------------------------

// Checks that the current context is GL >= 4.5 core and throws naming `who` if not; then
// enables debug output where wanted. glad must be loaded.
void finish_context_setup(const std::string& who);

}  // namespace particles::gl
