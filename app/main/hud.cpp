#include "app/main/hud.hpp"

#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <array>
#include <cstdio>
#include <string>

#include "app/main/app_state.hpp"
#include "app/main/frame_shares.hpp"
#include "app/main/input.hpp"
#include "app/main/scene_switch.hpp"
#include "core/cpu_algorithm_sort.hpp"

namespace particles {
namespace {

// A combo box over every value of a choice (algorithm, renderer), named by to_string.
template <class Choice, std::size_t N>
void choice_combo(const char* label, Choice& value, const std::array<Choice, N>& all) {
  const char* names[N];
  int current = 0;
  for (std::size_t i = 0; i < N; ++i) {
    names[i] = to_string(all[i]).data();
    if (all[i] == value) current = static_cast<int>(i);
  }
  if (ImGui::Combo(label, &current, names, static_cast<int>(N))) {
    value = all[static_cast<std::size_t>(current)];
  }
}

// The algorithm picker. On the CPU backend each entry also says which CPU implementation it
// runs ("cub: std::stable_sort ..."), so that nobody reads a CPU timing as CUB's.
void algorithm_combo(AppState& state) {
  const bool cpu = state.backend_name == "cpu";
  std::array<std::string, kAllAlgorithms.size()> labels;
  const char* names[kAllAlgorithms.size()];
  int current = 0;
  for (std::size_t i = 0; i < kAllAlgorithms.size(); ++i) {
    labels[i] = std::string(to_string(kAllAlgorithms[i]));
    if (cpu) labels[i] += std::string(": ") + std::string(cpu_algorithm_label(kAllAlgorithms[i]));
    names[i] = labels[i].c_str();
    if (kAllAlgorithms[i] == state.algorithm) current = static_cast<int>(i);
  }
  if (ImGui::Combo("algorithm (1-5)", &current, names, static_cast<int>(kAllAlgorithms.size()))) {
    state.algorithm = kAllAlgorithms[static_cast<std::size_t>(current)];
  }
  // What sorted the last frame: auto's path, or the fixed algorithm's implementation (the CUDA
  // backend's fixed algorithms report "as selected": the chosen sorter ran).
  ImGui::Text("sort path: %s", to_string(state.last_info.path));
}

void plot_series(const char* label, const RollingSeries& series) {
  const auto values = series.ordered();
  const Summary s = series.summary();
  char overlay[96];
  std::snprintf(overlay, sizeof overlay, "min %.3f med %.3f p99 %.3f", s.min, s.median, s.p99);
  ImGui::PlotLines(label, values.data(), static_cast<int>(values.size()), 0, overlay, 0.0f,
                   static_cast<float>(s.max * 1.2 + 1e-3), ImVec2(260, 40));
}

// One horizontal bar split by stage medians, so where the frame's GPU time goes is visible at
// a glance; the colours match the bench chart.
void stacked_stage_bar(const AppState& state) {
  constexpr ImU32 kColors[kStageCount] = {IM_COL32(0, 114, 178, 255), IM_COL32(230, 159, 0, 255),
                                          IM_COL32(0, 158, 115, 255), IM_COL32(213, 94, 0, 255),
                                          IM_COL32(204, 121, 167, 255)};
  double medians[kStageCount];
  double total = 0.0;
  for (int s = 0; s < kStageCount; ++s) {
    medians[s] = state.stats.stage_ms[s].summary().median;
    total += medians[s];
  }
  ImGui::Text("stages: %.3f ms (medians)", total);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = 330.0f, height = 12.0f;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  float x = origin.x;
  for (int s = 0; s < kStageCount && total > 0.0; ++s) {
    const float w = static_cast<float>(medians[s] / total) * width;
    draw->AddRectFilled(ImVec2(x, origin.y), ImVec2(x + w, origin.y + height), kColors[s]);
    x += w;
  }
  ImGui::Dummy(ImVec2(width, height));
  for (int s = 0; s < kStageCount; ++s) {
    if (s % 3 != 0) ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kColors[s]), "%s %.3f",
                       to_string(static_cast<Stage>(s)), medians[s]);
  }
}

// Where the frame's time goes, as shares of the median frame: the backend's stages (the pipeline
// span), the renderer's own stage (GL draw or composite), the present, and the rest of the frame
// (host work, waiting on the present), so that the list adds up to 100% (frame_shares.hpp).
void frame_shares(const AppState& state) {
  const LiveStats& st = state.stats;
  const double frame = st.frame_ms.summary().median;
  if (frame <= 0.0) return;
  const bool raster = state.renderer == RendererKind::raster;
  const FrameShares shares =
      account_frame(frame, {{"pipeline", st.span_ms.summary().median},
                            {raster ? "draw (GL)" : "composite",
                             (raster ? st.draw_ms : st.composite_ms).summary().median},
                            {"present", st.present_ms.summary().median}});
  ImGui::Text("share of the %.3f ms frame (medians):", frame);
  for (std::size_t i = 0; i < shares.parts.size(); ++i) {
    ImGui::Text("  %-26s %8.3f ms  %5.1f%%", shares.parts[i].name.c_str(), shares.parts[i].ms,
                shares.percent[i]);
  }
  if (shares.overlap_ms > 0.0) {
    // GPU work runs beside the host's: the parts' medians exceed the frame's.
    ImGui::TextDisabled("  parts overlap by %.3f ms: shares of their sum", shares.overlap_ms);
  }
}

// "64K", "1M", or the number itself when it is no whole number of K.
std::string count_label(std::uint32_t n) {
  if (n >= (1u << 20) && n % (1u << 20) == 0) return std::to_string(n >> 20) + "M";
  if (n >= (1u << 10) && n % (1u << 10) == 0) return std::to_string(n >> 10) + "K";
  return std::to_string(n);
}

// Every scenes/*.toml by name; picking one asks the session to load it next frame.
void scene_picker(AppState& state) {
  const auto& files = state.scene_files;
  if (files.empty()) {
    ImGui::TextDisabled("no scenes/*.toml found");
    return;
  }
  const int current = scene_index(files, state.scene.source_path);
  const std::string preview =
      current >= 0 ? files[static_cast<std::size_t>(current)].stem().string() : state.scene.name;
  if (ImGui::BeginCombo("scene ([ ])", preview.c_str())) {
    for (std::size_t i = 0; i < files.size(); ++i) {
      const bool selected = static_cast<int>(i) == current;
      if (ImGui::Selectable(files[i].stem().string().c_str(), selected) && !selected) {
        state.requested_scene = files[i];
      }
      if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  }
}

// The count presets for the backend and the scene's own count, marked "scene".
void count_control(AppState& state) {
  const std::uint32_t scene_default = default_count(state.scene, state.backend_name);
  const std::string preview = count_label(state.count);
  if (ImGui::BeginCombo("particles (- =)", preview.c_str())) {
    for (const std::uint32_t n : state.count_presets) {
      const std::string label = count_label(n) + (n == scene_default ? " (scene)" : "");
      const bool selected = n == state.count;
      if (ImGui::Selectable(label.c_str(), selected) && !selected) state.requested_count = n;
      if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  }
  if (!state.switch_error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
    ImGui::TextWrapped("not switched: %s", state.switch_error.c_str());
    ImGui::PopStyleColor();
  }
}

// The draw order (exact, or an approximation), its period, the comparison view and how wrong
// the drawn order is.
void draw_order_controls(AppState& state) {
  choice_combo("draw order (O, U)", state.order, kAllDrawOrders);
  if (state.order == DrawOrder::stale) {
    ImGui::SliderInt("frames per sort", &state.order_period, 1, 120);
  }
  ImGui::Checkbox("compare with exact (V)", &state.compare);
  if (state.compare) {
    choice_combo("view (H)", state.compare_mode, kAllCompareModes);
    if (!state.last_info.compare_order) {
      ImGui::TextDisabled("from the next frame");
    } else if (state.compare_mode == CompareMode::heat) {
      ImGui::TextDisabled("exact against %s: red to white where they differ",
                          to_string(state.order).data());
    } else {
      ImGui::TextDisabled("left exact | right %s", to_string(state.order).data());
    }
  }
  const float error = state.stats.order_error.latest();
  const Summary s = state.stats.order_error.summary();
  if (s.samples > 0) {
    ImGui::Text("order error %.2f%% of pairs (median %.2f%%)", error, s.median);
  } else {
    ImGui::TextDisabled("order error: not measured yet");
  }
}

}  // namespace

Hud::Hud(GLFWwindow* window) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini litter in the working directory
  ImGui::StyleColorsDark();
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 450 core");
}

Hud::~Hud() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
}

void Hud::draw(AppState& state) {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();

  ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(350, 0), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowBgAlpha(0.6f);
  ImGui::Begin("particles");
  const float frame_ms = state.stats.frame_ms.latest();
  ImGui::Text("%.1f fps  %.2f ms", frame_ms > 0.0f ? 1000.0f / frame_ms : 0.0f, frame_ms);
  ImGui::Text("%u particles  scene %s", state.count, state.scene.name.c_str());
  ImGui::Text("backend %s", state.backend_name.c_str());
  ImGui::TextWrapped("GL %s", state.gl_renderer.c_str());
  if (!state.record_dir.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.35f, 0.3f, 1.0f));
    ImGui::TextWrapped("recording: %llu frames into %s",
                       static_cast<unsigned long long>(state.recorded_frames),
                       state.record_dir.string().c_str());
    ImGui::PopStyleColor();
  }
  ImGui::Separator();

  scene_picker(state);
  count_control(state);
  algorithm_combo(state);
  choice_combo("renderer (R)", state.renderer, kAllRenderers);
  bool quantized = state.key_mode == KeyMode::quantized;
  if (ImGui::Checkbox("quantized keys", &quantized)) {
    state.key_mode = quantized ? KeyMode::quantized : KeyMode::exact;
  }
  if (quantized) ImGui::SliderInt("key bits", &state.key_bits, 4, 32);
  draw_order_controls(state);
  ImGui::Checkbox("paused (Space)", &state.paused);
  ImGui::Checkbox("camera path (C)", &state.follow_path);
  ImGui::SameLine();
  // Fused, "simulate" times simulate + extents (+ exact keys); apart, each stage has its own.
  ImGui::Checkbox("fuse stages", &state.fuse_stages);
  // Off, every 8th frame times its stages and the others only the pipeline's span.
  ImGui::Checkbox("time every stage", &state.time_every_stage);
  ImGui::SameLine();
  if (ImGui::Button("frame (F)")) state.frame_requested = true;
  ImGui::SameLine();
  if (ImGui::Button("screenshot (P)")) state.screenshot_requested = true;
  // Where the last one went, or why it was not saved (the session goes on either way).
  if (!state.screenshot_message.empty()) ImGui::TextWrapped("%s", state.screenshot_message.c_str());
  ImGui::Separator();

  plot_series("frame", state.stats.frame_ms);
  plot_series("backend", state.stats.backend_ms);
  if (state.renderer == RendererKind::raster) {
    plot_series("draw (GL)", state.stats.draw_ms);
  } else {
    plot_series("composite", state.stats.composite_ms);
  }
  plot_series("present", state.stats.present_ms);
  plot_series("pipeline span", state.stats.span_ms);
  frame_shares(state);
  stacked_stage_bar(state);
  if (ImGui::CollapsingHeader("stage graphs")) {
    for (int s = 0; s < kStageCount; ++s) {
      plot_series(to_string(static_cast<Stage>(s)), state.stats.stage_ms[s]);
    }
  }
  const Extents& e = state.last_info.extents;
  if (!e.empty()) {
    ImGui::Text("x [%.2f, %.2f]  y [%.2f, %.2f]", e.min.x, e.max.x, e.min.y, e.max.y);
    ImGui::Text("z [%.2f, %.2f]", e.min.z, e.max.z);
    ImGui::Text("depth [%.2f, %.2f]  max speed %.2f", e.depth_min, e.depth_max, e.max_speed);
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("%s", key_help());
  ImGui::PopStyleColor();
  ImGui::End();

  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

}  // namespace particles
