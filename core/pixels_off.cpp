#include "core/pixels_off.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace particles {
namespace {

// A pixel's first three bytes packed as rgba8_of packs them, for pixel_verdict.
std::uint32_t rgb_word(const std::uint8_t* p) {
  return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16;
}

void count(const PixelVerdict& v, PixelsOff& counts) {
  counts.lit += v.lit ? 1u : 0u;
  counts.off += v.off ? 1u : 0u;
  counts.pixels += 1u;
  counts.squared_error += v.squared;
}

}  // namespace

double PixelsOff::psnr_db() const {
  if (pixels == 0) return std::numeric_limits<double>::quiet_NaN();
  if (squared_error == 0) return std::numeric_limits<double>::infinity();
  const double mean_squared = double(squared_error) / (3.0 * double(pixels));
  return 10.0 * std::log10(255.0 * 255.0 / mean_squared);
}

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
  const std::uint32_t bg = rgb_word(background.data());
  PixelsOff counts;
  for (std::size_t i = 0; i < a.size(); i += stride) {
    count(pixel_verdict(rgb_word(a.data() + i), rgb_word(b.data() + i), bg), counts);
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
  const std::uint32_t bg = rgba8_of(background);
  PixelsOff counts;
  for (std::size_t i = 0; i < a.pixels.size(); ++i)
    count(pixel_verdict(a.pixels[i], b.pixels[i], bg), counts);
  return counts;
}

}  // namespace particles
