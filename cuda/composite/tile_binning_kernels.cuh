#pragma once
// The tile compositor's binning kernels (steps 1 and 3 of tile_compositor.hpp, and the ranges
// of step 4): each sprite projected and its tiles counted, each pass's (tile, sprite) entries
// emitted and padded, and each tile's range found in the sorted entries. Launched by
// tile_compositor.cu, the one source that includes this header.
#include <cstdint>

#include "core/composite/sprite.hpp"
#include "core/composite/tile_grid.hpp"
#include "core/particle.hpp"
#include "cuda/composite/tile_kernel_shapes.cuh"

namespace particles::cuda {
namespace {

__global__ void project_kernel(const ParticleVertex* __restrict__ vertices,
                               const float* __restrict__ sprite_scales,
                               const std::uint32_t* __restrict__ order, std::uint32_t count,
                               SpriteCamera camera, float4* __restrict__ geometry,
                               std::uint32_t* __restrict__ colors,
                               std::uint64_t* __restrict__ tile_counts) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > count) return;
  if (i == count) {  // the scan's last element: its exclusive sum is the total
    tile_counts[i] = 0;
    return;
  }
  const std::uint32_t p = order[i];
  const ProjectedSprite s =
      project_sprite(camera, vertices[p], sprite_scales != nullptr ? sprite_scales[p] : 1.0f);
  const TileRange tiles = tiles_of(sprite_pixel_bounds(s, camera.width, camera.height));
  geometry[i] = make_float4(s.x, s.y, s.inv_half, s.alpha);
  colors[i] = s.rgba8;
  tile_counts[i] = tiles.count();
}

// The entries of one pass: those whose place in the frame's numbering of all of them (the scanned
// offsets) lies in [window, window + length), written from entry 0 of the arrays; a sprite whose
// entries straddle two windows has some in each. A block writes kEmitEntries consecutive entries,
// a thread every kEmitThreads-th, so that every write is coalesced and a sprite over thousands of
// tiles is spread over many blocks. Each entry's sprite is the last whose first entry is at or
// before it: found from the block's first by a search, then by each thread from its last.
__global__ void __launch_bounds__(kEmitThreads)
    emit_kernel(const float4* __restrict__ geometry, const std::uint64_t* __restrict__ offsets,
                std::uint32_t count, std::uint64_t window, std::uint64_t length, TileGrid grid,
                std::uint32_t* __restrict__ tiles, std::uint32_t* __restrict__ sprites) {
  __shared__ std::uint32_t block_sprite;
  const std::uint64_t begin = window + std::uint64_t{blockIdx.x} * kEmitEntries;
  const std::uint64_t end = min(min(begin + kEmitEntries, window + length), offsets[count]);
  if (begin >= end) return;
  // The sprite of entry e: the last s whose first entry offsets[s] <= e, searched in [s, hi].
  const auto sprite_of = [&](std::uint64_t e, std::uint32_t s) {
    std::uint32_t step = 1, hi = count - 1;
    while (s + step <= hi && offsets[s + step] <= e) {  // gallop past the sprites before e
      s += step;
      step *= 2;
    }
    hi = min(hi, s + step - 1);
    while (s < hi) {
      const std::uint32_t mid = s + (hi - s + 1) / 2;
      if (offsets[mid] <= e) {
        s = mid;
      } else {
        hi = mid - 1;
      }
    }
    return s;
  };
  if (threadIdx.x == 0) block_sprite = sprite_of(begin, 0);
  __syncthreads();
  std::uint32_t sprite = block_sprite, ranged = ~0u;
  TileRange r;
  for (std::uint64_t e = begin + threadIdx.x; e < end; e += kEmitThreads) {
    sprite = sprite_of(e, sprite);
    if (sprite != ranged) {
      r = tiles_of(geometry_pixel_bounds(geometry[sprite], grid));
      ranged = sprite;
    }
    const auto k = static_cast<int>(e - offsets[sprite]);
    const int across = r.tx1 - r.tx0;
    tiles[e - window] =
        static_cast<std::uint32_t>((r.ty0 + k / across) * grid.columns + r.tx0 + k % across);
    sprites[e - window] = sprite;
  }
}

// The pass's entries past the frame's last (its window reaches beyond the total) get the key
// `sentinel`, one past every tile, so that the sort puts them last and no tile's range holds them,
// and a value (never read) that the sort may move. A fixed grid strides over them from the total.
__global__ void pad_kernel(const std::uint64_t* __restrict__ total, std::uint64_t window,
                           std::uint32_t length, std::uint32_t sentinel,
                           std::uint32_t* __restrict__ tiles, std::uint32_t* __restrict__ sprites) {
  const std::uint64_t last = *total;
  const std::uint64_t first = last > window ? last - window : 0;
  for (std::uint64_t i = first + blockIdx.x * blockDim.x + threadIdx.x; i < length;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    tiles[i] = sentinel;
    sprites[i] = 0u;
  }
}

// Each tile's range [begin, end) in the sorted entries (tiles with no entry keep {0, 0}; the
// padding's sentinel key is no tile).
__global__ void tile_range_kernel(const std::uint32_t* __restrict__ tiles, std::uint32_t entries,
                                  std::uint32_t sentinel, uint2* __restrict__ ranges) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= entries) return;
  const std::uint32_t tile = tiles[i];
  if (tile == sentinel) return;
  if (i == 0 || tiles[i - 1] != tile) ranges[tile].x = i;
  if (i + 1 == entries || tiles[i + 1] != tile) ranges[tile].y = i + 1;
}

}  // namespace
}  // namespace particles::cuda
