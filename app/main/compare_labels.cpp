#include "app/main/compare_labels.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

#include "core/composite/difference_heat.hpp"

namespace particles {

std::string order_description(const FrameChoices& c) {
  switch (c.order) {
    case DrawOrder::exact:
      return c.key_mode == KeyMode::quantized ? "exact, " + std::to_string(c.key_bits) + "-bit keys"
                                              : "exact";
    case DrawOrder::unsorted:
      return "unsorted: index order";
    case DrawOrder::stale:
      return c.order_period <= 1
                 ? "stale: sorted every frame"
                 : "stale: sorted every " + std::to_string(c.order_period) + " frames";
    case DrawOrder::eye_distance:
      return "eye: by distance to the eye";
    case DrawOrder::coarse:
      return "coarse: " + std::to_string(kDefaultCoarseBits) + "-bit depth keys";
  }
  return std::string(to_string(c.order));
}

SplitLabels split_labels(const FrameChoices& choices) {
  return {"exact order", order_description(choices)};
}

namespace {

std::uint32_t word_at(std::span<const std::uint8_t> rgba, std::size_t pixel) {
  const std::size_t i = 4 * pixel;
  return rgba[i] | (std::uint32_t{rgba[i + 1]} << 8) | (std::uint32_t{rgba[i + 2]} << 16) |
         (std::uint32_t{rgba[i + 3]} << 24);
}

}  // namespace

std::uint32_t heat_background(std::span<const std::uint8_t> rgba) {
  const std::size_t pixels = rgba.size() / 4;
  const std::size_t stride = std::max<std::size_t>(pixels / 4096, 1);
  std::map<std::uint32_t, std::size_t> counts;
  for (std::size_t p = 0; p < pixels; p += stride) {
    const std::uint32_t w = word_at(rgba, p);
    if (!heat_pixel_differs(w)) ++counts[w];
  }
  std::uint32_t background = 0;
  std::size_t most = 0;
  for (const auto& [colour, n] : counts) {
    if (n > most) {
      most = n;
      background = colour;
    }
  }
  return background;
}

HeatCount count_heat_differences(std::span<const std::uint8_t> rgba) {
  HeatCount c;
  c.pixels = rgba.size() / 4;
  const std::uint32_t background = heat_background(rgba);
  for (std::size_t p = 0; p < c.pixels; ++p) {
    const std::uint32_t w = word_at(rgba, p);
    const bool differs = heat_pixel_differs(w);
    c.differing += differs ? 1u : 0u;
    c.off += heat_pixel_off(w) ? 1u : 0u;
    c.lit += differs || w != background ? 1u : 0u;
  }
  return c;
}

std::string share_text(double share) {
  const double percent = 100.0 * std::clamp(share, 0.0, 1.0);
  char text[32];
  if (percent <= 0.0) return "0%";
  if (percent < 0.01) return "<0.01%";
  if (percent < 1.0) {
    std::snprintf(text, sizeof text, "%.2f%%", percent);
  } else if (percent < 99.95) {
    std::snprintf(text, sizeof text, "%.1f%%", percent);
  } else {
    return percent < 100.0 ? ">99.9%" : "100%";
  }
  return text;
}

std::string heat_caption(const HeatCount& count) {
  if (count.pixels == 0) return "differing pixels: counting";
  // The first figure is the order error's measure (core/pixels_off.hpp), so that the caption and
  // the HUD's "pixels off" speak of the same thing; the second shows how far the smallest
  // differences reach.
  return share_text(count.lit_share_off()) + " of lit pixels off by more than " +
         std::to_string(kPixelsOffThreshold) + "/255; " + share_text(count.lit_share()) +
         " differ at all";
}

std::uint32_t heat_bar_rgba8(int difference) {
  const auto d = static_cast<std::uint32_t>(std::clamp(difference, 0, 255));
  return difference_heat_rgba8(0xff000000u, 0xff000000u | d);  // red differs by d
}

}  // namespace particles
