// The interactive context: a GLFW window with a GL 4.5 core context.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <glad/gl.h>

#include <cstdlib>
#include <stdexcept>

#include "app/gl/gl_context.hpp"

namespace particles::gl {
namespace {

// GLFW reports errors through a callback; keep the last one for our exception text.
thread_local std::string last_glfw_error;
// glfwInit is not reference counted: glfwTerminate would close every open window, so
// display_available() must not terminate while a window context lives.
int live_windows = 0;

void record_glfw_error(int code, const char* description) {
  last_glfw_error = std::string(description) + " (GLFW error " + std::to_string(code) + ")";
}

bool init_glfw() {
  glfwSetErrorCallback(record_glfw_error);
  return glfwInit() == GLFW_TRUE;
}

class WindowContext final : public GlContext {
 public:
  WindowContext(int width, int height, const std::string& title, bool vsync) {
    if (!init_glfw()) throw std::runtime_error("glfwInit failed: " + last_glfw_error);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 5);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
#ifndef NDEBUG
    glfwWindowHint(GLFW_OPENGL_DEBUG_CONTEXT, GLFW_TRUE);
#endif
    window_ = glfwCreateWindow(width, height, title.c_str(), nullptr, nullptr);
    if (window_ == nullptr) {
      const std::string why = last_glfw_error;
      if (live_windows == 0) glfwTerminate();
      throw std::runtime_error("cannot open a GL 4.5 core window: " + why);
    }
    glfwMakeContextCurrent(window_);
    try {
      if (gladLoadGL(glfwGetProcAddress) == 0) throw std::runtime_error("gladLoadGL failed");
      finish_context_setup("GLFW window");
    } catch (...) {
      glfwDestroyWindow(window_);
      if (live_windows == 0) glfwTerminate();
      throw;
    }
    glfwSwapInterval(vsync ? 1 : 0);
    ++live_windows;
  }

  ~WindowContext() override {
    glfwDestroyWindow(window_);
    if (--live_windows == 0) glfwTerminate();
  }

  bool headless() const override {
    return false;
  }
  glm::ivec2 framebuffer_size() const override {
    glm::ivec2 size{0, 0};
    glfwGetFramebufferSize(window_, &size.x, &size.y);
    return size;
  }
  void swap_buffers() override {
    glfwSwapBuffers(window_);
  }
  bool should_close() const override {
    return glfwWindowShouldClose(window_) == GLFW_TRUE;
  }
  void poll_events() override {
    glfwPollEvents();
  }
  GLFWwindow* glfw_window() override {
    return window_;
  }

 private:
  GLFWwindow* window_ = nullptr;
};

}  // namespace

std::unique_ptr<GlContext> make_window_context(int width, int height, const std::string& title,
                                               bool vsync) {
  return std::make_unique<WindowContext>(width, height, title, vsync);
}

bool display_available() {
  // Without either variable GLFW would fail anyway; checking first avoids its error noise.
  if (std::getenv("DISPLAY") == nullptr && std::getenv("WAYLAND_DISPLAY") == nullptr) {
    return false;
  }
  if (live_windows > 0) return true;
  if (!init_glfw()) return false;
  glfwTerminate();
  return true;
}

}  // namespace particles::gl
