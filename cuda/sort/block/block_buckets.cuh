#pragma once
// Block-wide helpers of the sorts that order a block's keys by buckets over their key range (the
// odd-even tile and window sorts, the radix sort's bucket sort): minimum and maximum, an
// exclusive sum in thread order, and bucket counts turned into offsets.
#include <cstdint>

#include "cuda/common/warp.cuh"

namespace particles::cuda::detail {

// Block-wide minimum and maximum, and with kSum a sum, on one barrier; every thread gets each.
// scratch: two words a warp, sums one.
template <int Warps, bool kSum>
__device__ __forceinline__ void block_min_max_and_sum(std::uint32_t& lo, std::uint32_t& hi,
                                                      std::uint32_t& sum,
                                                      std::uint32_t (&scratch)[2][Warps],
                                                      std::uint32_t* sums) {
  if constexpr (kSum) sum = __reduce_add_sync(kFullMask, sum);
  lo = __reduce_min_sync(kFullMask, lo);
  hi = __reduce_max_sync(kFullMask, hi);
  if (lane_id() == 0) {
    if constexpr (kSum) sums[warp_id()] = sum;
    scratch[0][warp_id()] = lo;
    scratch[1][warp_id()] = hi;
  }
  __syncthreads();
  if constexpr (kSum) sum = 0;
  for (int w = 0; w < Warps; ++w) {
    if constexpr (kSum) sum += sums[w];
    lo = min(lo, scratch[0][w]);
    hi = max(hi, scratch[1][w]);
  }
}

// Block-wide minimum and maximum; every thread gets both. scratch: two words a warp.
template <int Warps>
__device__ __forceinline__ void block_min_max(std::uint32_t& lo, std::uint32_t& hi,
                                              std::uint32_t (&scratch)[2][Warps]) {
  std::uint32_t no_sum = 0;
  block_min_max_and_sum<Warps, false>(lo, hi, no_sum, scratch, nullptr);
  __syncthreads();  // scratch is reused
}

// Block-wide minimum, maximum and sum; every thread gets all three. One barrier only: the
// caller must pass another before it writes scratch or sums again.
template <int Warps>
__device__ __forceinline__ void block_min_max_sum(std::uint32_t& lo, std::uint32_t& hi,
                                                  std::uint32_t& sum,
                                                  std::uint32_t (&scratch)[2][Warps],
                                                  std::uint32_t (&sums)[Warps]) {
  block_min_max_and_sum<Warps, true>(lo, hi, sum, scratch, sums);
}

// A block-wide exclusive sum in two halves, with the caller's barrier between them: the first
// returns the warp's inclusive sum and publishes the warp's total in scratch[0]; the second,
// past the barrier, adds the totals of the warps before this one to `from`.
template <int Warps>
__device__ __forceinline__ std::uint32_t publish_warp_sum(std::uint32_t value,
                                                          std::uint32_t (&scratch)[2][Warps]) {
  const std::uint32_t inclusive = warp_inclusive_sum(value);
  if (lane_id() == kWarpSize - 1) scratch[0][warp_id()] = inclusive;
  return inclusive;
}
template <int Warps>
__device__ __forceinline__ std::uint32_t earlier_warps_sum(const std::uint32_t (&scratch)[2][Warps],
                                                           std::uint32_t from = 0) {
  for (unsigned w = 0; w < warp_id(); ++w) from += scratch[0][w];
  return from;
}

// Block-wide exclusive prefix sum in thread order.
template <int Warps>
__device__ __forceinline__ std::uint32_t block_exclusive_sum(std::uint32_t value,
                                                             std::uint32_t (&scratch)[2][Warps]) {
  const std::uint32_t inclusive = publish_warp_sum(value, scratch);
  __syncthreads();
  const std::uint32_t before = earlier_warps_sum(scratch);
  __syncthreads();  // scratch is reused
  return before + inclusive - value;
}

// A thread's Buckets owned counters (16-byte aligned), read as uint4s into count.
template <int Buckets>
__device__ __forceinline__ void load_owned_counts(const uint4* own4,
                                                  std::uint32_t (&count)[Buckets]) {
#pragma unroll
  for (int v = 0; v < Buckets / 4; ++v) {
    const uint4 q = own4[v];
    count[4 * v] = q.x;
    count[4 * v + 1] = q.y;
    count[4 * v + 2] = q.z;
    count[4 * v + 3] = q.w;
  }
}

// The sum of a thread's counts and the largest of them (which says whether a bucket is too full
// to rank inside).
struct CountsSummary {
  std::uint32_t sum = 0;
  std::uint32_t fullest = 0;
};
template <int Buckets>
__device__ __forceinline__ CountsSummary sum_and_fullest(const std::uint32_t (&count)[Buckets]) {
  CountsSummary summary;
#pragma unroll
  for (int j = 0; j < Buckets; ++j) {
    summary.sum += count[j];
    summary.fullest = max(summary.fullest, count[j]);
  }
  return summary;
}

// A thread's counts turned into exclusive offsets from `running` and stored back as uint4s.
template <int Buckets>
__device__ __forceinline__ void store_owned_offsets(uint4* own4, std::uint32_t (&count)[Buckets],
                                                    std::uint32_t running) {
#pragma unroll
  for (int j = 0; j < Buckets; ++j) {
    const std::uint32_t q = count[j];
    count[j] = running;
    running += q;
  }
#pragma unroll
  for (int v = 0; v < Buckets / 4; ++v)
    own4[v] = make_uint4(count[4 * v], count[4 * v + 1], count[4 * v + 2], count[4 * v + 3]);
}

// Per-bucket key counts -> exclusive offsets, in place, over a block: thread t owns the Buckets
// consecutive counters at own (16-byte aligned; threads in index order cover the buckets in
// order). Returns whether one of this thread's buckets holds more than Limit keys (ranking
// inside a bucket costs its size per key); the caller combines the threads' answers.
// HoldCounts: keep the thread's counts in registers through the block sum, or (for callers with
// many live registers of their own) read them from shared memory again after it.
template <int Buckets, int Limit, int Warps, bool HoldCounts = true>
__device__ __forceinline__ bool bucket_counts_to_offsets(std::uint32_t* own,
                                                         std::uint32_t (&scratch)[2][Warps]) {
  static_assert(Buckets % 4 == 0, "uint4 access");
  auto* own4 = reinterpret_cast<uint4*>(own);
  if constexpr (HoldCounts) {
    std::uint32_t count[Buckets];
    load_owned_counts(own4, count);
    const CountsSummary summary = sum_and_fullest(count);
    store_owned_offsets(own4, count, block_exclusive_sum(summary.sum, scratch));
    return summary.fullest > static_cast<std::uint32_t>(Limit);
  } else {
    std::uint32_t sum = 0;
    bool crowded = false;
#pragma unroll
    for (int v = 0; v < Buckets / 4; ++v) {
      const uint4 q = own4[v];
      sum += q.x + q.y + q.z + q.w;
      crowded |= max(max(q.x, q.y), max(q.z, q.w)) > static_cast<std::uint32_t>(Limit);
    }
    std::uint32_t running = block_exclusive_sum(sum, scratch);
#pragma unroll
    for (int v = 0; v < Buckets / 4; ++v) {
      const uint4 q = own4[v];
      own4[v] = make_uint4(running, running + q.x, running + q.x + q.y, running + q.x + q.y + q.z);
      running += q.x + q.y + q.z + q.w;
    }
    return crowded;
  }
}

// bucket_counts_to_offsets and the block's crowded vote with one barrier fewer: the warps' sums
// ride on the vote's barrier. Returns true, block-wide, when one of the block's buckets holds more
// than Limit keys, having written nothing; otherwise writes the offsets and ends at a barrier, so
// that every thread may read any of them. Uses scratch[0], free again once it returns either way
// (nothing reads it after a crowded vote).
template <int Buckets, int Limit, int Warps>
__device__ __forceinline__ bool block_counts_to_offsets_unless_crowded(
    std::uint32_t* own, std::uint32_t (&scratch)[2][Warps]) {
  static_assert(Buckets % 4 == 0, "uint4 access");
  auto* own4 = reinterpret_cast<uint4*>(own);
  std::uint32_t count[Buckets];
  load_owned_counts(own4, count);
  const CountsSummary summary = sum_and_fullest(count);
  const std::uint32_t inclusive = publish_warp_sum(summary.sum, scratch);
  if (__syncthreads_or(summary.fullest > static_cast<std::uint32_t>(Limit))) return true;
  store_owned_offsets(own4, count, earlier_warps_sum(scratch, inclusive - summary.sum));
  __syncthreads();
  return false;
}

}  // namespace particles::cuda::detail
