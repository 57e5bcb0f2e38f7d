#include "app/main/input.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>

#include "app/main/app_state.hpp"
#include "app/main/scene_switch.hpp"
#include "app/scene/camera_option.hpp"

namespace particles {
namespace {

AppState& state_of(GLFWwindow* window) {
  return *static_cast<AppState*>(glfwGetWindowUserPointer(window));
}

void on_key(GLFWwindow* window, int key, int /*scancode*/, int action, int /*mods*/) {
  if (action != GLFW_PRESS || ImGui::GetIO().WantCaptureKeyboard) return;
  apply_key(state_of(window), key);
}

void on_scroll(GLFWwindow* window, double /*dx*/, double dy) {
  if (ImGui::GetIO().WantCaptureMouse) return;
  AppState& s = state_of(window);
  s.camera.follow_path = false;
  s.camera.pose.distance =
      std::clamp(s.camera.pose.distance * std::pow(0.9f, static_cast<float>(dy)), 0.05f, 1.0e5f);
}

}  // namespace

void apply_key(AppState& s, int key) {
  FrameChoices& c = s.choices;  // what most keys change
  if (key >= GLFW_KEY_1 && key < GLFW_KEY_1 + static_cast<int>(kAllAlgorithms.size())) {
    c.algorithm = kAllAlgorithms[static_cast<std::size_t>(key - GLFW_KEY_1)];
    return;
  }
  switch (key) {
    case GLFW_KEY_SPACE:
      s.paused = !s.paused;
      break;
    case GLFW_KEY_R:  // the next renderer of the table that this backend implements
      c.renderer = next_renderer(c.renderer, s.backend_name);
      break;
    case GLFW_KEY_U:
      c.order = c.order == DrawOrder::unsorted ? DrawOrder::exact : DrawOrder::unsorted;
      break;
    case GLFW_KEY_O: {  // the next draw order
      std::size_t i = 0;
      while (kAllDrawOrders[i] != c.order) ++i;
      c.order = kAllDrawOrders[(i + 1) % kAllDrawOrders.size()];
      break;
    }
    case GLFW_KEY_V:
      c.compare = !c.compare;
      break;
    case GLFW_KEY_H:  // the comparison view's mode, and the view itself on
      c.compare_mode = c.compare && c.compare_mode == CompareMode::split ? CompareMode::heat
                                                                         : CompareMode::split;
      c.compare = true;
      break;
    case GLFW_KEY_K:
      c.key_mode = c.key_mode == KeyMode::exact ? KeyMode::quantized : KeyMode::exact;
      break;
    case GLFW_KEY_F:
      s.camera.request_framing();
      break;
    case GLFW_KEY_LEFT_BRACKET:
    case GLFW_KEY_RIGHT_BRACKET:
      s.requested_scene =
          step_scene(s.scene_files, s.scene.source_path, key == GLFW_KEY_RIGHT_BRACKET ? 1 : -1);
      break;
    case GLFW_KEY_MINUS:
    case GLFW_KEY_EQUAL:
      s.requested_count = step_count(s.count_presets, s.count, key == GLFW_KEY_EQUAL ? 1 : -1);
      if (*s.requested_count == s.count) s.requested_count.reset();
      break;
    case GLFW_KEY_C:
      s.camera.follow_path = !s.camera.follow_path;
      break;
    case GLFW_KEY_E:  // the current view, ready to pass to --camera (camera_option.hpp)
      std::cout << camera_option_text(s.camera.pose) << std::endl;
      break;
    case GLFW_KEY_P:
    case GLFW_KEY_F12:
      s.screenshot_requested = true;
      break;
    case GLFW_KEY_TAB:
    case GLFW_KEY_F1:
      s.hud_visible = !s.hud_visible;
      break;
    case GLFW_KEY_ESCAPE:
    case GLFW_KEY_Q:
      s.quit_requested = true;
      break;
    default:
      break;
  }
}

void install_input_callbacks(GLFWwindow* window, AppState& state) {
  glfwSetWindowUserPointer(window, &state);
  glfwSetKeyCallback(window, on_key);
  glfwSetScrollCallback(window, on_scroll);
}

void apply_mouse(GLFWwindow* window, AppState& state) {
  double x = 0.0, y = 0.0;
  glfwGetCursorPos(window, &x, &y);
  const auto dx = static_cast<float>(x - state.cursor_x);
  const auto dy = static_cast<float>(y - state.cursor_y);
  state.cursor_x = x;
  state.cursor_y = y;
  if (ImGui::GetIO().WantCaptureMouse) return;
  CameraPose& cam = state.camera.pose;
  if (glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS) {
    state.camera.follow_path = false;
    cam.yaw_deg -= 0.3f * dx;
    cam.pitch_deg = std::clamp(cam.pitch_deg + 0.3f * dy, -89.0f, 89.0f);
  } else if (glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS ||
             glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_MIDDLE) == GLFW_PRESS) {
    // Pan in the camera's own plane, scaled so the point under the cursor follows it.
    state.camera.follow_path = false;
    const float yaw = cam.yaw_deg * 3.14159265f / 180.0f;
    const float scale = 0.0015f * cam.distance;
    const Vec3 right{std::cos(yaw), 0.0f, -std::sin(yaw)};
    const Vec3 up{0.0f, 1.0f, 0.0f};
    cam.target = cam.target - right * (dx * scale) + up * (dy * scale);
  }
}

std::span<const KeyBinding> key_bindings() {
  // The renderers as the table lists them: "renderer (raster, composite)".
  static const std::string kRendererAction = "renderer (" + renderer_names_text(", ") + ")";
  static const KeyBinding kBindings[] = {
      {"1-5", "algorithm: radix, oddeven, quicksort, cub, auto"},
      {"R", kRendererAction.c_str()},
      {"Space", "pause"},
      {"U", "unsorted on/off"},
      {"O", "next draw order"},
      {"V", "compare with the exact order"},
      {"H", "split / heat view"},
      {"K", "exact / quantized keys"},
      {"F", "frame the scene"},
      {"C", "camera path on/off"},
      {"[ ]", "previous / next scene"},
      {"- =", "fewer / more particles"},
      {"P, F12", "screenshot (into screenshots/)"},
      {"E", "print the view as a --camera option"},
      {"Tab, F1", "hide / show the HUD"},
      {"Q, Esc", "quit"},
      {"mouse", "left drag orbit, right or middle pan, wheel zoom"},
  };
  return kBindings;
}

std::string key_help() {
  std::string help;
  for (const KeyBinding& k : key_bindings()) {
    help += (help.empty() ? "" : "; ") + std::string(k.keys) + " " + k.action;
  }
  return help;
}

}  // namespace particles
