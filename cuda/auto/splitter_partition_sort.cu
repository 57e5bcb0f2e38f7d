#include "cuda/auto/splitter_partition_sort.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

#include "cuda/auto/partition_append.cuh"
#include "cuda/auto/splitter_partition.hpp"
#include "cuda/common/check.hpp"
#include "cuda/common/dependent_launch.cuh"
#include "cuda/common/dynamic_shared.cuh"
#include "cuda/common/launch_grid.hpp"
#include "cuda/common/warp.cuh"
#include "cuda/sort/block/block_buckets.cuh"
#include "cuda/sort/block/block_radix.cuh"
#include "cuda/sort/block/merge.hpp"
#include "cuda/sort/copy_kernels.cuh"
#include "cuda/sort/oddeven/exact_merge_sort.cuh"

namespace particles::cuda {
namespace {

namespace exact = detail::exact;

// 16 rows a thread, 8 of them used by a usual bucket of kPartitionBucket keys. (With buckets of
// 2048 keys, 256 threads beat 512 with 8 rows, the rank scans and barriers spanning half the
// warps: docs/notes/partition.md, "The bucket kernel".)
constexpr int kBucketThreads = 512;
constexpr int kBucketWarps = kBucketThreads / 32;
// Every bucket of a 1M-key sort (256) in one wave on 128 or more SMs (the H200 has 132).
constexpr int kBucketBlocksPerSm = 2;
constexpr int kBucketItems = kPartitionBucketCapacity / kBucketThreads;
constexpr int kUsualRows = kPartitionBucket / kBucketThreads;  // the rows a usual bucket fills
// The rows the one-pass ranking keeps in registers: a usual bucket's and two more (the fullest
// bucket of a galaxy or fountain frame holds 4436 keys, 9 rows: 1M keys, 200 frames, CPU
// backend). A bigger bucket's further rows are read again from its slots where they are needed.
// (All 16 held, the kernel spilled; with 10 it does not, and 2M frames got faster:
// docs/notes/partition.md, "The bucket kernel".)
constexpr int kHeldRows = kUsualRows + 2;
constexpr int kAppendThreads = 256;
static_assert(kBucketItems * kBucketThreads == kPartitionBucketCapacity, "whole rows");
static_assert(kPartitionBucketCapacity <= 65536, "a slot fits 16 bits");

// The LSD passes' ranking multisplit (block_radix.cuh): a bucket's 8-bit digits are spread, and
// one shared atomic and read a row cost less than eight votes.
constexpr detail::Multisplit kBucketMultisplit = detail::Multisplit::atomic_or;
using BucketRank = detail::BlockRadixRank<kBucketThreads, kBucketItems, kBucketMultisplit>;

// The sort's answer to its caller (SplitterPartitionSort::sort_enabled), written either way, so
// a graph that always runs the sort needs no word reset per frame.
struct Verdict {
  std::int32_t* fallback;
  std::uint32_t* ran;
  std::int32_t* finish_enable;  // may be null
  __device__ void write(bool sorts) const {
    *fallback = sorts ? 0 : 1;
    if (finish_enable != nullptr) *finish_enable = sorts ? 0 : 1;
    *ran = sorts ? 1u : 0u;
  }
  // The overflow sort sorted them (sort_overflowed): nothing is left to the caller, though the
  // buckets did not sort them.
  __device__ void write_sorted_aside() const {
    *fallback = 0;
    if (finish_enable != nullptr) *finish_enable = 0;
    *ran = 0u;
  }
};

// Where a bucket's sorted pairs go.
struct BucketOutput {
  std::uint32_t* keys;  // may be null: the sorted keys are not kept
  std::uint32_t* values;
  std::uint32_t* final_values;    // may be null
  std::uint32_t* splitters;       // may be null: the next sort's splitters are not taken here
  const std::uint32_t* by_place;  // the values by place; null: the values are the places
  // kPlacesOnly: keys and by_place are null (a partition stint's sort, whose values are the
  // places), known at compile time, so the one-pass ranking's write loop tests neither. (With
  // the rank loop's own count, below, it cut the kernel's instructions and time:
  // docs/notes/partition.md, "The bucket kernel".)
  template <bool kPlacesOnly = false>
  __device__ void write(std::uint32_t at, std::uint32_t key, std::uint32_t place) const {
    const std::uint32_t value = !kPlacesOnly && by_place != nullptr ? by_place[place] : place;
    if (!kPlacesOnly && keys != nullptr) keys[at] = key;
    values[at] = value;
    if (final_values != nullptr) final_values[at] = value;
    // The splitters nothing reads any more this sort (the appends were their last reader).
    if (splitters != nullptr && at != 0 && at % kPartitionBucket == 0)
      splitters[at / kPartitionBucket] = key;
  }
};

struct BucketSortArgs {
  const uint2* slots;
  std::uint32_t* counts;
  std::uint32_t* state;
  std::uint32_t n;
  const std::int32_t* enable;
  Verdict verdict;
  std::uint32_t* const* final_values_at;  // may be null
  std::uint32_t* keys_by_place;           // may be null: PartitionExtras::keys_by_place
  BucketOutput out;                       // final_values filled in by the kernel
  // With keys_by_place: the overflow sort's counters, and its scratch, the slots' own memory
  // (free once their keys are by place; overflow_scratch_words of it).
  exact::TicketWords* overflow_words;
  std::uint32_t* overflow_scratch;
};

// The overflow sort's scratch: the sorted tiles' keys and values, then their ends.
__host__ __device__ constexpr std::uint32_t overflow_ends_offset(std::uint32_t n) {
  return (2 * n + 3) / 4 * 4;  // TileEnds are 16-byte aligned
}
constexpr std::size_t overflow_scratch_words(std::uint32_t n) {
  const std::size_t tiles = (std::size_t{n} + exact::kTile - 1) / exact::kTile;
  return overflow_ends_offset(n) + tiles * (sizeof(TileEnds) / sizeof(std::uint32_t));
}

// The one-pass ranking (spread_sort_bucket): sub-buckets spread evenly over a bucket's key range,
// 8 counters a thread, about one a key of a usual bucket. Ranking inside a sub-bucket costs its
// size a key (and a warp waits for its lanes' largest), so a bucket with one fuller than the
// radix sort's spread limit (clustered keys) takes the LSD passes. 16 counters a thread halve the
// sub-buckets' sizes but cost more in the block's scan than they save (docs/notes/partition.md,
// "The bucket kernel").
constexpr int kSpreadBuckets = 8 * kBucketThreads;
static_assert(kSpreadBuckets == 2 * 4 * kBucketThreads, "the kernel zeroes two uint4 a thread");

// A key offset's sub-bucket: offsets over [0, range] scaled evenly onto the kSpreadBuckets (a
// multiply, not a shift by the range's bit width, which uses as few as half of them when the
// range is just past a power of two: galaxy 1M on the CPU backend, a warp's largest sub-bucket
// holds 3.64 words on average against 4.27). Monotone, so sub-buckets follow key order.
struct SpreadScale {
  std::uint32_t multiplier;  // 0: the range is below kSpreadBuckets, each offset its own
  __device__ static SpreadScale over(std::uint32_t range) {
    if (range < static_cast<std::uint32_t>(kSpreadBuckets)) return {0u};
    // < 2^32 since range + 1 > kSpreadBuckets; offset * multiplier / 2^32 <= range * kSpreadBuckets
    // / (range + 1) < kSpreadBuckets.
    return {static_cast<std::uint32_t>((std::uint64_t{kSpreadBuckets} << 32) /
                                       (std::uint64_t{range} + 1))};
  }
  __device__ std::uint32_t operator()(std::uint32_t offset) const {
    return multiplier == 0 ? offset : __umulhi(offset, multiplier);
  }
};

struct SpreadShared {
  std::uint64_t words[kPartitionBucketCapacity];  // (key offset, place), by sub-bucket
  // Per sub-bucket: its key count, then its first slot; as the words are scattered, its next
  // slot, which ends as its last slot + 1.
  std::uint32_t cursor[kSpreadBuckets];
};
struct LsdShared {
  BucketRank::Storage rank;
  std::uint32_t keys[kPartitionBucketCapacity];
  std::uint32_t values[kPartitionBucketCapacity];
};
struct BucketShared {
  union {
    SpreadShared spread;
    LsdShared lsd;
  };
  std::uint32_t scratch[2][kBucketWarps];
  std::uint32_t before_by_warp[kBucketWarps];  // the counts before the bucket, a sum a warp
};
// The bucket kernel's dynamic shared memory: its own layout, or the overflow sort's.
constexpr std::size_t kBucketSharedBytes = std::max(sizeof(BucketShared), exact::kSharedBytes);
static_assert(exact::kThreads == kBucketThreads,
              "the overflow sort runs on the bucket kernel's blocks");

// The bucket slot a thread's row i holds in the one-pass ranking (rows striped over the block).
__device__ int striped_slot(int row) {
  return row * kBucketThreads + static_cast<int>(threadIdx.x);
}

// A thread's rows of its bucket in the one-pass ranking: the first kHeldRows in registers, the
// others read from the slots when asked for.
struct BucketRows {
  uint2 held[kHeldRows];  // (key, place)
  const uint2* pairs;     // the bucket's slots
  // Row i's pair; i is a constant once the callers' loops are unrolled.
  __device__ uint2 operator()(int i) const {
    return i < kHeldRows ? held[i] : pairs[striped_slot(i)];
  }
};

// A bucket's pairs (rows below live, row(i) from slot striped_slot(i), real below len), sorted by
// (key, place) in one pass: each pair is counted into its sub-bucket (SpreadScale over the key
// range from lo), scattered into the sub-bucket's slots as one 64-bit word (offset above place),
// and ranked among that sub-bucket's words by comparison, then written at its rank. Writes the
// sorted pairs to out from `start` and returns true, or returns false, having written nothing, when
// a sub-bucket is too full; then the shared memory is free for the LSD passes. The cursors must be
// zero on entry. Every thread of the block calls it.
template <bool kPlacesOnly>
__device__ bool spread_sort_bucket(const BucketRows& row, int live, int len, std::uint32_t lo,
                                   std::uint32_t hi, BucketShared& sh, const BucketOutput& out,
                                   std::uint32_t start) {
  const SpreadScale sub_bucket = SpreadScale::over(hi - lo);
  std::uint32_t* const cursor = sh.spread.cursor;
#pragma unroll
  for (int i = 0; i < kBucketItems; ++i) {
    if (i >= live) break;
    if (striped_slot(i) < len) atomicAdd(&cursor[sub_bucket(row(i).x - lo)], 1u);
  }
  __syncthreads();
  // (bucket_counts_to_offsets and a vote after it take one barrier more, and measured slower:
  // docs/notes/partition.md, "The bucket kernel".)
  if (detail::block_counts_to_offsets_unless_crowded<kSpreadBuckets / kBucketThreads,
                                                     kRadixSpreadBucketLimit, kBucketWarps>(
          &cursor[threadIdx.x * (kSpreadBuckets / kBucketThreads)], sh.scratch))
    return false;
#pragma unroll
  for (int i = 0; i < kBucketItems; ++i) {
    if (i >= live) break;
    if (striped_slot(i) < len) {
      const uint2 pair = row(i);
      const std::uint32_t offset = pair.x - lo;
      sh.spread.words[atomicAdd(&cursor[sub_bucket(offset)], 1u)] =
          std::uint64_t{offset} << 32 | pair.y;
    }
  }
  __syncthreads();
  // Sub-bucket s now spans slots [cursor[s - 1], cursor[s]) (from 0 for the first). Places are
  // distinct, so the words are, and each one's rank is its sorted place. Slots follow the
  // sub-buckets, so a warp's consecutive slots land within a few places of each other: the
  // stores at their ranks still share their sectors.
  for (int slot = static_cast<int>(threadIdx.x); slot < len; slot += kBucketThreads) {
    const std::uint64_t mine = sh.spread.words[slot];
    const std::uint32_t offset = static_cast<std::uint32_t>(mine >> 32);
    const std::uint32_t s = sub_bucket(offset);
    const std::uint64_t* const first = sh.spread.words + (s == 0 ? 0u : cursor[s - 1]);
    const std::uint64_t* const last = sh.spread.words + cursor[s];
    // Not unrolled: a sub-bucket holds one or two words, and the unrolled loop's set-up cost
    // more than its iterations (instruction counts in docs/notes/partition.md, "The bucket
    // kernel"). It walks a pointer and counts into a word of its own: counting into
    // the rank that also started it, the compiler spent three moves an iteration on the sum.
    std::uint32_t below = 0;
#pragma unroll 1
    for (const std::uint64_t* w = first; w < last; ++w) below += *w < mine ? 1u : 0u;
    const auto rank = static_cast<std::uint32_t>(first - sh.spread.words) + below;
    out.write<kPlacesOnly>(start + rank, offset + lo, static_cast<std::uint32_t>(mine));
  }
  return true;
}

// The same sort by LSD passes, for clustered keys: stable passes over the places' bits, then
// over the keys', leave the pairs ordered by (key, place) whatever order the appends gave them.
// It reads the bucket's pairs from its slots in its own layout, BucketRank::row_index (real ones
// first, so that padding stays after the real keys it ties with). Rare, and out of line: its
// rows, all kBucketItems in registers, would otherwise crowd the one-pass ranking's (the kernel
// spilled).
__device__ __noinline__ void lsd_sort_bucket(const uint2* pairs, int live, int len,
                                             std::uint32_t lo, int bits, BucketShared& sh,
                                             const BucketOutput& out, std::uint32_t start) {
  std::uint32_t key[kBucketItems], place[kBucketItems];
#pragma unroll
  for (int i = 0; i < kBucketItems; ++i) {
    if (i >= live) break;
    const int q = BucketRank::row_index(i, live);
    const uint2 p = q < len ? pairs[q] : make_uint2(0xffffffffu, 0xffffffffu);
    key[i] = p.x;
    place[i] = p.y;
  }
  std::uint32_t place_lo = 0xffffffffu, place_hi = 0u;
#pragma unroll
  for (int i = 0; i < kBucketItems; ++i) {
    if (i < live && BucketRank::row_index(i, live) < len) {
      place_lo = min(place_lo, place[i]);
      place_hi = max(place_hi, place[i]);
    }
  }
  detail::block_min_max(place_lo, place_hi, sh.scratch);
  // Offsets from the smallest; padding stays 0xffffffff, and its rows, after every real row,
  // stay after the real keys it ties with (the passes are stable).
#pragma unroll
  for (int i = 0; i < kBucketItems; ++i) {
    if (i < live && BucketRank::row_index(i, live) < len) {
      key[i] -= lo;
      place[i] -= place_lo;
    }
  }
  const int place_bits = bit_width(place_hi - place_lo);
  if (place_bits > 0) {
    detail::block_sort_pairs<kBucketThreads, kBucketItems, kBucketMultisplit>(
        place, key, KeyBits{0, place_bits}, sh.lsd.rank, sh.lsd.keys, sh.lsd.values, live);
    __syncthreads();
  }
  if (bits > 0) {
    detail::block_sort_pairs<kBucketThreads, kBucketItems, kBucketMultisplit>(
        key, place, KeyBits{0, bits}, sh.lsd.rank, sh.lsd.keys, sh.lsd.values, live);
  }
#pragma unroll
  for (int i = 0; i < kBucketItems; ++i) {
    if (i >= live) break;
    const int q = BucketRank::row_index(i, live);
    if (q < len) out.write(start + static_cast<std::uint32_t>(q), key[i] + lo, place[i] + place_lo);
  }
}

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
  // by the appends was a hot spot, its atomics, a few thousand on one word, made the step about
  // 4x slower at 1M keys: docs/notes/partition.md). Past the largest sort the one block reads
  // bucket 0's count, which is there.
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

// sort_enabled's append: each key with its place, and the values copied aside (the sort writes
// them in place, and reads them by place).
__global__ void __launch_bounds__(kAppendThreads)
    partition_append_kernel(const std::uint32_t* __restrict__ keys,
                            const std::uint32_t* __restrict__ values, std::uint32_t n,
                            PartitionAppend target, std::uint32_t* __restrict__ values_aside,
                            const std::int32_t* enable) {
  if (*enable == 0) return;
  detail::make_and_append_keys(target, n, [&](std::uint32_t i) {
    values_aside[i] = values[i];
    return keys[i];
  });
}

__global__ void partition_note_sorted_kernel(const std::uint32_t* __restrict__ sorted,
                                             std::uint32_t n, std::uint32_t* splitters,
                                             std::uint32_t* state, const std::int32_t* enable,
                                             NotedValues copy) {
  if (detail::disabled(enable)) return;
  const std::uint32_t buckets = partition_buckets(n);
  const std::uint32_t first = blockIdx.x * blockDim.x + threadIdx.x;
  const std::uint32_t stride = gridDim.x * blockDim.x;
  for (std::uint32_t j = 1 + first; j < buckets; j += stride)
    splitters[j] = sorted[j * kPartitionBucket];
  if (copy.target != nullptr) detail::copy_words(copy.values, *copy.target, n);
  if (first == 0) state[kSplittersFor] = n;
}

// After it no splitters serve, and nothing is appended: a word memset cannot write, on the
// stream, capturable, with no host memory to keep alive.
__global__ void partition_forget_kernel(std::uint32_t* state, std::uint32_t* counts,
                                        std::uint32_t buckets) {
  const std::uint32_t first = blockIdx.x * blockDim.x + threadIdx.x;
  const std::uint32_t stride = gridDim.x * blockDim.x;
  for (std::uint32_t j = first; j < buckets; j += stride) counts[j * kPartitionCountStride] = 0;
  if (first == 0) {
    state[kSplittersFor] = kNoSplitters;
    state[kAppended] = 0;
    state[kOverflow] = 0;
    state[kTicket] = 0;
  }
}

std::uint32_t buckets_for(std::size_t capacity) {
  return std::max<std::uint32_t>(1u, partition_buckets(static_cast<std::uint32_t>(capacity)));
}

}  // namespace

SplitterPartitionSort::SplitterPartitionSort(std::size_t capacity)
    : capacity_(capacity),
      max_buckets_(std::min(buckets_for(capacity), kPartitionMaxBuckets)),
      counts_(std::size_t{max_buckets_} * kPartitionCountStride),
      splitters_(buckets_for(capacity)),  // note_sorted takes them for any count
      state_(kPartitionStateWords),
      slots_(std::size_t{max_buckets_} * kPartitionBucketCapacity),
      scratch_values_(capacity),
      overflow_words_(sizeof(exact::TicketWords) / sizeof(std::uint32_t)) {
  if (capacity >= kNoSplitters)
    throw std::invalid_argument("SplitterPartitionSort: capacity " + std::to_string(capacity) +
                                " is too large");
  for (const auto kernel :
       {partition_bucket_sort_kernel<false>, partition_bucket_sort_kernel<true>}) {
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(kBucketSharedBytes)));
  }
  // The bucket kernel reads a usual bucket's slots before its count (stale words past it are
  // ignored): they are never read uninitialized.
  CUDA_CHECK(cudaMemset(slots_.data(), 0xff, slots_.size_bytes()));
  CUDA_CHECK(cudaMemset(overflow_words_.data(), 0, overflow_words_.size_bytes()));
  forget_splitters(nullptr);
  CUDA_CHECK(cudaStreamSynchronize(nullptr));
}

void SplitterPartitionSort::forget_splitters(cudaStream_t stream) {
  partition_forget_kernel<<<(max_buckets_ + 255) / 256, 256, 0, stream>>>(
      state_.data(), counts_.data(), max_buckets_);
  CUDA_CHECK_LAUNCH("partition_forget_kernel", stream);
}

void SplitterPartitionSort::note_sorted(const std::uint32_t* sorted_keys, std::uint32_t n,
                                        cudaStream_t stream, const std::int32_t* enable,
                                        const NotedValues& copy) {
  check_count(n, "note_sorted");
  // A thread per splitter (each is one scattered read: 8192 of them at 16M keys); with values to
  // copy, the copies' grid (copy_kernels.cuh).
  constexpr unsigned kThreads = detail::kCopyThreads;
  const std::uint32_t blocks =
      copy.target != nullptr
          ? detail::grid_stride_blocks(n, kThreads, 1)
          : std::max<std::uint32_t>(1u, (partition_buckets(n) + kThreads - 1) / kThreads);
  partition_note_sorted_kernel<<<blocks, kThreads, 0, stream>>>(sorted_keys, n, splitters_.data(),
                                                                state_.data(), enable, copy);
  CUDA_CHECK_LAUNCH("partition_note_sorted_kernel", stream);
}

void SplitterPartitionSort::check_count(std::uint32_t n, const char* call) const {
  if (n > capacity_)
    throw std::invalid_argument(std::string("SplitterPartitionSort::") + call + ": n " +
                                std::to_string(n) + " > capacity " + std::to_string(capacity_));
}

PartitionAppend SplitterPartitionSort::append_target() noexcept {
  return {splitters_.data(), state_.data(), counts_.data(), slots_.data()};
}

void SplitterPartitionSort::sort_enabled(std::uint32_t* keys, std::uint32_t* values,
                                         std::uint32_t n, cudaStream_t stream,
                                         const std::int32_t* enable, std::int32_t* fallback,
                                         std::uint32_t* ran, const PartitionExtras& extras) {
  check_count(n, "sort_enabled");
  if (extras.keys_by_place != nullptr)
    throw std::invalid_argument(
        "SplitterPartitionSort::sort_enabled: keys_by_place is for "
        "sort_appended");
  if (n == 0) return;
  partition_append_kernel<<<detail::grid_stride_blocks(n, kAppendThreads, 8), kAppendThreads, 0,
                            stream>>>(keys, values, n, append_target(), scratch_values_.data(),
                                      enable);
  CUDA_CHECK_LAUNCH("partition_append_kernel", stream);
  launch_bucket_sort(scratch_values_.data(), keys, values, n, stream, enable, fallback, ran,
                     extras);
}

void SplitterPartitionSort::sort_appended(std::uint32_t* out_keys, std::uint32_t* out_values,
                                          std::uint32_t n, cudaStream_t stream,
                                          const std::int32_t* enable, std::int32_t* fallback,
                                          std::uint32_t* ran, const PartitionExtras& extras) {
  check_count(n, "sort_appended");
  if (extras.keys_by_place != nullptr && out_keys != nullptr)
    throw std::invalid_argument(
        "SplitterPartitionSort::sort_appended: keys_by_place sorts the "
        "keys there, not to out_keys");
  if (n == 0) return;
  launch_bucket_sort(nullptr, out_keys, out_values, n, stream, enable, fallback, ran, extras);
}

void SplitterPartitionSort::launch_bucket_sort(const std::uint32_t* in_values,
                                               std::uint32_t* out_keys, std::uint32_t* out_values,
                                               std::uint32_t n, cudaStream_t stream,
                                               const std::int32_t* enable, std::int32_t* fallback,
                                               std::uint32_t* ran, const PartitionExtras& extras) {
  const std::uint32_t buckets = partition_buckets(n);
  // The overflow sort's scratch is the slots (see overflow_scratch_words): 4n words or more for
  // any sort the kernel takes.
  if (extras.keys_by_place != nullptr && buckets <= kPartitionMaxBuckets &&
      overflow_scratch_words(n) > 2 * slots_.size())
    throw std::logic_error(
        "SplitterPartitionSort: the slots cannot hold the overflow sort's scratch");
  BucketSortArgs args{slots_.data(),
                      counts_.data(),
                      state_.data(),
                      n,
                      enable,
                      {fallback, ran, extras.finish_enable},
                      extras.final_values,
                      extras.keys_by_place,
                      {out_keys, out_values, nullptr,
                       extras.note_splitters ? splitters_.data() : nullptr, in_values},
                      reinterpret_cast<exact::TicketWords*>(overflow_words_.data()),
                      reinterpret_cast<std::uint32_t*>(slots_.data())};
  // More buckets than any sort takes: one block, to give the verdict.
  const std::uint32_t blocks = buckets <= kPartitionMaxBuckets ? buckets : 1u;
  const auto kernel = in_values == nullptr && out_keys == nullptr
                          ? partition_bucket_sort_kernel<true>
                          : partition_bucket_sort_kernel<false>;
  kernel<<<blocks, kBucketThreads, kBucketSharedBytes, stream>>>(args);
  CUDA_CHECK_LAUNCH("partition_bucket_sort_kernel", stream);
}

}  // namespace particles::cuda
