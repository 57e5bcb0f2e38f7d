#pragma once
// The comparison view's heat map, pixel by pixel: both images' pixels as the bytes a screenshot
// holds (rgba8_of), then integers, so that the GL pass (shaders/difference_heat.frag) and the
// composite renderer's images agree bit for bit. The difference is the largest of the three colour
// channels' (0-255); where it is 0 the exact image shows at a quarter of its brightness, so the
// scene stays recognisable, and any difference at all is at least a dark red: level = min(255, 48 +
// 4 * difference) runs the ramp black, red (85), yellow (170), white (255).
#include <cstdint>
#include <stdexcept>

#include "core/composite/cpu_compositor.hpp"
#include "core/composite/pixel.hpp"
#include "core/host_device.hpp"

namespace particles {

// The ramp's level for a difference of d (1-255): it starts dark enough to see and is white from
// about 52/255 up.
PARTICLES_HD constexpr std::uint32_t difference_heat_level(std::uint32_t d) {
  return 48u + 4u * d < 255u ? 48u + 4u * d : 255u;
}
// The red of a ramp level (red runs first, from level 0 to 85).
PARTICLES_HD constexpr std::uint32_t difference_heat_red(std::uint32_t level) {
  return 3u * level > 255u ? 255u : 3u * level;
}

// RGBA8 words, r in the lowest byte.
PARTICLES_HD std::uint32_t difference_heat_rgba8(std::uint32_t exact, std::uint32_t drawn) {
  std::uint32_t difference = 0;
  for (int c = 0; c < 3; ++c) {
    const int a = static_cast<int>((exact >> (8 * c)) & 0xffu);
    const int b = static_cast<int>((drawn >> (8 * c)) & 0xffu);
    const std::uint32_t d = static_cast<std::uint32_t>(a > b ? a - b : b - a);
    difference = d > difference ? d : difference;
  }
  if (difference == 0) {
    return 0xff000000u | ((exact >> 2) & 0x003f3f3fu);  // each channel / 4, rounded down
  }
  const std::uint32_t level = difference_heat_level(difference);
  const auto ramp = [&](std::uint32_t from) {
    const std::uint32_t v = 3u * level;
    return v <= from ? 0u : (v - from > 255u ? 255u : v - from);
  };
  return 0xff000000u | ramp(0) | (ramp(255) << 8) | (ramp(510) << 16);
}

PARTICLES_HD PixelF difference_heat(const PixelF& exact, const PixelF& drawn) {
  return pixel_of_rgba8(difference_heat_rgba8(rgba8_of(exact), rgba8_of(drawn)));
}

// `drawn` (the drawn order's image) becomes the heat map against `exact`; one viewport each.
inline void compose_heat_view(const CompositeImage& exact, CompositeImage& drawn) {
  if (exact.width != drawn.width || exact.height != drawn.height) {
    throw std::invalid_argument("compose_heat_view: images of different sizes");
  }
  for (std::size_t i = 0; i < drawn.pixels.size(); ++i) {
    drawn.pixels[i] = difference_heat(exact.pixels[i], drawn.pixels[i]);
  }
}

}  // namespace particles
