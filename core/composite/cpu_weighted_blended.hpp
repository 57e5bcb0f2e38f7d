#pragma once
// The CPU twin of weighted blended order-independent transparency (core/composite/
// weighted_blended.hpp): the exact compositor's sprites (core/composite/sprite.hpp), in whatever
// order they come, no sort, on all cores. Beside the sorted renderers it shows what the sort buys
// (issue #65); a CUDA kernel will share its per-pixel arithmetic and answer to it.
#include <cstdint>
#include <span>
#include <vector>

#include "core/composite/composite_image.hpp"
#include "core/composite/cpu_sprite_bands.hpp"
#include "core/composite/pixel.hpp"
#include "core/composite/sprite.hpp"
#include "core/composite/weighted_blended.hpp"
#include "core/particle.hpp"

namespace particles {

class CpuWeightedBlended : public BandCompositor {
 public:
  // threads: 0 takes every core.
  explicit CpuWeightedBlended(unsigned threads = 0) : BandCompositor(threads) {}

  // `out` (resized to the camera's viewport) becomes the sprites vertices[order[0]],
  // vertices[order[1]], ... over `background` (premultiplied). The order changes nothing but
  // float rounding; the depth weight's range is that of the visible sprites' view depths.
  // `sprite_scales`: empty (every sprite the camera's size), or one per vertex. Inputs are
  // checked as CpuCompositor checks them.
  void composite(std::span<const ParticleVertex> vertices, std::span<const std::uint32_t> order,
                 const SpriteCamera& camera, const PixelF& background, CompositeImage& out,
                 std::span<const float> sprite_scales = {});

 private:
  std::vector<std::vector<WeightedBlended>> band_pixels_;  // per band: its pixels' sums
};

}  // namespace particles
