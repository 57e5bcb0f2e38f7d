#pragma once
// Warp- and block-level primitives shared by the kernels. Everything here is explicit about
// which lanes take part (the *_sync intrinsics with a full mask): no implicit warp-synchronous
// code, which has been invalid since Volta's independent thread scheduling.
#include <cstdint>

namespace particles::cuda::detail {

constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kWarpSize = 32;

__device__ __forceinline__ unsigned lane_id() {
  return threadIdx.x & 31u;
}
__device__ __forceinline__ unsigned warp_id() {
  return threadIdx.x >> 5;
}

// Bits set for every lane below this one: popc(mask & lanemask_lt()) is this lane's rank among
// the lanes whose bit is set in mask.
__device__ __forceinline__ unsigned lanemask_lt() {
  return (1u << lane_id()) - 1u;
}

// Inclusive prefix sum over the 32 lanes of a full warp (Kogge-Stone through shuffles).
template <typename T>
__device__ __forceinline__ T warp_inclusive_sum(T value) {
#pragma unroll
  for (int offset = 1; offset < kWarpSize; offset <<= 1) {
    const T other = __shfl_up_sync(kFullMask, value, offset);
    if (static_cast<int>(lane_id()) >= offset) value += other;
  }
  return value;
}

// Exclusive prefix sum of 256 values, one per thread 0..255 of a block of at least 256 threads.
// Every thread of the block must call it (it holds two barriers). `scratch` needs 8 words.
// Returns the exclusive prefix for threads < 256 and 0 for the others; *total gets the sum.
__device__ __forceinline__ std::uint32_t block_exclusive_sum_256(std::uint32_t value,
                                                                 std::uint32_t* scratch,
                                                                 std::uint32_t* total) {
  const bool active = threadIdx.x < 256;
  std::uint32_t inclusive = 0;
  if (active) {
    inclusive = warp_inclusive_sum(value);
    if (lane_id() == 31) scratch[warp_id()] = inclusive;
  }
  __syncthreads();
  if (threadIdx.x < 32) {
    const std::uint32_t warp_total = lane_id() < 8 ? scratch[lane_id()] : 0u;
    const std::uint32_t warp_inclusive = warp_inclusive_sum(warp_total);
    if (lane_id() < 8) scratch[lane_id()] = warp_inclusive - warp_total;
    if (lane_id() == 7) *total = warp_inclusive;
  }
  __syncthreads();
  return active ? inclusive - value + scratch[warp_id()] : 0u;
}

// Block-wide minimum; every thread gets it. scratch: a word a warp; every thread of the block
// calls it, and scratch is free again when it returns.
template <int Warps>
__device__ __forceinline__ std::uint32_t block_min(std::uint32_t value,
                                                   std::uint32_t (&scratch)[Warps]) {
  value = __reduce_min_sync(kFullMask, value);
  if (lane_id() == 0) scratch[warp_id()] = value;
  __syncthreads();
  for (int w = 0; w < Warps; ++w) value = min(value, scratch[w]);
  __syncthreads();
  return value;
}

}  // namespace particles::cuda::detail
