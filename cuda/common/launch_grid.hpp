#pragma once
// Grid sizes of the grid-stride kernels, in one place. They launch at most a few waves of
// blocks: the per-element work is small, so fewer, longer-lived blocks keep launch overhead off
// the critical path.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "cuda/common/check.hpp"

namespace particles::cuda::detail {

// Streaming multiprocessors of the current device.
inline unsigned sm_count() {
  int device = 0, sms = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return static_cast<unsigned>(std::max(1, sms));
}

// Blocks of `threads` covering `count` elements once, capped at `per_sm` blocks per SM; at
// least one block, so kernels that always write a result (reductions) run on empty input.
inline unsigned grid_stride_blocks(std::uint64_t count, unsigned threads, unsigned per_sm) {
  const std::uint64_t needed = (count + threads - 1) / threads;
  return static_cast<unsigned>(
      std::clamp<std::uint64_t>(needed, 1, static_cast<std::uint64_t>(sm_count()) * per_sm));
}

// The same, capped at what is resident at once for `kernel` (per the occupancy calculator):
// every block of the grid is running together, and each strides over the elements.
template <typename Kernel>
unsigned resident_grid_blocks(Kernel kernel, std::uint64_t count, unsigned threads) {
  int per_sm = 0;
  CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, static_cast<int>(threads), 0));
  return grid_stride_blocks(count, threads, static_cast<unsigned>(std::max(1, per_sm)));
}

}  // namespace particles::cuda::detail
