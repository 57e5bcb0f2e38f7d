#pragma once
// One pixel's part in the order error that follows the picture (core/pixels_off.hpp): whether it
// is lit and whether its two images differ visibly there. The CPU count (count_pixels_off) and
// the CUDA kernel (cuda/composite/pixels_off.cu) both call this, so the two cannot drift apart.
#include <cstdint>

#include "core/composite/pixel.hpp"
#include "core/host_device.hpp"

namespace particles {

inline constexpr int kPixelsOffThreshold = 8;  // of 255, as in issue #39

struct PixelVerdict {
  bool lit = false;  // either image more than the threshold from the background
  bool off = false;  // lit, and the two images more than the threshold apart
  // The squared 8-bit differences of the two images' colour channels, summed (for the PSNR).
  std::uint32_t squared = 0;
};

// The distance of two 8-bit channels (no std::abs: the kernel calls this too).
PARTICLES_HD int channel_distance(std::uint32_t a, std::uint32_t b) {
  const int d = static_cast<int>(a & 0xffu) - static_cast<int>(b & 0xffu);
  return d < 0 ? -d : d;
}

// a, b, background: 8-bit pixels packed as rgba8_of packs them (r in the lowest byte). Only the
// colour is compared: the fourth byte is ignored, as the window and the files show colour.
PARTICLES_HD PixelVerdict pixel_verdict(std::uint32_t a, std::uint32_t b,
                                        std::uint32_t background) {
  int lit = 0, apart = 0;  // the largest distances over the three colour channels
  std::uint32_t squared = 0;
  for (int shift = 0; shift < 24; shift += 8) {
    const int a_lit = channel_distance(a >> shift, background >> shift);
    const int b_lit = channel_distance(b >> shift, background >> shift);
    const int a_to_b = channel_distance(a >> shift, b >> shift);
    lit = a_lit > lit ? a_lit : lit;
    lit = b_lit > lit ? b_lit : lit;
    apart = a_to_b > apart ? a_to_b : apart;
    squared += static_cast<std::uint32_t>(a_to_b * a_to_b);
  }
  PixelVerdict v;
  v.squared = squared;
  v.lit = lit > kPixelsOffThreshold;
  v.off = v.lit && apart > kPixelsOffThreshold;
  return v;
}

// The same for two float pixels (premultiplied, as the compositor leaves them) turned into bytes
// as the window and the screenshots turn them.
PARTICLES_HD PixelVerdict pixel_verdict(const PixelF& a, const PixelF& b,
                                        std::uint32_t background) {
  return pixel_verdict(rgba8_of(a), rgba8_of(b), background);
}

}  // namespace particles
