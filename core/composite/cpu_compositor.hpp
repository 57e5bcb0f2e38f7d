#pragma once
// The CPU twin of the tile compositor (cuda/composite/): the same sprites (core/composite/
// sprite.hpp) blended in the same draw order with the same 8-bit rounding, on all cores. It is
// what the CPU backend's composite renderer draws with and the oracle of the CUDA kernels.
#include <cstdint>
#include <span>
#include <vector>

#include "core/composite/sprite.hpp"
#include "core/particle.hpp"

namespace particles {

// RGBA8 pixels (r in the lowest byte), premultiplied, rows bottom first as GL stores a texture.
struct CompositeImage {
  int width = 0, height = 0;
  std::vector<std::uint32_t> rgba8;
  std::uint32_t at(int x, int y) const {
    return rgba8[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                 static_cast<std::size_t>(x)];
  }
};

class CpuCompositor {
 public:
  // threads: 0 takes every core.
  explicit CpuCompositor(unsigned threads = 0);

  // Clears `out` (resized to the camera's viewport) to `background` (premultiplied RGBA8) and
  // blends vertices[order[0]], vertices[order[1]], ... over it, first drawn first.
  // `sprite_scales`: empty (every sprite the camera's size), or one per vertex.
  void composite(std::span<const ParticleVertex> vertices, std::span<const std::uint32_t> order,
                 const SpriteCamera& camera, std::uint32_t background, CompositeImage& out,
                 std::span<const float> sprite_scales = {});

  unsigned threads() const { return threads_; }

 private:
  unsigned threads_;
  std::vector<ProjectedSprite> sprites_;  // by draw position
  std::vector<PixelBounds> bounds_;       // the pixels each may touch, by draw position
  // Per chunk of draw positions, per band of rows: the draw positions that reach the band, in
  // order. Chunks are projected and binned in parallel; bands are blended in parallel, each
  // walking the chunks in order, so every pixel sees its sprites in draw order.
  std::vector<std::vector<std::vector<std::uint32_t>>> band_lists_;
};

}  // namespace particles
