#include "app/main/hud_layout.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace particles {

float clamp_ui_scale(float scale) {
  if (std::isnan(scale)) return 1.0f;
  return std::clamp(scale, kMinUiScale, kMaxUiScale);
}

float default_ui_scale(float content_scale_x, float content_scale_y) {
  const float s = std::max(content_scale_x, content_scale_y);
  if (!(s > 0.0f) || !std::isfinite(s)) return 1.0f;
  return clamp_ui_scale(std::round(s * 4.0f) / 4.0f);
}

HudPanel hud_panel(float window_w, float window_h, float ui_scale) {
  const float s = clamp_ui_scale(ui_scale);
  HudPanel p;
  const float margin = std::min(8.0f * s, 0.02f * std::max(window_w, 0.0f));
  p.x = p.y = margin;
  // 230 units hold the settings' widest row at scale 1 (a combo and its key hint); 300 keep the
  // panel to under a quarter of a 1280-wide window.
  const float wanted = std::clamp(0.2f * window_w, 230.0f * s, 300.0f * s);
  p.width = std::max(std::min(wanted, 0.5f * window_w), 0.0f);
  p.max_height = std::max(window_h - 2.0f * margin, 0.0f);
  return p;
}

bool graphs_open_by_default(float window_h, float ui_scale) {
  return window_h >= 900.0f * clamp_ui_scale(ui_scale);
}

ImageRect fit_image(int image_w, int image_h, float window_w, float window_h) {
  if (image_w <= 0 || image_h <= 0 || window_w <= 0.0f || window_h <= 0.0f) return {};
  const float scale =
      std::min(window_w / static_cast<float>(image_w), window_h / static_cast<float>(image_h));
  ImageRect r;
  r.width = std::floor(static_cast<float>(image_w) * scale);
  r.height = std::floor(static_cast<float>(image_h) * scale);
  r.x = std::floor((window_w - r.width) / 2.0f);
  r.y = std::floor((window_h - r.height) / 2.0f);
  return r;
}

Span clear_of_panel(const ImageRect& image, const ImageRect& panel, float top, float bottom,
                    float gap) {
  Span clear{image.x, image.x + image.width};
  const bool covers_rows =
      panel.width > 0.0f && panel.height > 0.0f && panel.y < bottom && panel.y + panel.height > top;
  const bool covers_columns = panel.x < clear.right && panel.x + panel.width > clear.left;
  if (!covers_rows || !covers_columns) return clear;
  if (panel.x + 0.5f * panel.width < image.x + 0.5f * image.width) {
    clear.left = std::min(std::max(clear.left, panel.x + panel.width + gap), clear.right);
  } else {
    clear.right = std::max(std::min(clear.right, panel.x - gap), clear.left);
  }
  return clear;
}

float place_box(const ImageRect& image, Span clear, float width) {
  const float centred = image.x + 0.5f * (image.width - width);
  if (centred >= clear.left && centred + width <= clear.right) return centred;
  return clear.left + std::max(0.5f * (clear.width() - width), 0.0f);
}

std::string compact_ms(double ms) {
  if (!(ms >= 0.0)) return "-";
  char text[32];
  const int decimals = ms >= 99.95 ? 0 : ms >= 9.995 ? 1 : ms >= 0.9995 ? 2 : ms >= 0.09995 ? 3 : 4;
  std::snprintf(text, sizeof text, "%.*f", decimals, ms);
  return text;
}

}  // namespace particles
