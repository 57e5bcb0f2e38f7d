#pragma once
// What the tile compositor's kernels and its host side share: the kernels' block shapes, the
// chunks a tile's list is blended in, and a kept sprite's pixel bounds (the emit and blend
// kernels both take them). Included, through the kernel headers, by tile_compositor.cu alone
// (internal linkage).
#include <cstdint>

#include "core/composite/sprite.hpp"
#include "core/composite/tile_grid.hpp"
#include "cuda/composite/tile_compositor.hpp"

namespace particles::cuda {
namespace {

constexpr int kProjectThreads = 256;
constexpr int kEmitThreads = 256;
constexpr std::uint32_t kEmitEntries = 2048;  // entries an emit block writes
constexpr int kRangeThreads = 256;
constexpr unsigned kPadBlocks = 1024;  // the padding kernel's grid, striding over any length
constexpr int kTilePixels = kTileSize * kTileSize;
// One blend thread per pixel of a tile.
constexpr int kBlendThreads = kTilePixels;
// A tile's list is blended in chunks of at most this many entries, each by a block of its own,
// so that no tile's list bounds the whole blend; a tile of several chunks is put together by the
// block that finishes last (blend_kernel).
constexpr std::uint32_t kChunk = kBlendChunk;
// A tile's farther chunks, after its nearest (kChunk): shorter, so that a list that does not close
// early (many faint sprites) spreads over many blocks, while one that does closes in its first.
constexpr std::uint32_t kFartherChunk = kBlendFartherChunk;

// How many chunks a list of `length` entries is blended in: one at least, so that every pixel of
// its tile is written.
__host__ __device__ std::uint32_t chunks_of(std::uint32_t length) {
  return length <= kChunk ? 1u : 1u + (length - kChunk + kFartherChunk - 1) / kFartherChunk;
}
constexpr int kWorkThreads = 256;

// The pixel bounds of a sprite kept as geometry (x, y, inv_half, alpha): the same bounds the
// projection counted its tiles from.
__device__ PixelBounds geometry_pixel_bounds(float4 g, const TileGrid& grid) {
  ProjectedSprite s;
  s.x = g.x;
  s.y = g.y;
  s.inv_half = g.z;
  s.visible = true;
  return sprite_pixel_bounds(s, grid.width, grid.height);
}

}  // namespace
}  // namespace particles::cuda
