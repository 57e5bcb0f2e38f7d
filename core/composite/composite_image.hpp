#pragma once
// The image a CPU compositor makes (cpu_compositor, cpu_weighted_blended, cpu_stochastic) and the
// CPU backend uploads into the render target's texture.
#include <cstddef>
#include <vector>

#include "core/composite/pixel.hpp"

namespace particles {

// Premultiplied float pixels, rows bottom first as GL stores a texture.
struct CompositeImage {
  int width = 0, height = 0;
  std::vector<PixelF> pixels;
  const PixelF& at(int x, int y) const {
    return pixels[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                  static_cast<std::size_t>(x)];
  }
};

}  // namespace particles
