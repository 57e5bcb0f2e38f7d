#pragma once
// What the comparison view's labels say, apart from where ImGui draws them (compare_overlay.hpp):
// which half of the split view is which order, and in the heat view the colour bar's colours and
// the share of pixels where the two orders' images differ, counted from the heat image itself.
#include <cstdint>
#include <span>
#include <string>

#include "core/composite/difference_heat.hpp"
#include "core/frame_choices.hpp"
#include "core/pixels_off.hpp"

namespace particles {

// The chosen order in words: "stale: sorted every 8 frames", "eye: by distance to the eye",
// "exact, 16-bit keys" (quantized keys make even the exact order approximate).
std::string order_description(const FrameChoices& choices);

// The split view's two labels: the left half is always the exact order (exact keys), the right
// half the drawn one.
struct SplitLabels {
  std::string left, right;
};
SplitLabels split_labels(const FrameChoices& choices);

// Whether a pixel of the heat view (RGBA8, red in the lowest byte) marks a difference. The heat
// map (core/composite/difference_heat.hpp) shows an agreeing pixel as the exact image at a quarter
// of its brightness, so each channel at most 63, and a differing one at level 52 or more, whose red
// is at least 156: red above 63 is a difference, exactly.
constexpr bool heat_pixel_differs(std::uint32_t heat_rgba8) {
  return (heat_rgba8 & 0xffu) > 63u;
}

// Whether a heat pixel marks a difference of more than kPixelsOffThreshold/255, the order error's
// "off" (core/pixels_off.hpp): the ramp's red still climbs there, so a red above that
// difference's is exactly a larger difference.
inline constexpr std::uint32_t kHeatOffRed =
    difference_heat_red(difference_heat_level(kPixelsOffThreshold));
static_assert(kHeatOffRed < difference_heat_red(difference_heat_level(kPixelsOffThreshold + 1)),
              "the heat ramp's red must tell the order error's threshold apart");
constexpr bool heat_pixel_off(std::uint32_t heat_rgba8) {
  return (heat_rgba8 & 0xffu) > kHeatOffRed;
}

// The background's colour in a heat view: the most common colour of the agreeing pixels among up to
// 4096 spread over the image (the scene's background rarely differs, and covers most frames); 0
// where none agrees.
std::uint32_t heat_background(std::span<const std::uint8_t> rgba);

struct HeatCount {
  std::uint64_t pixels = 0;
  // Pixels that show the scene: those that differ, and the agreeing ones whose colour is not the
  // background's (heat_background).
  std::uint64_t lit = 0;
  std::uint64_t differing = 0;
  std::uint64_t off = 0;  // of the differing, those more than kPixelsOffThreshold/255 apart
  // Of the whole image, and of its lit pixels (what the scene covers); 0 of none. -1 before the
  // first count (AppState keeps one).
  double share() const { return ratio(differing, pixels); }
  double lit_share() const { return ratio(differing, lit); }
  double lit_share_off() const { return ratio(off, lit); }

 private:
  static double ratio(std::uint64_t part, std::uint64_t whole) {
    return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole);
  }
};
// Counts the lit and the differing pixels of a heat view read back as RGBA8 bytes
// (gl::Image::rgba).
HeatCount count_heat_differences(std::span<const std::uint8_t> rgba);

// A share in [0, 1] as a percentage with the digits that matter: "0%", "<0.01%", "0.37%", "12.3%",
// ">99.9%", "100%" (a share that rounds to 0 or 100 but is not says so).
std::string share_text(double share);

// The heat view's caption: "41.0% of lit pixels differ (3.6% of the image)" once counted, else
// that it is being counted. Of lit pixels first: the image's share depends on how much of the
// frame the scene covers.
std::string heat_caption(const HeatCount& count);

// The colour bar: the heat map's colour (RGBA8) of a pixel whose images differ by `difference`
// (0-255, the largest channel's difference), on black. From kHeatBarFull up it is white.
std::uint32_t heat_bar_rgba8(int difference);
inline constexpr int kHeatBarFull = 52;  // 48 + 4 * 52 > 255: the ramp's end

}  // namespace particles
