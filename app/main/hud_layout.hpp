#pragma once
// The HUD's geometry as plain functions of the window, so that "fits at 800x500" is a test and not
// a hope: the panel's width and height, the font scale, and where the shown image lies in the
// window (the comparison view's labels sit on the image, not on the black bars around it).
#include <string>

namespace particles {

// The font scale's range (--ui-scale, and the monitor's content scale when it is not given): below
// 0.75 the default 13 px font is unreadable, above 3 the panel no longer fits a 1280x720 window.
inline constexpr float kMinUiScale = 0.75f;
inline constexpr float kMaxUiScale = 3.0f;

// `scale` clamped to [kMinUiScale, kMaxUiScale]; a NaN is 1.
float clamp_ui_scale(float scale);

// The scale a window whose monitor reports this content scale (GLFW: 2 on a 200% screen) gets
// when --ui-scale is not given: the larger axis, in quarter steps (a font rasterised at 1.3x is
// blurrier than one at 1.25x), clamped. A scale of 0 or less (unknown) is 1.
float default_ui_scale(float content_scale_x, float content_scale_y);

// The panel's place in a window of window_w x window_h (ImGui's display size, in its own units):
// about a fifth of the width, between 230 and 300 units times the font scale, never more than
// half the window; as tall as its contents up to the window's height less the margins, above which
// it scrolls.
struct HudPanel {
  float x = 0.0f, y = 0.0f;
  float width = 0.0f;
  float max_height = 0.0f;
};
HudPanel hud_panel(float window_w, float window_h, float ui_scale);

// Whether the panel's graphs start open: where the window is tall enough to show them beside the
// settings and the frame's shares (900 and up at scale 1), so a smaller window starts with a panel
// that ends above the picture's bottom.
bool graphs_open_by_default(float window_h, float ui_scale);

// Where the image of image_w x image_h appears in a window of window_w x window_h: the largest
// rectangle of its aspect ratio that fits, centred (as RenderTarget::blit_to shows it).
struct ImageRect {
  float x = 0.0f, y = 0.0f, width = 0.0f, height = 0.0f;
};
ImageRect fit_image(int image_w, int image_h, float window_w, float window_h);

// The columns of `image` that the panel (where it lies in the window; empty when hidden) leaves
// in view over the rows [top, bottom), `gap` away from its edge: the image's whole width where
// the panel misses those rows, else the side of the image away from the panel's centre. So the
// comparison view's labels stay readable beside a panel that covers part of the image.
struct Span {
  float left = 0.0f, right = 0.0f;
  float width() const { return right > left ? right - left : 0.0f; }
};
Span clear_of_panel(const ImageRect& image, const ImageRect& panel, float top, float bottom,
                    float gap);

// The left edge of a box `width` wide: centred on the image where that keeps it within `clear`,
// else centred in `clear` (at its left edge when wider).
float place_box(const ImageRect& image, Span clear, float width);

// Milliseconds in at most three significant digits, so a graph's caption fits the panel at every
// magnitude: "0.0512", "1.26", "16.7", "264", "1234"; "-" for a negative (not measured) time.
std::string compact_ms(double ms);

}  // namespace particles
