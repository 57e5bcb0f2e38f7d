#pragma once
// The CPU twin of the tile compositor (cuda/composite/): the same sprites (core/composite/
// sprite.hpp) taken nearest first in float (core/composite/front_to_back.hpp), each pixel stopping
// once its transmittance is negligible, on all cores. It is what the CPU backend's composite
// renderer draws with and the oracle of the CUDA kernels.
#include <cstdint>
#include <span>
#include <vector>

#include "core/composite/composite_image.hpp"
#include "core/composite/cpu_sprite_bands.hpp"
#include "core/composite/front_to_back.hpp"
#include "core/composite/pixel.hpp"
#include "core/composite/sprite.hpp"
#include "core/particle.hpp"

namespace particles {

class CpuCompositor : public BandCompositor {
 public:
  // threads: 0 takes every core.
  explicit CpuCompositor(unsigned threads = 0) : BandCompositor(threads) {}

  // `out` (resized to the camera's viewport) becomes vertices[order[0]], vertices[order[1]], ...
  // (first drawn is farthest) composited over `background` (premultiplied).
  // `sprite_scales`: empty (every sprite the camera's size), or one per vertex.
  void composite(std::span<const ParticleVertex> vertices, std::span<const std::uint32_t> order,
                 const SpriteCamera& camera, const PixelF& background, CompositeImage& out,
                 std::span<const float> sprite_scales = {});

 private:
  // Per band: its pixels' sums. Bands are blended in parallel, each walking its chunks' lists
  // backwards, so every pixel takes its sprites nearest first.
  std::vector<std::vector<FrontToBack>> band_pixels_;
};

}  // namespace particles
