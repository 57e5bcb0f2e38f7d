#pragma once
// The comparison view of a composited frame, as ParticleRenderer::draw_split draws it for GL: the
// columns left of the middle from the exact order's image, the others from the drawn order's,
// and a white divider over the two columns at the middle.
#include <cstdint>
#include <stdexcept>

#include "core/composite/cpu_compositor.hpp"
#include "core/composite/pixel.hpp"
#include "core/host_device.hpp"

namespace particles {

// The pixel of column x of the split view `width` columns wide: the two columns at the middle
// are the divider, those left of them the exact order's, the rest the drawn order's. Shared with
// the CUDA compositor's comparison view (cuda/composite/compare_view.cu).
PARTICLES_HD PixelF split_view_pixel(int x, int width, const PixelF& exact, const PixelF& drawn) {
  const int half = width / 2;
  const int divider = half > 0 ? half - 1 : 0;
  if (x < divider) return exact;
  return x < divider + 2 ? PixelF{1.0f, 1.0f, 1.0f, 1.0f} : drawn;  // the divider: opaque white
}

// `image` (the drawn order's) takes `exact`'s left half and the divider; both are one viewport.
inline void compose_split_view(const CompositeImage& exact, CompositeImage& image) {
  if (exact.width != image.width || exact.height != image.height) {
    throw std::invalid_argument("compose_split_view: images of different sizes");
  }
  for (int y = 0; y < image.height; ++y) {
    const std::size_t row = static_cast<std::size_t>(y) * static_cast<std::size_t>(image.width);
    for (int x = 0; x < image.width; ++x) {
      image.pixels[row + x] =
          split_view_pixel(x, image.width, exact.pixels[row + x], image.pixels[row + x]);
    }
  }
}

}  // namespace particles
