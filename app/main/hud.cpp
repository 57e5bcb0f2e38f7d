#include "app/main/hud.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/main/app_state.hpp"
#include "app/main/compare_overlay.hpp"
#include "app/main/frame_shares.hpp"
#include "app/main/hud_layout.hpp"
#include "app/main/hud_text.hpp"
#include "app/main/input.hpp"
#include "app/main/scene_switch.hpp"
#include "core/cpu_algorithm_sort.hpp"
#include "core/renderer_kind.hpp"

namespace particles {
namespace {

// The panel is a column of rows "label  [control]" with the labels in a column of their own on
// the left (ImGui puts them on the right, where a narrow panel cuts them off). The label column is
// as wide as its widest label, which carries the key that changes the setting.
constexpr const char* kWidestLabel = "renderer R";

void row_label(const char* label) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  ImGui::SameLine(ImGui::CalcTextSize(kWidestLabel).x + 2.0f * ImGui::GetStyle().ItemSpacing.x);
  ImGui::SetNextItemWidth(-FLT_MIN);
}

// Starts the next widget on this row when `width` still fits, else on a new one; so a row of
// checkboxes wraps at any panel width and font scale.
void same_line_if_fits(float width) {
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  ImGui::SameLine();
  if (ImGui::GetCursorScreenPos().x + width > right) ImGui::NewLine();
}

float checkbox_width(const char* label) {
  const ImGuiStyle& style = ImGui::GetStyle();
  return ImGui::GetFrameHeight() + style.ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
}

float button_width(const char* label) {
  return ImGui::CalcTextSize(label).x + 2.0f * ImGui::GetStyle().FramePadding.x;
}

void tooltip(const char* text) {
  if (!ImGui::IsItemHovered()) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
  ImGui::TextUnformatted(text);
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

// A collapsing section, open or closed the first time it is shown; the user's clicks then rule.
bool section(const char* name, bool open_by_default) {
  ImGui::SetNextItemOpen(open_by_default, ImGuiCond_Once);
  return ImGui::CollapsingHeader(name);
}

// A combo box over every value of a choice (draw order, comparison view), named by to_string.
template <class Choice, std::size_t N>
void choice_combo(const char* label, const char* id, Choice& value,
                  const std::array<Choice, N>& all) {
  const char* names[N];
  int current = 0;
  for (std::size_t i = 0; i < N; ++i) {
    names[i] = to_string(all[i]).data();
    if (all[i] == value) current = static_cast<int>(i);
  }
  row_label(label);
  if (ImGui::Combo(id, &current, names, static_cast<int>(N))) {
    value = all[static_cast<std::size_t>(current)];
  }
}

// The algorithm picker. On the CPU backend each entry of the list also says which CPU
// implementation it runs ("cub: std::stable_sort ..."), so that nobody reads a CPU timing as
// CUB's; the closed box shows the name alone, which fits the panel.
void algorithm_combo(AppState& state) {
  const bool cpu = state.backend_name == "cpu";
  row_label("sort 1-5");
  if (ImGui::BeginCombo("##algorithm", to_string(state.choices.algorithm).data())) {
    for (const Algorithm a : kAllAlgorithms) {
      std::string label(to_string(a));
      if (cpu) label += std::string(": ") + std::string(cpu_algorithm_label(a));
      const bool selected = a == state.choices.algorithm;
      if (ImGui::Selectable(label.c_str(), selected)) state.choices.algorithm = a;
      if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  }
  // What sorted the last frame: auto's path, or the fixed algorithm's implementation (the CUDA
  // backend's fixed algorithms report "as selected": the chosen sorter ran).
  ImGui::TextDisabled("sort path: %s", to_string(state.last_info.path));
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
  row_label("scene [ ]");
  if (ImGui::BeginCombo("##scene", preview.c_str())) {
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
  row_label("count - =");
  if (ImGui::BeginCombo("##count", preview.c_str())) {
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

// How wrong the drawn order is: its descents (adjacent pairs out of order, as the backend
// measured them) and, in the comparison view, the share of lit pixels more than 8/255 off the
// exact order's image (core/pixels_off.hpp), which is what a viewer sees, and the image's PSNR
// against it. A sort-free renderer's picture is compared with the exact sorted composite's.
void order_error_line(const AppState& state) {
  const Summary s = state.stats.order_error.summary();
  // The median on a line of its own: ImGui may wrap a line at a decimal point, which would split
  // a figure in two.
  if (s.samples > 0) {
    ImGui::TextWrapped("descents %.2f%% of pairs", state.stats.order_error.latest());
    ImGui::Text("  median %.2f%%", s.median);
  } else {
    ImGui::TextDisabled("descents: not measured yet");
  }
  const Summary off = state.stats.pixels_off.summary();
  if (off.samples > 0) {
    ImGui::TextWrapped("pixels off %.2f%% of lit pixels", state.stats.pixels_off.latest());
    ImGui::Text("  median %.2f%%", off.median);
    if (state.stats.psnr_db.summary().samples > 0) {
      ImGui::Text("  PSNR %.1f dB", state.stats.psnr_db.latest());
    }
    if (renderer_info(state.choices.renderer).sort_free) {
      ImGui::TextDisabled("  against the sorted composite");
    }
  }
}

// The draw order (exact, or an approximation), its period, and the comparison view, whose labels
// are drawn on the image (compare_overlay.hpp).
void draw_order_controls(AppState& state) {
  choice_combo("order O U", "##order", state.choices.order, kAllDrawOrders);
  if (state.choices.order == DrawOrder::stale) {
    row_label("period");
    ImGui::SliderInt("##period", &state.choices.order_period, 1, 120, "%d frames");
  }
  ImGui::Checkbox("compare with exact (V)", &state.choices.compare);
  if (state.choices.compare) {
    choice_combo("view H", "##view", state.choices.compare_mode, kAllCompareModes);
    if (!state.last_info.compare_order) ImGui::TextDisabled("from the next frame");
  }
  order_error_line(state);
}

// The renderer picker: every renderer of the table that this backend implements, each entry with
// its few words ("raster: GL point sprites"); the closed box shows the name alone.
void renderer_combo(AppState& state) {
  row_label("renderer R");
  if (ImGui::BeginCombo("##renderer", to_string(state.choices.renderer).data())) {
    for (const RendererKind r : renderers_on(state.backend_name)) {
      const std::string label =
          std::string(to_string(r)) + ": " + std::string(renderer_info(r).description);
      const bool selected = r == state.choices.renderer;
      if (ImGui::Selectable(label.c_str(), selected)) state.choices.renderer = r;
      if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  }
}

void settings(AppState& state) {
  scene_picker(state);
  count_control(state);
  algorithm_combo(state);
  renderer_combo(state);
  bool quantized = state.choices.key_mode == KeyMode::quantized;
  if (ImGui::Checkbox("quantized keys (K)", &quantized)) {
    state.choices.key_mode = quantized ? KeyMode::quantized : KeyMode::exact;
  }
  if (quantized) {
    row_label("key bits");
    ImGui::SliderInt("##key bits", &state.choices.key_bits, 4, 32);
  }
  draw_order_controls(state);

  ImGui::Checkbox("paused (Space)", &state.paused);
  same_line_if_fits(checkbox_width("camera path (C)"));
  ImGui::Checkbox("camera path (C)", &state.camera.follow_path);
  ImGui::Checkbox("fuse stages", &state.choices.fuse_stages);
  tooltip(
      "Fused, \"simulate\" times simulate + extents (+ exact keys) as one kernel (CUDA); "
      "apart, each stage has its own time.");
  same_line_if_fits(checkbox_width("time all stages"));
  bool every_frame = state.choices.stage_sample_period == 1;
  if (ImGui::Checkbox("time all stages", &every_frame)) {
    state.choices.stage_sample_period = every_frame ? 1 : kDefaultStageSamplePeriod;
  }
  tooltip(
      "Off, every 8th frame times each stage and the others only the pipeline's span: on "
      "CUDA each timed stage boundary slows the frame.");
  if (ImGui::Button("frame (F)")) state.camera.request_framing();
  same_line_if_fits(button_width("screenshot (P)"));
  if (ImGui::Button("screenshot (P)")) state.screenshot_requested = true;
  // Where the last one went, or why it was not saved (the session goes on either way).
  if (!state.screenshot_message.empty()) ImGui::TextWrapped("%s", state.screenshot_message.c_str());
}

// A graph of the series as wide as the panel, its name and statistics (milliseconds) inside it;
// a stage timed inside simulate (StageTimes::in_simulate) says so in place of its zeros.
void plot_series(const char* name, const RollingSeries& series, bool in_simulate = false) {
  const auto values = series.ordered();
  const Summary s = series.summary();
  const std::string overlay =
      in_simulate ? std::string(name) + "  " + kInSimulateText : graph_caption(name, s);
  ImGui::PushID(name);
  ImGui::PlotLines("##plot", values.data(), static_cast<int>(values.size()), 0, overlay.c_str(),
                   0.0f, static_cast<float>(s.max * 1.2 + 1e-3),
                   ImVec2(-FLT_MIN, 2.6f * ImGui::GetFontSize()));
  ImGui::PopID();
}

// Where the frame's time goes, as shares of the median frame: the backend's stages (the pipeline
// span), the renderer's own part (its draw or composite), the comparison view's pixels-off
// measure, the present, and the rest of the frame (host work, waiting on the present), so that
// the list adds up to 100% (frame_shares.hpp, frame_parts in live_stats.hpp).
void frame_shares(const AppState& state) {
  const LiveStats& st = state.stats;
  const double frame = st.frame_ms.summary().median;
  if (frame <= 0.0) return;
  const FrameShares shares = account_frame(frame, frame_parts(st, state.choices.renderer));
  ImGui::TextWrapped("frame %s ms (median):", compact_ms(frame).c_str());
  constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg;
  if (ImGui::BeginTable("shares", 3, kFlags)) {
    ImGui::TableSetupColumn("part", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("ms", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("%", ImGuiTableColumnFlags_WidthFixed);
    for (std::size_t i = 0; i < shares.parts.size(); ++i) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextWrapped("%s", shares.parts[i].name.c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%s ms", compact_ms(shares.parts[i].ms).c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%5.1f%%", shares.percent[i]);
    }
    ImGui::EndTable();
  }
  if (shares.overlap_ms > 0.0) {
    // GPU work runs beside the host's: the parts' medians exceed the frame's.
    ImGui::TextDisabled("parts overlap by %s ms:", compact_ms(shares.overlap_ms).c_str());
    ImGui::TextDisabled("shares of their sum");
  }
}

// One horizontal bar split by stage medians, so where the pipeline's GPU time goes (the sort's
// share above all) is visible at a glance; the colours match the bench chart.
void stacked_stage_bar(const AppState& state) {
  constexpr ImU32 kColors[kStageCount] = {IM_COL32(0, 114, 178, 255), IM_COL32(230, 159, 0, 255),
                                          IM_COL32(0, 158, 115, 255), IM_COL32(213, 94, 0, 255),
                                          IM_COL32(204, 121, 167, 255)};
  const bool* in_simulate = state.last_info.stages.in_simulate;
  double medians[kStageCount];
  double total = 0.0;
  for (int s = 0; s < kStageCount; ++s) {
    medians[s] = state.stats.stage_ms[s].summary().median;
    total += medians[s];
  }
  ImGui::Text("stages %s ms (medians)", compact_ms(total).c_str());
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x;
  const float height = 0.9f * ImGui::GetFontSize();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  float x = origin.x;
  for (int s = 0; s < kStageCount && total > 0.0; ++s) {
    const float w = static_cast<float>(medians[s] / total) * width;
    draw->AddRectFilled(ImVec2(x, origin.y), ImVec2(x + w, origin.y + height), kColors[s]);
    x += w;
  }
  ImGui::Dummy(ImVec2(width, height));
  for (int s = 0; s < kStageCount; ++s) {
    const std::string entry = std::string(to_string(static_cast<Stage>(s))) + " " +
                              stage_time_text(medians[s], in_simulate[s]);
    if (s > 0) same_line_if_fits(ImGui::CalcTextSize(entry.c_str()).x);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kColors[s]), "%s", entry.c_str());
  }
}

void graphs(const AppState& state) {
  plot_series("frame", state.stats.frame_ms);
  plot_series("backend", state.stats.backend_ms);
  const RendererKind renderer = state.choices.renderer;
  plot_series(std::string(renderer_info(renderer).timed_as).c_str(),
              renderer_series(state.stats, renderer));
  if (state.choices.compare) plot_series(kPixelsOffShareName, state.stats.pixels_off_ms);
  plot_series("present", state.stats.present_ms);
  plot_series("pipeline span", state.stats.span_ms);
  if (ImGui::TreeNode("each stage")) {
    for (int s = 0; s < kStageCount; ++s) {
      plot_series(to_string(static_cast<Stage>(s)), state.stats.stage_ms[s],
                  state.last_info.stages.in_simulate[s]);
    }
    ImGui::TreePop();
  }
}

void details(const AppState& state) {
  ImGui::TextWrapped("GL %s", state.gl_renderer.c_str());
  const Extents& e = state.last_info.extents;
  if (!e.empty()) {
    ImGui::Text("x [%.2f, %.2f]", e.min.x, e.max.x);
    ImGui::Text("y [%.2f, %.2f]", e.min.y, e.max.y);
    ImGui::Text("z [%.2f, %.2f]", e.min.z, e.max.z);
    ImGui::Text("depth [%.2f, %.2f]", e.depth_min, e.depth_max);
    ImGui::Text("max speed %.2f", e.max_speed);
  }
}

// Every key binding, one a row: the keys, then what they do, wrapped to the panel.
void keys() {
  if (!ImGui::BeginTable("keys", 2, ImGuiTableFlags_SizingFixedFit)) return;
  ImGui::TableSetupColumn("keys", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("action", ImGuiTableColumnFlags_WidthStretch);
  for (const KeyBinding& k : key_bindings()) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(k.keys);
    ImGui::TableNextColumn();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", k.action);
    ImGui::PopStyleColor();
  }
  ImGui::EndTable();
}

}  // namespace

Hud::Hud(GLFWwindow* window, std::optional<float> ui_scale) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // no imgui.ini litter in the working directory
  // Given, or the monitor's content scale (2 on a 200% screen), where GLFW knows it.
  float sx = 1.0f, sy = 1.0f;
  glfwGetWindowContentScale(window, &sx, &sy);
  scale_ = ui_scale ? clamp_ui_scale(*ui_scale) : default_ui_scale(sx, sy);
  // The built-in font rasterised at the scaled size rather than stretched (FontGlobalScale), so
  // that text stays sharp; every padding and spacing scales with it.
  ImFontConfig font;
  font.SizePixels = std::round(13.0f * scale_);
  io.Fonts->AddFontDefault(&font);
  ImGui::StyleColorsDark();
  // Tighter rows than ImGui's default (padding 4x3, spacing 8x4): the settings and the frame's
  // shares then fit above the fold of an 800x500 window.
  ImGuiStyle& style = ImGui::GetStyle();
  style.FramePadding = ImVec2(4.0f, 2.0f);
  style.ItemSpacing = ImVec2(6.0f, 3.0f);
  style.ScaleAllSizes(scale_);
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
  const ImageRect shown = state.hud_visible ? panel(state) : ImageRect{};
  // On the image whether the panel shows or not: a hidden panel leaves the view labelled.
  draw_compare_overlay(state, scale_, shown);
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

ImageRect Hud::panel(AppState& state) {
  const ImGuiIO& io = ImGui::GetIO();
  const HudPanel p = hud_panel(io.DisplaySize.x, io.DisplaySize.y, scale_);
  ImGui::SetNextWindowPos(ImVec2(p.x, p.y), ImGuiCond_FirstUseEver);
  // As wide as the layout says and as tall as its open sections, up to the window's height, past
  // which it scrolls.
  ImGui::SetNextWindowSizeConstraints(ImVec2(p.width, 0.0f), ImVec2(p.width, p.max_height));
  ImGui::SetNextWindowBgAlpha(0.6f);
  ImGui::Begin("particles (Tab hides)###hud", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
  const float frame_ms = state.stats.frame_ms.latest();
  ImGui::Text("%.1f fps  %s ms", frame_ms > 0.0f ? 1000.0f / frame_ms : 0.0f,
              compact_ms(frame_ms).c_str());
  ImGui::TextWrapped("%s, %s particles, %s backend", state.scene.name.c_str(),
                     count_label(state.count).c_str(), state.backend_name.c_str());
  if (!state.record_dir.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.35f, 0.3f, 1.0f));
    ImGui::TextWrapped("recording: %llu frames into %s",
                       static_cast<unsigned long long>(state.recorded_frames),
                       state.record_dir.string().c_str());
    ImGui::PopStyleColor();
  }
  if (section("settings", true)) settings(state);
  if (section("timings", true)) {
    frame_shares(state);
    stacked_stage_bar(state);
  }
  if (section("graphs", graphs_open_by_default(io.DisplaySize.y, scale_))) graphs(state);
  if (section("scene details", false)) details(state);
  if (section("keys", false)) keys();
  const ImVec2 at = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  ImGui::End();
  return ImageRect{at.x, at.y, size.x, size.y};
}

}  // namespace particles
