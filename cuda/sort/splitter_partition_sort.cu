#include "cuda/sort/splitter_partition_sort.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

#include "cuda/check.hpp"
#include "cuda/detail/dynamic_shared.cuh"
#include "cuda/detail/launch_grid.hpp"
#include "cuda/detail/warp.cuh"
#include "cuda/sort/block_buckets.cuh"
#include "cuda/sort/block_radix.cuh"
#include "cuda/sort/merge.hpp"
#include "cuda/sort/splitter_partition.hpp"

namespace particles::cuda {
namespace {

constexpr int kTileThreads = 256;
constexpr int kTileItems = kPartitionBucket / kTileThreads;
// 256 threads with 16 rows each rather than 512 with 8: a bucket's rank scans and barriers span
// half the warps (galaxy, 1M, exact: auto 109.3 -> 107.7 us on the H200).
constexpr int kBucketThreads = 256;
// Every bucket of a 1M-key sort (512) in one wave on the H200's 132 SMs: at its natural 80
// registers only 3 blocks fit per SM, and the last 116 buckets waited for a second wave.
constexpr int kBucketBlocksPerSm = 4;
constexpr int kBucketItems = kPartitionBucketCapacity / kBucketThreads;
// The bucket sort's packed words: a key's bits above its place in the bucket.
constexpr int kPlaceBits = 12;
constexpr std::uint32_t kPlaceMask = (1u << kPlaceBits) - 1u;
constexpr int kPackedKeyBits = 32 - kPlaceBits;
static_assert(kPartitionBucketCapacity <= 1 << kPlaceBits, "a place fits its bits");
// Padding of a partial tile ranks after every real digit, so its ranks are the tile's last.
constexpr int kPadDigit = kPartitionDigitSlots - 1;
constexpr int kPartitionDigitBits = 5;  // digits and the pad digit, < 2^5
static_assert(kPartitionDigitSlots == 1 << kPartitionDigitBits, "the ballots cover every slot");
static_assert(kPadDigit >= kPartitionDigits, "a digit of its own");
static_assert(kPartitionDigitSlots <= kRadixBuckets, "digits ranked by the radix ranking");
static_assert(kTileItems * kTileThreads == kPartitionBucket &&
                  kBucketItems * kBucketThreads == kPartitionBucketCapacity,
              "whole tiles");

using TileRank = detail::BlockRadixRank<kTileThreads, kTileItems, detail::Multisplit::ballot,
                                        kPartitionDigitBits>;
// The bucket's ranking multisplit (block_radix.cuh): a bucket's 8-bit digits are spread, and one
// shared atomic and read a row cost less than eight votes (H200, galaxy 1M exact: auto 89.2 ->
// 85.0 us; ncu, this kernel 28.5 -> 23-25 us with the row table below).
constexpr detail::Multisplit kBucketMultisplit = detail::Multisplit::atomic_or;
using BucketRank = detail::BlockRadixRank<kBucketThreads, kBucketItems, kBucketMultisplit>;

// The sort's device state words.
enum StateWord : int {
  kSplittersFor = 0,  // the key count the splitters were taken for; kNoSplitters when none
  kOutOfReach = 1,    // set by a tile with a key beyond its reach; cleared by finish_counts
  kTicket = 2,        // the split kernel's blocks done; back to zero by its last block
  kStateWords = 3
};
constexpr std::uint32_t kNoSplitters = 0xffffffffu;  // no sort has that many keys

// The splitters a tile's keys can fall between, from shared memory.
struct SplitterWindow {
  std::uint32_t values[kPartitionDigits + 1];
  std::uint32_t first;  // the splitter index of values[0]
  __device__ std::uint32_t operator()(std::uint32_t j) const { return values[j - first]; }
};

// The splitter indices a tile's keys can need: [t - reach, t + reach + 1] of [1, buckets) (all
// partition_digit reads), at most kPartitionDigits + 1 of them, one a thread.
struct WindowSlot {
  long long lo, index;  // the window's first splitter index; this thread's
  bool holds;           // whether this thread loads one
  __device__ WindowSlot(std::uint32_t t, std::uint32_t buckets)
      : lo(max(1LL, static_cast<long long>(t) - kPartitionReach)), index(lo + threadIdx.x) {
    const long long hi =
        min(static_cast<long long>(buckets) - 1, static_cast<long long>(t) + kPartitionReach + 1);
    holds = index <= hi;
  }
};
static_assert(kPartitionDigits + 1 <= kTileThreads, "a thread per window splitter");

// The window from each thread's loaded splitter (WindowSlot), into shared memory; ends with a
// barrier.
__device__ void store_window(SplitterWindow& w, const WindowSlot& slot, std::uint32_t loaded) {
  if (threadIdx.x == 0) w.first = static_cast<std::uint32_t>(slot.lo);
  if (slot.holds) w.values[slot.index - slot.lo] = loaded;
  __syncthreads();
}

// The sort's answer to its caller (SplitterPartitionSort::sort_enabled), written either way, so
// a graph that always runs the sort needs no word reset per frame.
struct Verdict {
  std::int32_t* fallback;
  std::uint32_t* ran;           // also what the bucket kernel goes by
  std::int32_t* finish_enable;  // may be null
  __device__ void write(bool sorts) const {
    *fallback = sorts ? 0 : 1;
    if (finish_enable != nullptr) *finish_enable = sorts ? 0 : 1;
    *ran = sorts ? 1u : 0u;
  }
};

struct SplitShared {
  TileRank::Storage rank;
  SplitterWindow window;
  std::uint32_t keys[kPartitionBucket];  // in digit order
  std::uint32_t values[kPartitionBucket];
};

// A tile's run of keys for one digit, packed: its first place in the tile's split, its length.
constexpr int kRunShift = 16;
static_assert(kPartitionBucket < 1 << kRunShift, "a place and a length fit 16 bits each");

// One input tile's part of step 1, from its pairs in registers (item i of a thread at place
// TileRank::striped_index(i) of the tile, the first len real) and its splitter window as loaded
// (WindowSlot): each key's bucket digit; the tile's pairs, stably by digit, to the same places of
// the scratch arrays (so each bucket's keys from this tile are one run); each digit's run kept
// per tile and its length added to the bucket sizes. A key out of reach flags the sort as
// impossible instead. Every thread of the block calls it.
__device__ void split_tile(const std::uint32_t (&key)[kTileItems],
                           const std::uint32_t (&value)[kTileItems], int len, std::uint32_t buckets,
                           const WindowSlot& window_slot, std::uint32_t window_splitter,
                           std::uint32_t* state, std::uint32_t* __restrict__ out_keys,
                           std::uint32_t* __restrict__ out_values, std::uint32_t* runs,
                           std::uint32_t* bucket_sizes) {
  __shared__ SplitShared sh;
  const std::uint32_t t = blockIdx.x;
  const std::uint32_t begin = t * kPartitionBucket;
  std::uint32_t digit[kTileItems], rank[kTileItems];
  store_window(sh.window, window_slot, window_splitter);
  // A pointer, not the window itself: partition_digit takes its accessor by value.
  const auto splitter = [w = &sh.window](std::uint32_t j) { return (*w)(j); };
  bool out_of_reach = false;
#pragma unroll
  for (int i = 0; i < kTileItems; ++i) {
    const int d = TileRank::striped_index(i) < len ? partition_digit(key[i], t, buckets, splitter)
                                                   : kPadDigit;
    out_of_reach = out_of_reach || d < 0;
    digit[i] = d < 0 ? static_cast<std::uint32_t>(kPadDigit) : static_cast<std::uint32_t>(d);
  }
  if (__syncthreads_or(out_of_reach)) {
    if (threadIdx.x == 0) state[kOutOfReach] = 1;
    return;
  }
  TileRank::rank(digit, rank, sh.rank);
#pragma unroll
  for (int i = 0; i < kTileItems; ++i) {
    if (TileRank::striped_index(i) < len) {
      sh.keys[rank[i]] = key[i];
      sh.values[rank[i]] = value[i];
    }
  }
  __syncthreads();
  for (int r = static_cast<int>(threadIdx.x); r < len; r += kTileThreads) {
    out_keys[begin + r] = sh.keys[r];
    out_values[begin + r] = sh.values[r];
  }
  if (threadIdx.x < kPartitionDigits) {
    const std::uint32_t count = sh.rank.bucket_count[threadIdx.x];
    runs[t * kPartitionDigitSlots + threadIdx.x] =
        sh.rank.bucket_offset[threadIdx.x] << kRunShift | count;
    const long long bucket = static_cast<long long>(t) + threadIdx.x - kPartitionReach;
    // A digit with keys names a bucket in [0, buckets); the test keeps a bad count from
    // writing elsewhere.
    if (count != 0 && bucket >= 0 && bucket < static_cast<long long>(buckets))
      atomicAdd(&bucket_sizes[bucket], count);
  }
}

// The rest of step 1, by the split kernel's last block, once every tile has added its runs:
// decides whether the sort can go on (every key in reach, every bucket within a block's
// capacity) and, if so, turns the bucket sizes into starts. Either way it leaves the sizes zero,
// the out-of-reach word clear and the ticket at zero for the next sort.
__device__ void finish_counts(std::uint32_t n, std::uint32_t buckets, std::uint32_t* state,
                              std::uint32_t* bucket_sizes, std::uint32_t* starts,
                              const Verdict& verdict) {
  __shared__ std::uint32_t scratch[2][kTileThreads / 32];
  // Other blocks' writes: read from L2.
  const bool in_reach = __ldcg(state + kOutOfReach) == 0;
  // Each thread a contiguous run of buckets.
  const std::uint32_t per_thread = (buckets + kTileThreads - 1) / kTileThreads;
  const std::uint32_t b0 = min(buckets, threadIdx.x * per_thread);
  const std::uint32_t b1 = min(buckets, b0 + per_thread);
  std::uint32_t run = 0;
  bool over = false;
  for (std::uint32_t b = b0; b < b1; ++b) {
    const std::uint32_t size = __ldcg(bucket_sizes + b);
    over = over || size > static_cast<std::uint32_t>(kPartitionBucketCapacity);
    run += size;
  }
  const bool sorts = __syncthreads_and(in_reach && !over);
  std::uint32_t running = detail::block_exclusive_sum(run, scratch);
  for (std::uint32_t b = b0; b < b1; ++b) {
    if (sorts) {
      starts[b] = running;
      running += __ldcg(bucket_sizes + b);
    }
    bucket_sizes[b] = 0;
  }
  if (threadIdx.x == 0) {
    if (sorts) starts[buckets] = n;
    verdict.write(sorts);
    state[kOutOfReach] = 0;
    state[kTicket] = 0;
  }
}

// 1. Per input tile, split_tile; then the last block to finish, finish_counts (a ticket, as the
// extents reduction does: no launch of its own for the starts). Once a tile has flagged a key
// out of reach, tiles that start later skip the split, but still read their pairs (issued before
// the flag is known) and take their ticket.
__global__ void __launch_bounds__(kTileThreads)
    partition_split_kernel(const std::uint32_t* __restrict__ keys,
                           const std::uint32_t* __restrict__ values, std::uint32_t n,
                           const std::uint32_t* __restrict__ splitters, std::uint32_t* state,
                           std::uint32_t* __restrict__ out_keys,
                           std::uint32_t* __restrict__ out_values, std::uint32_t* runs,
                           std::uint32_t* bucket_sizes, std::uint32_t* starts,
                           const std::int32_t* enable, Verdict verdict) {
  const std::uint32_t buckets = partition_buckets(n);
  // Three independent words, loaded before any is tested: the kernel is latency-bound, and
  // tested in turn each would cost its own round trip.
  const std::int32_t enabled = *enable;
  const std::uint32_t splitters_for = state[kSplittersFor];
  const std::uint32_t flagged = *static_cast<volatile std::uint32_t*>(state + kOutOfReach);
  const bool first_thread = blockIdx.x == 0 && threadIdx.x == 0;
  if (enabled == 0) {
    if (first_thread) *verdict.ran = 0;
    return;
  }
  // Words every block reads alike, so every block returns here, and no ticket is taken.
  if (splitters_for != n || buckets > kPartitionMaxBuckets) {
    if (first_thread) verdict.write(false);
    return;
  }
  // The tile's pairs in flight before the barrier below waits for the flag, and every load
  // before the first search: the kernel is latency-bound, a few blocks per multiprocessor.
  const std::uint32_t begin = blockIdx.x * kPartitionBucket;
  const int len = static_cast<int>(min(static_cast<std::uint32_t>(kPartitionBucket), n - begin));
  std::uint32_t key[kTileItems], value[kTileItems];
#pragma unroll
  for (int i = 0; i < kTileItems; ++i) {
    const int q = TileRank::striped_index(i);
    key[i] = q < len ? keys[begin + q] : 0u;
    value[i] = q < len ? values[begin + q] : 0u;
  }
  const WindowSlot window_slot(blockIdx.x, buckets);
  const std::uint32_t window_splitter = window_slot.holds ? splitters[window_slot.index] : 0u;
  // Read by every thread, so decided by all of them together (the barrier counts on it).
  if (!__syncthreads_or(flagged != 0))
    split_tile(key, value, len, buckets, window_slot, window_splitter, state, out_keys, out_values,
               runs, bucket_sizes);
  __shared__ bool is_last_block;
  __syncthreads();
  // One thread's fence after the barrier releases the whole block's counts and flag with its
  // ticket (cumulative, as a grid barrier does it); a fence in every thread waited for each
  // thread's split stores, which only the next kernel reads (ncu: about a tenth of the stalls).
  if (threadIdx.x == 0) {
    __threadfence();
    is_last_block = atomicAdd(state + kTicket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!is_last_block) return;  // uniform across the block
  __threadfence();
  finish_counts(n, buckets, state, bucket_sizes, starts, verdict);
}

// The packed path's one-pass ranking (spread_sort_packed): sub-buckets by the top bits of a
// word's key, 4 counters a thread; ranking inside a sub-bucket costs its size a word, so a bucket
// with one fuller than the radix sort's spread limit (clustered keys) takes the LSD passes.
constexpr int kSpreadBits = 10;
constexpr int kSpreadBuckets = 1 << kSpreadBits;
static_assert(kSpreadBuckets == 4 * kBucketThreads, "four counters a thread, one uint4");

struct SpreadShared {
  // Per sub-bucket: its word count, then its first slot; as the words are scattered, its next
  // slot, which ends as its last slot + 1.
  std::uint32_t cursor[kSpreadBuckets];
  std::uint16_t rank_of[kPartitionBucketCapacity];  // each bucket row's sorted place
};

struct BucketShared {
  // Run l of a bucket comes from source tile bucket - kPartitionReach + l (tile order is input
  // order: stable): its first bucket row, its length and the scratch index of its first key.
  std::uint32_t run_first[kPartitionDigitSlots];
  std::uint32_t run_count[kPartitionDigitSlots];
  std::uint32_t run_source[kPartitionDigitSlots];
  union {
    BucketRank::Storage rank;  // the LSD passes
    SpreadShared spread;       // or the one-pass ranking
  };
  std::uint32_t keys[kPartitionBucketCapacity];
  // First the scratch index of every bucket row (one lookup where a search over the runs took
  // five dependent ones, for the keys and again for the values: about 45% of the kernel's stall
  // samples in ncu); on the path that sorts the values with the keys, then the values.
  std::uint32_t values[kPartitionBucketCapacity];
  std::uint32_t scratch[2][kBucketThreads / 32];
};

static_assert(sizeof(SpreadShared) <= sizeof(BucketRank::Storage),
              "the one-pass ranking fits the LSD ranking's storage (4 blocks per SM)");
static_assert(kPartitionBucketCapacity <= 65536, "sorted places fit 16 bits");

// The packed words of a bucket (key - lo above the row, padding 0xffffffff from row len on),
// sorted in one pass instead of LSD digits: each word is counted into its sub-bucket (the top
// kSpreadBits of its key bits), scattered into its sub-bucket's slots, and ranked among that
// sub-bucket's words by comparison; a word orders as (key, row) does, so ties keep their rows
// (stable). The words then go back to the rows, sorted. Returns false, having moved nothing, when
// a sub-bucket is too full; then sh.spread is free for the LSD passes. The cursors must be zero on
// entry. Every thread of the block calls it.
__device__ bool spread_sort_packed(std::uint32_t (&word)[kBucketItems], int live, int len, int bits,
                                   BucketShared& sh) {
  const int shift = kPlaceBits + (bits > kSpreadBits ? bits - kSpreadBits : 0);
  std::uint32_t* const cursor = sh.spread.cursor;
#pragma unroll
  for (int i = 0; i < kBucketItems; ++i) {
    if (i >= live) break;
    if (BucketRank::row_index(i, live) < len) atomicAdd(&cursor[word[i] >> shift], 1u);
  }
  __syncthreads();
  const bool crowded =
      detail::bucket_counts_to_offsets<kSpreadBuckets / kBucketThreads, kRadixSpreadBucketLimit,
                                       kBucketThreads / 32, false>(
          &cursor[threadIdx.x * (kSpreadBuckets / kBucketThreads)], sh.scratch);
  if (__syncthreads_or(crowded)) return false;
#pragma unroll
  for (int i = 0; i < kBucketItems; ++i) {
    if (i >= live) break;
    if (BucketRank::row_index(i, live) < len)
      sh.keys[atomicAdd(&cursor[word[i] >> shift], 1u)] = word[i];
  }
  __syncthreads();
  // Sub-bucket b now spans slots [cursor[b - 1], cursor[b]) (from 0 for the first).
  for (int slot = static_cast<int>(threadIdx.x); slot < len; slot += kBucketThreads) {
    const std::uint32_t mine = sh.keys[slot];
    const std::uint32_t b = mine >> shift;
    const std::uint32_t first = b == 0 ? 0u : cursor[b - 1];
    std::uint32_t place = first;
    for (std::uint32_t m = first; m < cursor[b]; ++m) place += sh.keys[m] < mine ? 1u : 0u;
    sh.spread.rank_of[mine & kPlaceMask] = static_cast<std::uint16_t>(place);
  }
  __syncthreads();
#pragma unroll
  for (int i = 0; i < kBucketItems; ++i) {
    if (i >= live) break;
    const int q = BucketRank::row_index(i, live);
    if (q < len) sh.keys[sh.spread.rank_of[q]] = word[i];
  }
  __syncthreads();
#pragma unroll
  for (int i = 0; i < kBucketItems; ++i) {
    if (i >= live) break;
    const int q = BucketRank::row_index(i, live);
    if (q < len) word[i] = sh.keys[q];
  }
  return true;
}

// 2. Per bucket: its runs gathered from the split tiles, then its keys sorted stably over the
// bits in which they differ (a bucket spans a sliver of the key range, about 16 bits on galaxy
// frames): in one pass by sub-buckets of that range (spread_sort_packed), or by LSD passes when
// the keys cluster or need more bits than the packed words hold.
__global__ void __launch_bounds__(kBucketThreads, kBucketBlocksPerSm) partition_bucket_sort_kernel(
    const std::uint32_t* __restrict__ in_keys, const std::uint32_t* __restrict__ in_values,
    const std::uint32_t* __restrict__ runs, const std::uint32_t* __restrict__ starts,
    std::uint32_t* __restrict__ out_keys, std::uint32_t* __restrict__ out_values,
    const std::uint32_t* ran, std::uint32_t* const* final_values_at,
    std::uint32_t* __restrict__ splitters) {
  if (*ran == 0) return;
  BucketShared& sh = detail::dynamic_shared<BucketShared>();
  const std::uint32_t start = starts[blockIdx.x];
  const int len = static_cast<int>(starts[blockIdx.x + 1] - start);
  if (len == 0) return;
  if (threadIdx.x < kPartitionDigitSlots) {  // warp 0: a lane per run
    const int l = static_cast<int>(threadIdx.x);
    const long long tile = static_cast<long long>(blockIdx.x) - kPartitionReach + l;
    std::uint32_t count = 0, source = 0;
    if (l < kPartitionDigits && tile >= 0 && tile < static_cast<long long>(gridDim.x)) {
      // The digit this bucket is to that tile.
      const std::uint32_t run = runs[tile * kPartitionDigitSlots + (kPartitionDigits - 1 - l)];
      count = run & ((1u << kRunShift) - 1u);
      source = static_cast<std::uint32_t>(tile) * kPartitionBucket + (run >> kRunShift);
    }
    sh.run_first[l] = detail::warp_inclusive_sum(count) - count;
    sh.run_count[l] = count;
    sh.run_source[l] = source;
  }
  __syncthreads();
  // The rows' scratch indices, a warp per run.
  std::uint32_t* const source_of = sh.values;
  for (int l = static_cast<int>(detail::warp_id()); l < kPartitionDigits;
       l += kBucketThreads / 32) {
    const std::uint32_t first = sh.run_first[l], count = sh.run_count[l];
    const std::uint32_t source = sh.run_source[l];
    for (std::uint32_t j = detail::lane_id(); j < count; j += 32) source_of[first + j] = source + j;
  }
  __syncthreads();
  // A bucket holds about kPartitionBucket keys, half the capacity: only the rows that hold
  // them are loaded, ranked and stored.
  const int live = (len + kBucketThreads - 1) / kBucketThreads;
  std::uint32_t key[kBucketItems], value[kBucketItems];
  std::uint32_t lo = 0xffffffffu, hi = 0u;
#pragma unroll
  for (int i = 0; i < kBucketItems; ++i) {
    if (i >= live) break;
    const int q = BucketRank::row_index(i, live);
    key[i] = q < len ? in_keys[source_of[q]] : 0xffffffffu;
    if (q < len) {
      lo = min(lo, key[i]);
      hi = max(hi, key[i]);
    }
  }
  // The one-pass ranking's cursors start at zero; block_min_max's barriers order this before
  // the counting.
  reinterpret_cast<uint4*>(sh.spread.cursor)[threadIdx.x] = make_uint4(0u, 0u, 0u, 0u);
  detail::block_min_max(lo, hi, sh.scratch);
  const int bits = bit_width(hi - lo);
  if (bits <= kPackedKeyBits) {
    // The usual bucket (a sliver of the key range): each key, less the smallest, shares a word
    // with its place in the bucket, so the passes move one word instead of two and sort by the
    // key bits only (the place below them keeps ties in input order, stable); the values are
    // fetched by place at the end.
#pragma unroll
    for (int i = 0; i < kBucketItems; ++i) {
      if (i >= live) break;
      const int q = BucketRank::row_index(i, live);
      // Padding: the largest key the bits hold, placed after every real key.
      key[i] = q < len ? (key[i] - lo) << kPlaceBits | static_cast<std::uint32_t>(q) : 0xffffffffu;
    }
    // With no key bits every key is equal, and the input order is the stable order.
    if (bits > 0 && !spread_sort_packed(key, live, len, bits, sh)) {
      detail::block_sort_keys<kBucketThreads, kBucketItems, kBucketMultisplit>(
          key, KeyBits{kPlaceBits, kPlaceBits + bits}, sh.rank, sh.keys, live);
    }
#pragma unroll
    for (int i = 0; i < kBucketItems; ++i) {
      if (i >= live) break;
      if (BucketRank::row_index(i, live) < len) {
        value[i] = in_values[source_of[key[i] & kPlaceMask]];
        key[i] = (key[i] >> kPlaceBits) + lo;
      }
    }
  } else {
#pragma unroll
    for (int i = 0; i < kBucketItems; ++i) {
      if (i >= live) break;
      const int q = BucketRank::row_index(i, live);
      // Loaded before the sort's first barrier, after which it reuses sh.values.
      value[i] = q < len ? in_values[source_of[q]] : 0u;
      if (q < len) key[i] -= lo;  // padding stays 0xffffffff: it sorts last
    }
    detail::block_sort_pairs<kBucketThreads, kBucketItems, kBucketMultisplit>(
        key, value, KeyBits{0, bits}, sh.rank, sh.keys, sh.values, live);
#pragma unroll
    for (int i = 0; i < kBucketItems; ++i)
      if (i < live && BucketRank::row_index(i, live) < len) key[i] += lo;
  }
  std::uint32_t* final_values = final_values_at != nullptr ? *final_values_at : nullptr;
#pragma unroll
  for (int i = 0; i < kBucketItems; ++i) {
    if (i >= live) break;
    const int q = BucketRank::row_index(i, live);
    if (q < len) {
      const std::uint32_t place = start + static_cast<std::uint32_t>(q);
      out_keys[place] = key[i];
      out_values[place] = value[i];
      if (final_values != nullptr) final_values[place] = value[i];
      // The splitters nothing reads any more this sort (the split kernel was their last reader).
      if (splitters != nullptr && place != 0 && place % kPartitionBucket == 0)
        splitters[place / kPartitionBucket] = key[i];
    }
  }
}

__global__ void partition_note_sorted_kernel(const std::uint32_t* __restrict__ sorted,
                                             std::uint32_t n, std::uint32_t* splitters,
                                             std::uint32_t* state, const std::int32_t* enable,
                                             NotedValues copy) {
  if (enable != nullptr && *enable == 0) return;
  const std::uint32_t buckets = partition_buckets(n);
  const std::uint32_t first = blockIdx.x * blockDim.x + threadIdx.x;
  const std::uint32_t stride = gridDim.x * blockDim.x;
  for (std::uint32_t j = 1 + first; j < buckets; j += stride)
    splitters[j] = sorted[j * kPartitionBucket];
  if (copy.target != nullptr) {
    std::uint32_t* target = *copy.target;
    for (std::uint32_t i = first; i < n; i += stride) target[i] = copy.values[i];
  }
  if (first == 0) state[kSplittersFor] = n;
}

// A word memset cannot write, on the stream, capturable, with no host memory to keep alive.
__global__ void partition_forget_kernel(std::uint32_t* state) {
  state[kSplittersFor] = kNoSplitters;
}

std::uint32_t buckets_for(std::size_t capacity) {
  return std::max<std::uint32_t>(1u, partition_buckets(static_cast<std::uint32_t>(capacity)));
}

}  // namespace

SplitterPartitionSort::SplitterPartitionSort(std::size_t capacity)
    : capacity_(capacity),
      runs_(std::size_t{buckets_for(capacity)} * kPartitionDigitSlots),
      starts_(buckets_for(capacity) + 1),
      bucket_sizes_(buckets_for(capacity)),
      splitters_(buckets_for(capacity)),
      state_(kStateWords),
      scratch_keys_(capacity),
      scratch_values_(capacity) {
  if (capacity >= kNoSplitters)
    throw std::invalid_argument("SplitterPartitionSort: capacity " + std::to_string(capacity) +
                                " is too large");
  const std::array<std::uint32_t, kStateWords> state{kNoSplitters, 0u, 0u};
  CUDA_CHECK(cudaMemcpy(state_.data(), state.data(), sizeof state, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(bucket_sizes_.data(), 0, bucket_sizes_.size_bytes()));  // kept zero
  CUDA_CHECK(cudaFuncSetAttribute(partition_bucket_sort_kernel,
                                  cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  static_cast<int>(sizeof(BucketShared))));
}

void SplitterPartitionSort::forget_splitters(cudaStream_t stream) {
  partition_forget_kernel<<<1, 1, 0, stream>>>(state_.data());
  CUDA_CHECK_LAUNCH("partition_forget_kernel");
}

void SplitterPartitionSort::note_sorted(const std::uint32_t* sorted_keys, std::uint32_t n,
                                        cudaStream_t stream, const std::int32_t* enable,
                                        const NotedValues& copy) {
  if (n > capacity_)
    throw std::invalid_argument("SplitterPartitionSort::note_sorted: n " + std::to_string(n) +
                                " > capacity " + std::to_string(capacity_));
  // A thread per splitter (each is one scattered read: 8192 of them at 16M keys); with values to
  // copy, a resident-sized grid that strides over them (disabled, every block of a launch still
  // has to be scheduled).
  const std::uint32_t blocks =
      copy.target != nullptr ? detail::grid_stride_blocks(n, 256, 8)
                             : std::max<std::uint32_t>(1u, (partition_buckets(n) + 255) / 256);
  partition_note_sorted_kernel<<<blocks, 256, 0, stream>>>(sorted_keys, n, splitters_.data(),
                                                           state_.data(), enable, copy);
  CUDA_CHECK_LAUNCH("partition_note_sorted_kernel");
}

void SplitterPartitionSort::sort_enabled(std::uint32_t* keys, std::uint32_t* values,
                                         std::uint32_t n, cudaStream_t stream,
                                         const std::int32_t* enable, std::int32_t* fallback,
                                         std::uint32_t* ran, const PartitionExtras& extras) {
  if (n > capacity_)
    throw std::invalid_argument("SplitterPartitionSort::sort_enabled: n " + std::to_string(n) +
                                " > capacity " + std::to_string(capacity_));
  if (n == 0) return;
  const std::uint32_t buckets = partition_buckets(n);
  partition_split_kernel<<<buckets, kTileThreads, 0, stream>>>(
      keys, values, n, splitters_.data(), state_.data(), scratch_keys_.data(),
      scratch_values_.data(), runs_.data(), bucket_sizes_.data(), starts_.data(), enable,
      {fallback, ran, extras.finish_enable});
  CUDA_CHECK_LAUNCH("partition_split_kernel");
  partition_bucket_sort_kernel<<<buckets, kBucketThreads, sizeof(BucketShared), stream>>>(
      scratch_keys_.data(), scratch_values_.data(), runs_.data(), starts_.data(), keys, values, ran,
      extras.final_values, extras.note_splitters ? splitters_.data() : nullptr);
  CUDA_CHECK_LAUNCH("partition_bucket_sort_kernel");
}

}  // namespace particles::cuda
