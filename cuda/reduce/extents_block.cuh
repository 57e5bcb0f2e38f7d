#pragma once
// Device-side pieces of the extents reduction, shared by the stand-alone extents kernel and the
// fused simulate+extents kernel: warp and block merges, and the grid-wide combine in which the
// last block to finish folds every block's partial (no second launch, no host sync).
#include <cstddef>
#include <cstdint>

#include "core/extents.hpp"

namespace particles::cuda::detail {

static_assert(sizeof(Extents) == 9 * sizeof(float), "Extents is shuffled as nine floats");

// A ticket counter and one partial per block; the combine leaves the ticket at zero again.
// Grids that combine through one workspace have at most kExtentsMaxBlocks blocks.
struct ExtentsWorkspace {
  unsigned* ticket;
  Extents* partials;
};
inline constexpr unsigned kExtentsMaxBlocks = 2048;  // > 132 SMs x any occupancy of these kernels
inline constexpr std::size_t kExtentsPartialsOffset = 256;  // partials aligned past the ticket

// The layout of the workspace that extents_workspace_bytes() sizes.
inline ExtentsWorkspace split_extents_workspace(void* workspace) {
  auto* bytes = static_cast<unsigned char*>(workspace);
  return {reinterpret_cast<unsigned*>(bytes),
          reinterpret_cast<Extents*>(bytes + kExtentsPartialsOffset)};
}

__device__ __forceinline__ float* as_floats(Extents& e) {
  return reinterpret_cast<float*>(&e);
}

// Butterfly over the warp with __shfl_xor_sync: every lane ends with the warp's extents. The
// merge never lets a NaN win (min_f/max_f keep the accumulator when a comparison is false).
__device__ __forceinline__ Extents warp_reduce_extents(Extents e) {
#pragma unroll
  for (int mask = 16; mask > 0; mask >>= 1) {
    Extents other;
    float* o = as_floats(other);
    float* m = as_floats(e);
#pragma unroll
    for (int k = 0; k < 9; ++k) o[k] = __shfl_xor_sync(0xffffffffu, m[k], mask);
    e = extents_merge(e, other);
  }
  return e;
}

// Warp results meet in shared memory and warp 0 folds them. Every thread of the block must call
// it (no divergent __syncthreads); the result is valid in thread 0. warp_results: one per warp.
template <int Threads>
__device__ Extents block_reduce_extents(Extents e, Extents* warp_results) {
  constexpr int kWarps = Threads / 32;
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int warp = static_cast<int>(threadIdx.x) >> 5;
  e = warp_reduce_extents(e);
  if (lane == 0) warp_results[warp] = e;
  __syncthreads();
  if (warp == 0) {
    e = lane < kWarps ? warp_results[lane] : Extents{};
    e = warp_reduce_extents(e);
  }
  return e;
}

// Partials written by other blocks: read through L2 (.cg), never a stale L1 line.
__device__ __forceinline__ Extents load_partial_extents(const Extents* p) {
  Extents e;
  const float* src = reinterpret_cast<const float*>(p);
  float* dst = as_floats(e);
#pragma unroll
  for (int k = 0; k < 9; ++k) dst[k] = __ldcg(src + k);
  return e;
}

// Every thread of every block calls this with its own accumulated extents; *out gets the
// extents of the whole grid. Last-block-done: each block publishes its partial and takes a
// ticket; the block that draws the last ticket sees every partial and writes the result.
// Returns true in that block (all its threads): whatever else a block published before the call
// is visible to it, so callers can fold partials of their own there.
template <int Threads>
__device__ bool grid_combine_extents(Extents e, ExtentsWorkspace ws, Extents* out) {
  __shared__ Extents warp_results[Threads / 32];
  __shared__ bool is_last_block;
  e = block_reduce_extents<Threads>(e, warp_results);
  if (threadIdx.x == 0) {
    ws.partials[blockIdx.x] = e;
    __threadfence();
    is_last_block = atomicAdd(ws.ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!is_last_block) return false;  // uniform across the block
  __threadfence();

  Extents total;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) {
    total = extents_merge(total, load_partial_extents(ws.partials + b));
  }
  __syncthreads();  // warp_results is reused
  total = block_reduce_extents<Threads>(total, warp_results);
  if (threadIdx.x == 0) {
    *out = total;
    *ws.ticket = 0;  // ready for the next launch or graph replay
  }
  return true;
}

}  // namespace particles::cuda::detail
