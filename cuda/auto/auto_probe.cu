#include "cuda/auto/auto_probe.hpp"

#include "cuda/common/check.hpp"
#include "cuda/common/launch_grid.hpp"

namespace particles::cuda {
namespace {

constexpr int kThreads = 256;
constexpr unsigned kFullMask = 0xffffffffu;

// Adds the block's two counts to counts[0..1]: warp sums, then block sums in shared memory, so
// two atomics per block rather than per warp (same-address atomics from every warp of a million
// keys cost tens of microseconds). Every thread of the block calls it.
__device__ void add_block_counts(std::uint32_t adjacent, std::uint32_t strided,
                                 std::uint32_t* counts) {
  adjacent = __reduce_add_sync(kFullMask, adjacent);
  strided = __reduce_add_sync(kFullMask, strided);
  __shared__ std::uint32_t warp_sums[2][kThreads / 32];
  const unsigned warp = threadIdx.x / 32u, lane = threadIdx.x & 31u;
  if (lane == 0) {
    warp_sums[0][warp] = adjacent;
    warp_sums[1][warp] = strided;
  }
  __syncthreads();
  if (warp != 0) return;
  adjacent = lane < kThreads / 32 ? warp_sums[0][lane] : 0u;
  strided = lane < kThreads / 32 ? warp_sums[1][lane] : 0u;
  adjacent = __reduce_add_sync(kFullMask, adjacent);
  strided = __reduce_add_sync(kFullMask, strided);
  if (lane == 0) {
    if (adjacent != 0) atomicAdd(&counts[0], adjacent);
    if (strided != 0) atomicAdd(&counts[1], strided);
  }
}

// Both probes in one pass over the keys (they read the same lines).
__global__ void __launch_bounds__(kThreads)
    sortedness_probes_kernel(const std::uint32_t* __restrict__ keys, std::uint32_t count,
                             std::uint32_t stride, std::uint32_t* counts) {
  std::uint32_t adjacent = 0, strided = 0;
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i + 1 < count;
       i += gridDim.x * blockDim.x) {
    const std::uint32_t k = keys[i];
    adjacent += k > keys[i + 1] ? 1u : 0u;
    if (i + stride < count) strided += k > keys[i + stride] ? 1u : 0u;
  }
  add_block_counts(adjacent, strided, counts);
}

// A few blocks per SM are enough to stream the keys once.
unsigned probe_grid_for(std::uint32_t count) {
  return detail::grid_stride_blocks(count, kThreads, 4);
}

}  // namespace

void launch_sortedness_probes(const std::uint32_t* keys, std::uint32_t count, std::uint32_t stride,
                              std::uint32_t* counts, cudaStream_t stream) {
  CUDA_CHECK(cudaMemsetAsync(counts, 0, 2 * sizeof(std::uint32_t), stream));
  sortedness_probes_kernel<<<probe_grid_for(count), kThreads, 0, stream>>>(keys, count, stride,
                                                                           counts);
  CUDA_CHECK_LAUNCH("sortedness_probes_kernel", stream);
}

}  // namespace particles::cuda
