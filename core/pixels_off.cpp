#include "core/pixels_off.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace particles {
namespace {

// One pixel's verdict, from the first three channels of each image.
inline void count_pixel(const std::uint8_t* pa, const std::uint8_t* pb, const Rgb8& bg,
                        PixelsOff& counts) {
  int lit = 0, apart = 0;
  for (int c = 0; c < 3; ++c) {
    const int va = pa[c], vb = pb[c], vbg = bg[static_cast<std::size_t>(c)];
    lit = std::max({lit, std::abs(va - vbg), std::abs(vb - vbg)});
    apart = std::max(apart, std::abs(va - vb));
  }
  if (lit > kPixelsOffThreshold) {
    ++counts.lit;
    if (apart > kPixelsOffThreshold) ++counts.off;
  }
}

}  // namespace

Rgb8 rgb8_of(const Color& background) {
  return {static_cast<std::uint8_t>(unorm8_of(background.r)),
          static_cast<std::uint8_t>(unorm8_of(background.g)),
          static_cast<std::uint8_t>(unorm8_of(background.b))};
}

PixelsOff count_pixels_off(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b,
                           int channels, const Rgb8& background) {
  if (channels < 3 || channels > 4) {
    throw std::invalid_argument("count_pixels_off: " + std::to_string(channels) +
                                " channels a pixel (3 or 4 are compared)");
  }
  const auto stride = static_cast<std::size_t>(channels);
  if (a.size() != b.size() || a.size() % stride != 0) {
    throw std::invalid_argument("count_pixels_off: images of " + std::to_string(a.size()) +
                                " and " + std::to_string(b.size()) + " bytes, " +
                                std::to_string(channels) + " a pixel");
  }
  PixelsOff counts;
  for (std::size_t i = 0; i < a.size(); i += stride) {
    count_pixel(a.data() + i, b.data() + i, background, counts);
  }
  return counts;
}

PixelsOff count_pixels_off(const CompositeImage& a, const CompositeImage& b,
                           const PixelF& background) {
  if (a.width != b.width || a.height != b.height || a.pixels.size() != b.pixels.size()) {
    throw std::invalid_argument("count_pixels_off: images of " + std::to_string(a.width) + "x" +
                                std::to_string(a.height) + " and " + std::to_string(b.width) + "x" +
                                std::to_string(b.height));
  }
  const std::uint32_t bg8 = rgba8_of(background);
  const Rgb8 bg = {static_cast<std::uint8_t>(bg8), static_cast<std::uint8_t>(bg8 >> 8),
                   static_cast<std::uint8_t>(bg8 >> 16)};
  PixelsOff counts;
  for (std::size_t i = 0; i < a.pixels.size(); ++i) {
    const std::uint32_t pa = rgba8_of(a.pixels[i]), pb = rgba8_of(b.pixels[i]);
    const std::uint8_t ba[3] = {static_cast<std::uint8_t>(pa), static_cast<std::uint8_t>(pa >> 8),
                                static_cast<std::uint8_t>(pa >> 16)};
    const std::uint8_t bb[3] = {static_cast<std::uint8_t>(pb), static_cast<std::uint8_t>(pb >> 8),
                                static_cast<std::uint8_t>(pb >> 16)};
    count_pixel(ba, bb, bg, counts);
  }
  return counts;
}

}  // namespace particles
