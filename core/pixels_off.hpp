#pragma once
// How far a frame drawn in an approximate order is from the exact order's image of the same
// frame, as a viewer sees it: the share of lit pixels whose two images differ visibly. A pixel is
// lit when either image is more than 8/255 from the background in some channel, and off when the
// two images are more than 8/255 apart in some channel (alpha is not compared: the window and the
// files show colour). Counting lit pixels only keeps an empty sky from diluting the share. The
// comparison view (live), the bench and tools/order_contrast all measure with this one function;
// the CUDA backend's kernel (cuda/composite/pixels_off.hpp) judges each pixel as it does
// (core/pixel_verdict.hpp).
#include <array>
#include <cstdint>
#include <span>

#include "core/color.hpp"
#include "core/composite/cpu_compositor.hpp"
#include "core/composite/pixel.hpp"
#include "core/pixel_verdict.hpp"

namespace particles {

struct PixelsOff {
  std::uint64_t lit = 0;  // pixels lit in either image
  std::uint64_t off = 0;  // of those, the ones whose two images differ visibly
  // Every pixel compared, lit or not, and their squared 8-bit colour differences; 0 pixels where
  // a count did not sum them (the CUDA kernel does not yet: psnr_db() is then not a number).
  std::uint64_t pixels = 0;
  std::uint64_t squared_error = 0;
  // off / lit in percent; 0 when nothing is lit (nothing to get wrong).
  double percent() const { return lit == 0 ? 0.0 : 100.0 * double(off) / double(lit); }
  // Peak signal-to-noise ratio of the 8-bit colour over the whole image, in dB, as image error
  // is usually quoted (the pixels-off share is the one that ignores an empty sky): +infinity
  // when the images are the same, NaN when nothing was summed (pixels == 0).
  double psnr_db() const;
};

using Rgb8 = std::array<std::uint8_t, 3>;

// A straight background colour as the 8-bit pixels of an image cleared to it (alpha ignored).
Rgb8 rgb8_of(const Color& background);

// `a` and `b`: the same number of 8-bit pixels, `channels` bytes each (3 for RGB, 4 for RGBA;
// channels past the third are not compared). Throws std::invalid_argument on sizes that differ,
// are not whole pixels, or a channel count outside 3..4.
PixelsOff count_pixels_off(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b,
                           int channels, const Rgb8& background);

// The same for two float images (premultiplied, as the compositor leaves them) turned into bytes
// as the window and the screenshots turn them (rgba8_of); `background` premultiplied as well.
// Throws std::invalid_argument when the images differ in size.
PixelsOff count_pixels_off(const CompositeImage& a, const CompositeImage& b,
                           const PixelF& background);

}  // namespace particles
