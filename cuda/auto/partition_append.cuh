#pragma once
// The device side of appending keys to the splitter partition sort's buckets, for the kernels
// that make keys (the fused step, the depth keys, the sort's own append kernel): each key goes,
// with its place in the input, to the next free slot of its bucket. The order inside a bucket
// is whatever the atomics give; the bucket sort orders by (key, place), so the result is stable
// all the same.
#include <cstdint>

#include "cuda/auto/partition_append.hpp"
#include "cuda/auto/splitter_partition.hpp"
#include "cuda/common/warp.cuh"

namespace particles::cuda::detail {

// Whether a launch over n keys appends them: the target has slots and splitters taken for n
// keys. The same for every thread; the launch's first thread also marks the keys appended.
__device__ inline bool partition_appends(const PartitionAppend& target, std::uint32_t n) {
  if (!target.present() || n == 0 || partition_buckets(n) > kPartitionMaxBuckets) return false;
  if (target.state[kSplittersFor] != n) return false;
  if (blockIdx.x == 0 && threadIdx.x == 0) target.state[kAppended] = 1;
  return true;
}

// A round's appends are gathered by the block before they reach the counts. A block's threads
// hold consecutive places, and a galaxy frame moves keys by a median of ~1500 places, so their
// keys fall in a few buckets near their places' (a warp's 32 in 3.2 on average: 1M, CPU
// backend). Each warp's lanes with one bucket take their slots from the block's shared count for
// it, and each bucket the block's keys fell in then takes the block's slots from its global
// count with one atomic, not one a warp: those atomics land on the few counts of the round's
// buckets, and queue there. The answers are used a round later, so no thread waits for them.
// Keys that moved farther than the block's window of buckets take their slots a warp at a time.
// (Faster than an atomic a warp on the galaxy and the fountain at 1M and 2M; waiting for each
// round's own answers behind a second barrier lost: docs/notes/partition.md, "Appends".)
inline constexpr std::uint32_t kBlockAppendWindow = 16;  // buckets, a shared count each
inline constexpr std::uint32_t kBlockAppendBack = 7;     // of them below the block's places'
struct BlockAppendShared {
  // By round parity: a round's keys in each window bucket (zero between rounds), then the
  // bucket's first slot for them.
  std::uint32_t taken[2][kBlockAppendWindow];
  std::uint32_t base[2][kBlockAppendWindow];
};

// Appends a block's keys a round at a time: each thread of the block calls append() once a round,
// all together (there is a barrier in it), then finish(). A round's stores are made in the next
// call, once its slots are known.
class BlockAppender {
 public:
  // Zeroes the shared counts; a barrier must come before the first append().
  __device__ BlockAppender(const PartitionAppend& target, std::uint32_t buckets,
                           BlockAppendShared& sh)
      : target_(target), buckets_(buckets), sh_(sh) {
    if (threadIdx.x < 2 * kBlockAppendWindow) (&sh.taken[0][0])[threadIdx.x] = 0;
  }

  // `block_first` is the round's first place; this thread's key is at place block_first +
  // threadIdx.x, which partition_bucket_of takes as the bucket it was in last frame. `valid` is
  // false past the input's end. The order the slots come in is whatever the atomics give.
  __device__ void append(std::uint32_t block_first, bool valid, std::uint32_t key) {
    const std::uint32_t place = block_first + threadIdx.x;
    const auto splitter = [s = target_.splitters](std::uint32_t j) { return __ldg(s + j); };
    const std::uint32_t bucket =
        valid ? partition_bucket_of(key, place / kPartitionBucket, buckets_, splitter)
              : 0xffffffffu;
    const std::uint32_t near = block_first / kPartitionBucket;
    const std::uint32_t window_first = near > kBlockAppendBack ? near - kBlockAppendBack : 0u;
    const std::uint32_t in_window = bucket - window_first;  // invalid lanes: far past the window
    const bool gathered = in_window < kBlockAppendWindow;
    // The lanes with this lane's bucket (past the end: the other invalid lanes), led by the
    // lowest.
    const std::uint32_t lane0_bucket = __shfl_sync(kFullMask, bucket, 0);
    const std::uint32_t peers = __all_sync(kFullMask, bucket == lane0_bucket)
                                    ? kFullMask
                                    : __match_any_sync(kFullMask, bucket);
    const int leader = __ffs(static_cast<int>(peers)) - 1;
    std::uint32_t first = 0;  // the peers' first slot: in the block's share if gathered
    if (valid && static_cast<int>(lane_id()) == leader) {
      const auto taken = static_cast<std::uint32_t>(__popc(static_cast<int>(peers)));
      first = gathered ? atomicAdd(&sh_.taken[parity_][in_window], taken)
                       : atomicAdd(target_.counts + bucket * kPartitionCountStride, taken);
    }
    __syncthreads();
    // The last round's bases were written before the barrier.
    store_pending();
    if (threadIdx.x < kBlockAppendWindow) {
      const std::uint32_t taken = sh_.taken[parity_][threadIdx.x];
      if (taken != 0) {
        sh_.base[parity_][threadIdx.x] =
            atomicAdd(target_.counts + (window_first + threadIdx.x) * kPartitionCountStride, taken);
        // Filled again two rounds on, past the next round's barrier.
        sh_.taken[parity_][threadIdx.x] = 0;
      }
    }
    first = __shfl_sync(kFullMask, first, leader);
    pending_ = {valid,
                gathered,
                bucket,
                in_window,
                first + static_cast<std::uint32_t>(__popc(static_cast<int>(peers & lanemask_lt()))),
                key,
                place};
    parity_ ^= 1u;
  }

  // The last round's stores. Every thread of the block.
  __device__ void finish() {
    __syncthreads();
    store_pending();
  }

 private:
  struct Pending {
    bool valid = false;
    bool gathered = false;
    std::uint32_t bucket = 0, in_window = 0, slot = 0, key = 0, place = 0;
  };

  __device__ void store_pending() const {
    if (!pending_.valid) return;
    // The pending round had the other parity.
    const std::uint32_t slot =
        pending_.slot + (pending_.gathered ? sh_.base[parity_ ^ 1u][pending_.in_window] : 0u);
    if (slot < static_cast<std::uint32_t>(kPartitionBucketCapacity)) {
      target_.slots[std::size_t{pending_.bucket} * kPartitionBucketCapacity + slot] =
          make_uint2(pending_.key, pending_.place);
    } else {
      target_.state[kOverflow] = 1;  // the sort falls back; the bucket's count still says how many
      if (target_.keys_by_place != nullptr) target_.keys_by_place[pending_.place] = pending_.key;
    }
  }

  const PartitionAppend& target_;
  std::uint32_t buckets_;
  BlockAppendShared& sh_;
  std::uint32_t parity_ = 0;
  Pending pending_;
};

// A grid-stride loop over places [0, n) that makes each one's key with make_key(i) (which may
// also store it) and, while the splitters are for n keys, appends it. Whole blocks go round
// together, as BlockAppender needs. Every thread of the launch calls it.
template <typename MakeKey>
__device__ void make_and_append_keys(const PartitionAppend& target, std::uint32_t n,
                                     MakeKey make_key) {
  const bool appends = partition_appends(target, n);
  __shared__ BlockAppendShared shared;
  BlockAppender appender(target, partition_buckets(n), shared);
  if (appends) __syncthreads();
  for (std::uint32_t first = blockIdx.x * blockDim.x; first < n; first += gridDim.x * blockDim.x) {
    const std::uint32_t i = first + threadIdx.x;
    const bool valid = i < n;
    const std::uint32_t key = valid ? make_key(i) : 0u;
    if (appends) appender.append(first, valid, key);
  }
  if (appends) appender.finish();
}

}  // namespace particles::cuda::detail
