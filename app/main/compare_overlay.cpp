#include "app/main/compare_overlay.hpp"

#include <imgui.h>

#include <algorithm>
#include <string>

#include "app/main/app_state.hpp"
#include "app/main/compare_labels.hpp"
#include "app/main/hud_layout.hpp"

namespace particles {
namespace {

constexpr ImU32 kBoxColor = IM_COL32(0, 0, 0, 170);
constexpr ImU32 kTextColor = IM_COL32(255, 255, 255, 255);

// `text` on a dark box whose top-left corner is `at`, wrapped at `wrap` wide; returns the box's
// size.
ImVec2 label_box(ImDrawList* draw, ImVec2 at, const std::string& text, float wrap, float pad) {
  const ImVec2 size = ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap);
  draw->AddRectFilled(at, ImVec2(at.x + size.x + 2.0f * pad, at.y + size.y + 2.0f * pad), kBoxColor,
                      pad);
  draw->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(at.x + pad, at.y + pad), kTextColor,
                text.c_str(), nullptr, wrap);
  return ImVec2(size.x + 2.0f * pad, size.y + 2.0f * pad);
}

ImVec2 box_size(const std::string& text, float wrap, float pad) {
  const ImVec2 size = ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap);
  return ImVec2(size.x + 2.0f * pad, size.y + 2.0f * pad);
}

// Each half's order at the top of the image, on either side of the divider, each wrapped to the
// part of its half that the panel leaves in view.
void split_overlay(ImDrawList* draw, const ImageRect& image, const SplitLabels& labels,
                   const ImageRect& panel, float s) {
  const float pad = 4.0f * s, gap = 6.0f * s;
  const float middle = image.x + 0.5f * image.width;
  const float top = image.y + gap;
  const Span clear = clear_of_panel(image, panel, top, top + 4.0f * ImGui::GetFontSize(), gap);
  const auto wrap_within = [&](float from, float to) {
    return std::max(to - from - 2.0f * gap - 2.0f * pad, 8.0f * s);
  };
  const float left_wrap = wrap_within(std::max(clear.left, image.x), middle);
  const float right_wrap = wrap_within(middle, std::min(clear.right, image.x + image.width));
  const ImVec2 left = box_size(labels.left, left_wrap, pad);
  label_box(draw, ImVec2(middle - gap - left.x, top), labels.left, left_wrap, pad);
  label_box(draw, ImVec2(middle + gap, top), labels.right, right_wrap, pad);
}

// The share of differing pixels, what is compared, and the heat map's ramp from the smallest
// difference (1/255, dark red) to kHeatBarFull/255 and more (white), at the bottom of the image,
// beside the panel where it would cover the box, the text wrapped to the room left.
void heat_overlay(ImDrawList* draw, const ImageRect& image, const AppState& state,
                  const ImageRect& panel, float s) {
  const float pad = 5.0f * s, gap = 8.0f * s;
  const std::string caption = heat_caption(state.heat_count);
  const std::string compared = "exact vs " + order_description(state.choices);
  const std::string low = "1/255", high = std::to_string(kHeatBarFull) + "/255 or more";
  const float bar_h = 0.8f * ImGui::GetFontSize();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float spacing = line - ImGui::GetTextLineHeight();
  const float text_w =
      std::max(ImGui::CalcTextSize(caption.c_str()).x, ImGui::CalcTextSize(compared.c_str()).x);
  const float bottom = image.y + image.height - gap;
  // The box's width depends on the room beside the panel over its rows, and its height on the
  // wrapping that width gives: one line each first, then the wrapped height (which only grows,
  // so the room only shrinks).
  float inner_w = 0.0f, caption_h = line, compared_h = line;
  Span clear;
  for (int pass = 0; pass < 2; ++pass) {
    const float box_h = caption_h + compared_h + bar_h + line + 2.0f * pad;
    clear = clear_of_panel(image, panel, bottom - box_h, bottom, gap);
    inner_w = std::max(
        std::min(std::max(256.0f * s, text_w), clear.width() - 2.0f * gap - 2.0f * pad), 8.0f * s);
    caption_h = ImGui::CalcTextSize(caption.c_str(), nullptr, false, inner_w).y + spacing;
    compared_h = ImGui::CalcTextSize(compared.c_str(), nullptr, false, inner_w).y + spacing;
  }
  const float bar_w = std::min(std::min(256.0f * s, 0.6f * image.width), inner_w);
  const float box_w = inner_w + 2.0f * pad;
  const float box_h = caption_h + compared_h + bar_h + line + 2.0f * pad;
  const ImVec2 at(place_box(image, clear, box_w), bottom - box_h);
  draw->AddRectFilled(at, ImVec2(at.x + box_w, at.y + box_h), kBoxColor, pad);
  ImVec2 cursor(at.x + pad, at.y + pad);
  draw->AddText(ImGui::GetFont(), ImGui::GetFontSize(), cursor, kTextColor, caption.c_str(),
                nullptr, inner_w);
  cursor.y += caption_h;
  draw->AddText(ImGui::GetFont(), ImGui::GetFontSize(), cursor, IM_COL32(200, 200, 200, 255),
                compared.c_str(), nullptr, inner_w);
  cursor.y += compared_h;
  // The bar, centred in the box: one step per difference, coloured as the heat map colours it.
  const float bar_x = at.x + 0.5f * (box_w - bar_w);
  const float step = bar_w / static_cast<float>(kHeatBarFull);
  for (int d = 1; d <= kHeatBarFull; ++d) {
    const float x0 = bar_x + step * static_cast<float>(d - 1);
    draw->AddRectFilled(ImVec2(x0, cursor.y), ImVec2(x0 + step + 0.5f, cursor.y + bar_h),
                        heat_bar_rgba8(d));  // RGBA8 with red lowest, as ImU32 is
  }
  cursor.y += bar_h + 0.25f * line;
  const ImU32 tick = IM_COL32(200, 200, 200, 255);
  draw->AddText(ImVec2(bar_x, cursor.y), tick, low.c_str());
  draw->AddText(ImVec2(bar_x + bar_w - ImGui::CalcTextSize(high.c_str()).x, cursor.y), tick,
                high.c_str());
}

}  // namespace

void draw_compare_overlay(const AppState& state, float ui_scale, const ImageRect& panel) {
  if (!state.choices.compare || !state.last_info.compare_order) return;
  const ImGuiIO& io = ImGui::GetIO();
  const ImageRect image =
      fit_image(state.image_width, state.image_height, io.DisplaySize.x, io.DisplaySize.y);
  if (image.width <= 0.0f || image.height <= 0.0f) return;
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  const float s = clamp_ui_scale(ui_scale);
  if (state.choices.compare_mode == CompareMode::heat) {
    heat_overlay(draw, image, state, panel, s);
  } else {
    split_overlay(draw, image, split_labels(state.choices), panel, s);
  }
}

}  // namespace particles
