#pragma once
// The tile compositor's work items (step 5 of tile_compositor.hpp): how many chunks each tile's
// list is blended in, and the (tile, chunk) items, every tile's nearest chunk first. Launched by
// tile_compositor.cu, the one source that includes this header.
#include <cstdint>

#include "cuda/composite/tile_kernel_shapes.cuh"

namespace particles::cuda {
namespace {

// How many chunks each tile's list is blended in beyond its first (every tile has one, so that
// every pixel is written).
__global__ void extra_chunk_kernel(const uint2* __restrict__ ranges, std::uint32_t tiles,
                                   std::uint32_t* __restrict__ extra_chunks) {
  const std::uint32_t tile = blockIdx.x * blockDim.x + threadIdx.x;
  if (tile > tiles) return;
  if (tile == tiles) {  // the scan's last element: its exclusive sum is the total
    extra_chunks[tile] = 0;
    return;
  }
  const uint2 r = ranges[tile];
  extra_chunks[tile] = chunks_of(r.y - r.x) - 1u;
}

// The work item of chunk k of a tile: every tile's first chunk (its nearest) comes first, in tile
// order, and the further chunks after them all, so that a tile's first chunk has mostly finished
// (and may have hidden the rest: blend_kernel) before its further ones start.
__device__ std::uint32_t chunk_item(std::uint32_t tile, std::uint32_t k, std::uint32_t tiles,
                                    const std::uint32_t* __restrict__ first_extra) {
  return k == 0 ? tile : tiles + first_extra[tile] + k - 1;
}

// Work items (tile, chunk), from the scanned extra chunks (chunk_item).
__global__ void work_item_kernel(const std::uint32_t* __restrict__ first_extra, std::uint32_t tiles,
                                 uint2* __restrict__ items) {
  const std::uint32_t tile = blockIdx.x * blockDim.x + threadIdx.x;
  if (tile >= tiles) return;
  const std::uint32_t chunks = 1 + first_extra[tile + 1] - first_extra[tile];
  for (std::uint32_t k = 0; k < chunks; ++k) {
    items[chunk_item(tile, k, tiles, first_extra)] = make_uint2(tile, k);
  }
}

}  // namespace
}  // namespace particles::cuda
