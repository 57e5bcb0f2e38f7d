#pragma once
// The device side of appending keys to the splitter partition sort's buckets, for the kernels
// that make keys (the fused step, the depth keys, the sort's own append kernel): each key goes,
// with its place in the input, to the next free slot of its bucket. The order inside a bucket
// is whatever the atomics give; the bucket sort orders by (key, place), so the result is stable
// all the same.
#include <cstdint>

#include "cuda/detail/warp.cuh"
#include "cuda/sort/partition_append.hpp"
#include "cuda/sort/splitter_partition.hpp"

namespace particles::cuda::detail {

// Whether a launch over n keys appends them: the target has slots and splitters taken for n
// keys. The same for every thread; the launch's first thread also marks the keys appended.
__device__ inline bool partition_appends(const PartitionAppend& target, std::uint32_t n) {
  if (!target.present() || n == 0 || partition_buckets(n) > kPartitionMaxBuckets) return false;
  if (target.state[kSplittersFor] != n) return false;
  if (blockIdx.x == 0 && threadIdx.x == 0) target.state[kAppended] = 1;
  return true;
}

// Appends (key, place) to the key's bucket. Called by all 32 lanes of a warp together, with
// `valid` false for lanes past the input's end; `place` is the key's place in the input (which
// partition_bucket_of takes as the bucket it was in last frame). Lanes with the same bucket
// take their slots with one atomic. Keys that barely moved share their bucket, one atomic a warp;
// but a galaxy frame moves keys by a median of ~1500 places, so a warp's 32 keys fall in 3.2
// buckets on average (1M, CPU backend; 5.1 with buckets of 2048 keys), each an atomic and a short
// run of stores. That scatter was measured not to be what the appends cost: writing each warp's
// keys together, grouped by bucket, with counts beside them (and the bucket search through a
// window of splitters too) left the step as it was (H200, docs/performance.md).
__device__ inline void partition_append_warp(const PartitionAppend& target, std::uint32_t buckets,
                                             bool valid, std::uint32_t key, std::uint32_t place) {
  const auto splitter = [s = target.splitters](std::uint32_t j) { return __ldg(s + j); };
  const std::uint32_t bucket =
      valid ? partition_bucket_of(key, place / kPartitionBucket, buckets, splitter) : 0xffffffffu;
  const std::uint32_t lane0_bucket = __shfl_sync(kFullMask, bucket, 0);
  // Lane 0 is always valid (callers pass a warp's consecutive places, the first < n).
  const std::uint32_t peers = __all_sync(kFullMask, !valid || bucket == lane0_bucket)
                                  ? __ballot_sync(kFullMask, valid)
                                  : __match_any_sync(kFullMask, bucket);
  if (!valid) return;
  const int leader = __ffs(static_cast<int>(peers)) - 1;
  std::uint32_t base = 0;
  if (static_cast<int>(lane_id()) == leader) {
    const auto taken = static_cast<std::uint32_t>(__popc(static_cast<int>(peers)));
    base = atomicAdd(target.counts + bucket * kPartitionCountStride, taken);
  }
  base = __shfl_sync(peers, base, leader);
  const std::uint32_t slot =
      base + static_cast<std::uint32_t>(__popc(static_cast<int>(peers & lanemask_lt())));
  if (slot < static_cast<std::uint32_t>(kPartitionBucketCapacity)) {
    target.slots[std::size_t{bucket} * kPartitionBucketCapacity + slot] = make_uint2(key, place);
  } else {
    target.state[kOverflow] = 1;  // the sort falls back; the bucket's count still says how many
    if (target.keys_by_place != nullptr) target.keys_by_place[place] = key;
  }
}

// A grid-stride loop over places [0, n) that makes each one's key with make_key(i) (which may
// also store it) and, while the splitters are for n keys, appends it. Whole warps go round
// together, as partition_append_warp needs. Every thread of the launch calls it.
template <typename MakeKey>
__device__ void make_and_append_keys(const PartitionAppend& target, std::uint32_t n,
                                     MakeKey make_key) {
  const bool appends = partition_appends(target, n);
  const std::uint32_t buckets = partition_buckets(n);
  for (std::uint32_t first = blockIdx.x * blockDim.x + warp_id() * 32; first < n;
       first += gridDim.x * blockDim.x) {
    const std::uint32_t i = first + lane_id();
    const bool valid = i < n;
    const std::uint32_t key = valid ? make_key(i) : 0u;
    if (appends) partition_append_warp(target, buckets, valid, key, i);
  }
}

}  // namespace particles::cuda::detail
