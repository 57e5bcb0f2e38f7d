#pragma once
// The sort-free CPU renderers' first pass (cpu_weighted_blended, cpu_stochastic): the sprites
// projected once (core/composite/sprite.hpp, as the exact compositor projects them), each with
// its view depth, and listed by band of rows, so that bands are then blended in parallel. The
// lists keep the draw positions in order, and chunks of draw positions are contiguous, so a band
// meets its sprites in the same order whatever the thread count: the images agree bit for bit.
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/composite/sprite.hpp"
#include "core/composite/tile_grid.hpp"
#include "core/particle.hpp"

namespace particles {

// Rows per band, the unit of parallel blending (one tile row, as in the exact compositor).
inline constexpr int kSpriteBandRows = kTileSize;

struct SpriteBands {
  int width = 0, height = 0;
  int bands = 0;
  std::vector<ProjectedSprite> sprites;  // by draw position
  std::vector<PixelBounds> bounds;       // the pixels each may touch, by draw position
  std::vector<float> depths;             // view depth, by draw position
  // The view depths of the visible sprites: near > far where none is visible.
  float depth_near = 0.0f, depth_far = 0.0f;
  // Per chunk of draw positions, per band: the draw positions that reach the band, in order.
  std::vector<std::vector<std::vector<std::uint32_t>>> lists;
};

// Checks the inputs as CpuCompositor::composite does (an empty viewport, sprite scales that do
// not match the vertices, an order naming a missing particle: std::invalid_argument, the message
// starting with `who`), then fills `out` on up to `threads` threads.
void project_into_bands(std::string_view who, unsigned threads,
                        std::span<const ParticleVertex> vertices,
                        std::span<const std::uint32_t> order, const SpriteCamera& camera,
                        std::span<const float> sprite_scales, SpriteBands& out);

}  // namespace particles
