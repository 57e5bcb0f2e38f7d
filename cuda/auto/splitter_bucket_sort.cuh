#pragma once
// How the splitter partition sort's bucket kernel sorts one bucket: its block shape, the records
// it is given (the verdict, the bucket's output, its arguments), its shared memory, and the bucket
// sorts themselves, the one-pass ranking by sub-buckets and, for clustered keys, the LSD passes.
// Included, through splitter_bucket_kernel.cuh, by splitter_partition_sort.cu alone (internal
// linkage).
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "cuda/auto/partition_append.cuh"
#include "cuda/auto/splitter_partition.hpp"
#include "cuda/common/dynamic_shared.cuh"
#include "cuda/common/warp.cuh"
#include "cuda/sort/block/block_buckets.cuh"
#include "cuda/sort/block/block_radix.cuh"
#include "cuda/sort/block/merge.hpp"
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

}  // namespace
}  // namespace particles::cuda
