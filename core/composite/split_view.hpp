#pragma once
// The comparison view of a composited frame, as ParticleRenderer::draw_split draws it for GL: the
// columns left of the middle from the exact order's image, the others from the drawn order's,
// and a white divider over the two columns at the middle.
#include <cstdint>
#include <stdexcept>

#include "core/composite/cpu_compositor.hpp"

namespace particles {

inline constexpr std::uint32_t kSplitDivider = 0xffffffffu;  // opaque white, premultiplied

// `image` (the drawn order's) takes `exact`'s left half and the divider; both are one viewport.
inline void compose_split_view(const CompositeImage& exact, CompositeImage& image) {
  if (exact.width != image.width || exact.height != image.height) {
    throw std::invalid_argument("compose_split_view: images of different sizes");
  }
  const int half = image.width / 2;
  const int divider = half > 0 ? half - 1 : 0;
  for (int y = 0; y < image.height; ++y) {
    const std::size_t row = static_cast<std::size_t>(y) * static_cast<std::size_t>(image.width);
    for (int x = 0; x < divider; ++x) image.rgba8[row + x] = exact.rgba8[row + x];
    for (int x = divider; x < divider + 2 && x < image.width; ++x) {
      image.rgba8[row + x] = kSplitDivider;
    }
  }
}

}  // namespace particles
