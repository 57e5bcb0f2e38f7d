#pragma once
// The splitter partition sort's bucket kernel: a block a bucket sorts its pairs into place
// (splitter_bucket_sort.cuh), gives the verdict and leaves the appends' words zero for the next
// sort; when a bucket overflowed, every block sorts all the keys by place instead. Launched by
// splitter_partition_sort.cu, the one source that includes this header.
#include <cstddef>
#include <cstdint>

#include "cuda/auto/partition_append.cuh"
#include "cuda/auto/splitter_bucket_sort.cuh"
#include "cuda/auto/splitter_partition.hpp"
#include "cuda/common/dynamic_shared.cuh"
#include "cuda/common/warp.cuh"
#include "cuda/sort/block/block_buckets.cuh"
#include "cuda/sort/oddeven/exact_merge_sort.cuh"

namespace particles::cuda {
namespace {

// The counts and words the appends leave, zeroed for the next sort, by `threads` threads (a
// block, or a warp), each calling it with its index among them. Past the largest sort (more
// buckets than kPartitionMaxBuckets) nothing was appended, and the counts end at that many.
__device__ void clear_appends(const BucketSortArgs& a, std::uint32_t buckets, unsigned thread,
                              unsigned threads) {
  const std::uint32_t counted = min(buckets, kPartitionMaxBuckets);
  for (std::uint32_t j = thread; j < counted; j += threads) a.counts[j * kPartitionCountStride] = 0;
  if (thread == 0) {
    a.state[kAppended] = 0;
    a.state[kOverflow] = 0;
    a.state[kTicket] = 0;
  }
}

// A bucket overflowed, and the appends stored the keys past a bucket's capacity by place (or
// nothing was appended, and the kernel that made the keys stored them all there): every
// block of the grid sorts all the keys there instead of refusing, with their places as the values,
// into the sort's values and final values (exact_merge_sort.cuh, scheduled by tickets, so the grid
// need not be resident all at once). Stable, as the buckets' sort: ties keep their places. The
// splitters stay as they were: stale, they only make the next sort likelier to overflow. Out of
// line, so the bucket path's registers stay its own.
__device__ __noinline__ void sort_overflowed(BucketSortArgs a, std::uint32_t buckets) {
  exact::TicketSchedule schedule(a.overflow_words);
  // The keys the buckets hold go by place too, a bucket a unit. Its count is read by every unit
  // before the last block out zeroes it.
  schedule.phase(buckets, [&](std::uint32_t b) {
    const std::uint32_t count = a.counts[b * kPartitionCountStride];
    const int held =
        static_cast<int>(min(count, static_cast<std::uint32_t>(kPartitionBucketCapacity)));
    const uint2* pairs = a.slots + std::size_t{b} * kPartitionBucketCapacity;
    for (int slot = static_cast<int>(threadIdx.x); slot < held; slot += kBucketThreads) {
      const uint2 pair = pairs[slot];
      a.keys_by_place[pair.y] = pair.x;
    }
  });
  // Full-word comparisons: quantized keys leave the unused high bits zero.
  const exact::Args sort{
      a.keys_by_place,
      a.out.values,
      a.overflow_scratch,
      a.overflow_scratch + a.n,
      reinterpret_cast<TileEnds*>(a.overflow_scratch + overflow_ends_offset(a.n)),
      a.n,
      KeyBits{0, 32},
      a.final_values_at,
      /*values_are_places=*/true};
  exact::sort(sort, schedule);
  if (blockIdx.x == 0 && threadIdx.x == 0) a.verdict.write_sorted_aside();
  if (schedule.finish()) clear_appends(a, buckets, threadIdx.x, kBucketThreads);
}

// Per bucket: its start (the counts of the buckets before it), then its pairs sorted into place.
// Block 0 gives the verdict: the sort runs when the keys were appended and no bucket overflowed.
// Every block takes a ticket once it has read the counts; the last one zeroes them. Its barriers
// are few on purpose: each one in the middle of its work cost a galaxy frame measurably (two
// blocks a SM, so a barrier leaves half the SM's warps waiting on their slowest; figures in
// docs/notes/partition.md, "The bucket kernel").
template <bool kPlacesOnly>
__global__ void __launch_bounds__(kBucketThreads, kBucketBlocksPerSm)
    partition_bucket_sort_kernel(BucketSortArgs a) {
  BucketShared& sh = detail::dynamic_shared<BucketShared>();
  const std::uint32_t buckets = partition_buckets(a.n);
  const bool first_thread = blockIdx.x == 0 && threadIdx.x == 0;
  const std::uint32_t b = blockIdx.x;
  // Every word the block needs before it sorts is read at once, so that it waits on the L2 once
  // rather than once a word: its enable, the appends' words, its bucket's count and the counts
  // before it (the bucket's start: independent loads, at most four a thread; a per-group count kept
  // by the appends was a hot spot, its atomics, a few thousand on one word, made the step several
  // times slower: docs/notes/partition.md, "The bucket kernel"). Past the largest sort the one
  // block reads bucket 0's count, which is there.
  const std::int32_t enabled = *a.enable;
  const bool appended = a.state[kAppended] != 0;
  const bool sorts = appended && a.state[kOverflow] == 0;
  const std::uint32_t count = a.counts[b * kPartitionCountStride];
  // The counts before the bucket: this thread's share, then (below) the bucket's start.
  std::uint32_t start = 0;
  for (std::uint32_t j = threadIdx.x; j < b; j += kBucketThreads)
    start += a.counts[j * kPartitionCountStride];
  // A usual bucket's rows are on their way before its count arrives: they need only its place.
  // Words past the count are stale, and taken as padding below.
  BucketRows rows;
  rows.pairs = a.slots + std::size_t{b} * kPartitionBucketCapacity;
#pragma unroll
  for (int i = 0; i < kUsualRows; ++i) rows.held[i] = rows.pairs[striped_slot(i)];
  if (enabled == 0) {
    // Nothing sorts, but a kernel may have appended: block 0 leaves the counts zero.
    if (blockIdx.x == 0) clear_appends(a, buckets, threadIdx.x, blockDim.x);
    if (first_thread) *a.verdict.ran = 0;
    return;
  }
  if (buckets > kPartitionMaxBuckets) {  // one block; nothing was appended
    if (first_thread) a.verdict.write(false);
    return;
  }
  if (!sorts && a.keys_by_place != nullptr) {
    sort_overflowed(a, buckets);  // rare: the partition stint's frame that moved too far
    return;
  }
  // Only the rows that hold the bucket's pairs are loaded, ranked and stored: a bucket holds
  // about kPartitionBucket keys, half the capacity.
  const int len = sorts ? static_cast<int>(count) : 0;  // <= capacity without an overflow
  const int live = (len + kBucketThreads - 1) / kBucketThreads;
#pragma unroll
  for (int i = kUsualRows; i < kHeldRows; ++i) {
    if (i < live) rows.held[i] = rows.pairs[striped_slot(i)];
  }
  std::uint32_t lo = 0xffffffffu, hi = 0u;
#pragma unroll
  for (int i = 0; i < kBucketItems; ++i) {
    if (i >= live) break;
    if (striped_slot(i) < len) {
      const std::uint32_t key = rows(i).x;
      lo = min(lo, key);
      hi = max(hi, key);
    }
  }
  // The bucket's start and its key range share one barrier (block_min_max_sum: scratch is next
  // written by the ranking's scan, past its counting's barrier), and the one-pass ranking's
  // cursors, zeroed before it, are then ready for that counting. (The start's own sum and
  // block_min_max took two more barriers, and measured slower: docs/notes/partition.md.)
  reinterpret_cast<uint4*>(sh.spread.cursor)[2 * threadIdx.x] = make_uint4(0u, 0u, 0u, 0u);
  reinterpret_cast<uint4*>(sh.spread.cursor)[2 * threadIdx.x + 1] = make_uint4(0u, 0u, 0u, 0u);
  detail::block_min_max_sum(lo, hi, start, sh.scratch, sh.before_by_warp);
  // Every thread's counts are in registers (block_min_max_sum's barrier): the ticket may be taken.
  // Its answer is wanted only at the end, so nothing waits for the atomic until then.
  std::uint32_t ticket = 0;
  if (threadIdx.x == 0) ticket = atomicAdd(a.state + kTicket, 1u);
  if (first_thread) a.verdict.write(sorts);
  if (len > 0) {
    BucketOutput out = a.out;
    out.final_values = a.final_values_at != nullptr ? *a.final_values_at : nullptr;
    if (!spread_sort_bucket<kPlacesOnly>(rows, live, len, lo, hi, sh, out, start))
      lsd_sort_bucket(rows.pairs, live, len, lo, bit_width(hi - lo), sh, out, start);  // rare
  }
  // The last block's first warp zeroes the counts, with no barrier for the block's other warps
  // to wait at: every block read its counts before it took its ticket.
  if (detail::warp_id() == 0 && __shfl_sync(detail::kFullMask, ticket, 0) == gridDim.x - 1)
    clear_appends(a, buckets, detail::lane_id(), detail::kWarpSize);
}

}  // namespace
}  // namespace particles::cuda
