#pragma once
// Step 1 of the splitter partition sort (splitter_partition.hpp) as device code, shared by the
// sort's own split kernel (splitter_partition_sort.cu) and the pipeline's step of partition-stint
// frames, which splits the keys it has just made while they are still in registers
// (cuda/sim/step_split.cu): per input tile, each key's bucket digit and the tile's pairs split
// stably by digit, so each bucket's keys from the tile are one run; then, by the grid's last
// block, the sort's verdict and the bucket starts.
#include <cstdint>

#include "cuda/detail/warp.cuh"
#include "cuda/sort/block_buckets.cuh"
#include "cuda/sort/block_radix.cuh"
#include "cuda/sort/splitter_partition.hpp"
#include "cuda/sort/splitter_partition_sort.hpp"

namespace particles::cuda::partition {

inline constexpr int kTileThreads = 256;
inline constexpr int kTileItems = kPartitionBucket / kTileThreads;
// Padding of a partial tile ranks after every real digit, so its ranks are the tile's last.
inline constexpr int kPadDigit = kPartitionDigitSlots - 1;
inline constexpr int kPartitionDigitBits = 5;  // digits and the pad digit, < 2^5
static_assert(kPartitionDigitSlots == 1 << kPartitionDigitBits, "the ballots cover every slot");
static_assert(kPadDigit >= kPartitionDigits, "a digit of its own");
static_assert(kPartitionDigitSlots <= kRadixBuckets, "digits ranked by the radix ranking");
static_assert(kTileItems * kTileThreads == kPartitionBucket, "whole tiles");

using TileRank = detail::BlockRadixRank<kTileThreads, kTileItems, detail::Multisplit::ballot,
                                        kPartitionDigitBits>;

// The sort's device state words.
enum StateWord : int {
  kSplittersFor = 0,  // the key count the splitters were taken for; kNoSplitters when none
  kOutOfReach = 1,    // set by a tile with a key beyond its reach; cleared by finish_counts
  kTicket = 2,        // the split kernel's blocks done; back to zero by its last block
  kStateWords = 3
};
inline constexpr std::uint32_t kNoSplitters = 0xffffffffu;  // no sort has that many keys

// A tile's run of keys for one digit, packed: its first place in the tile's split, its length.
inline constexpr int kRunShift = 16;
static_assert(kPartitionBucket < 1 << kRunShift, "a place and a length fit 16 bits each");

// The splitters a tile's keys can fall between, from shared memory.
struct SplitterWindow {
  std::uint32_t values[kPartitionDigits + 1];
  std::uint32_t first;  // the splitter index of values[0]
  __device__ std::uint32_t operator()(std::uint32_t j) const { return values[j - first]; }
};

// Loads indices [t - reach, t + reach + 1] of [1, buckets) (all partition_digit reads); ends
// with a barrier.
__device__ inline void load_window(SplitterWindow& w, const std::uint32_t* splitters,
                                   std::uint32_t t, std::uint32_t buckets) {
  const long long lo = max(1LL, static_cast<long long>(t) - kPartitionReach);
  const long long hi =
      min(static_cast<long long>(buckets) - 1, static_cast<long long>(t) + kPartitionReach + 1);
  if (threadIdx.x == 0) w.first = static_cast<std::uint32_t>(lo);
  for (long long j = lo + threadIdx.x; j <= hi; j += blockDim.x) w.values[j - lo] = splitters[j];
  __syncthreads();
}

// The sort's answer to its caller, written either way, so a graph that always runs the sort
// needs no word reset per frame.
__device__ inline void write_verdict(const PartitionSplitTarget& p, bool sorts) {
  *p.fallback = sorts ? 0 : 1;
  if (p.finish_enable != nullptr) *p.finish_enable = sorts ? 0 : 1;
  *p.ran = sorts ? 1u : 0u;
}

struct SplitShared {
  TileRank::Storage rank;
  SplitterWindow window;
  std::uint32_t keys[kPartitionBucket];  // in digit order
  std::uint32_t values[kPartitionBucket];
};

// Step 1 for input tile t, whose pairs the block holds: item i of a thread is place
// TileRank::striped_index(i) of the tile, the first len places real. Each key's bucket digit;
// then, when every key is in reach, the pairs split stably by digit to the same places of
// p.keys / p.values, each digit's run noted in p.runs and its length added to its bucket's size.
// A key out of reach sets the out-of-reach word instead and nothing else is written; returns
// whether the tile was split (block-uniform). Every thread of the block calls it; the block may
// call it again at once for another tile.
__device__ inline bool split_tile(const std::uint32_t (&key)[kTileItems],
                                  const std::uint32_t (&value)[kTileItems], std::uint32_t t,
                                  int len, std::uint32_t buckets, const PartitionSplitTarget& p,
                                  SplitShared& sh) {
  load_window(sh.window, p.splitters, t, buckets);
  // A pointer, not the window itself: partition_digit takes its accessor by value.
  const auto splitter = [w = &sh.window](std::uint32_t j) { return (*w)(j); };
  std::uint32_t digit[kTileItems], rank[kTileItems];
  bool out_of_reach = false;
#pragma unroll
  for (int i = 0; i < kTileItems; ++i) {
    const int d = TileRank::striped_index(i) < len ? partition_digit(key[i], t, buckets, splitter)
                                                   : kPadDigit;
    out_of_reach = out_of_reach || d < 0;
    digit[i] = d < 0 ? static_cast<std::uint32_t>(kPadDigit) : static_cast<std::uint32_t>(d);
  }
  if (__syncthreads_or(out_of_reach)) {
    if (threadIdx.x == 0) p.state[kOutOfReach] = 1;
    return false;
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
  const std::uint32_t begin = t * kPartitionBucket;
  for (int r = static_cast<int>(threadIdx.x); r < len; r += kTileThreads) {
    p.keys[begin + r] = sh.keys[r];
    p.values[begin + r] = sh.values[r];
  }
  if (threadIdx.x < kPartitionDigits) {
    const std::uint32_t count = sh.rank.bucket_count[threadIdx.x];
    p.runs[t * kPartitionDigitSlots + threadIdx.x] =
        sh.rank.bucket_offset[threadIdx.x] << kRunShift | count;
    const long long bucket = static_cast<long long>(t) + threadIdx.x - kPartitionReach;
    // A digit with keys names a bucket in [0, buckets); the test keeps a bad count from
    // writing elsewhere.
    if (count != 0 && bucket >= 0 && bucket < static_cast<long long>(buckets))
      atomicAdd(&p.bucket_sizes[bucket], count);
  }
  // Before the next tile's ranking overwrites sh.rank and sh.keys.
  __syncthreads();
  return true;
}

// A tile's pairs to their own places of p.keys / p.values, unsplit (split_tile's layout).
__device__ inline void write_tile_as_is(const std::uint32_t (&key)[kTileItems],
                                        const std::uint32_t (&value)[kTileItems], std::uint32_t t,
                                        int len, const PartitionSplitTarget& p) {
  const std::uint32_t begin = t * kPartitionBucket;
#pragma unroll
  for (int i = 0; i < kTileItems; ++i) {
    const int q = TileRank::striped_index(i);
    if (q < len) {
      p.keys[begin + q] = key[i];
      p.values[begin + q] = value[i];
    }
  }
}

// The rest of step 1, by the grid's last block once every tile has added its runs: decides
// whether the sort can go on (every key in reach, every bucket within a block's capacity) and, if
// so, turns the bucket sizes into starts. Either way it writes the verdict and leaves the sizes
// zero, the out-of-reach word clear and the ticket at zero for the next sort.
__device__ inline void finish_counts(std::uint32_t n, std::uint32_t buckets,
                                     const PartitionSplitTarget& p) {
  __shared__ std::uint32_t scratch[2][kTileThreads / 32];
  // Other blocks' writes: read from L2.
  const bool in_reach = __ldcg(p.state + kOutOfReach) == 0;
  // Each thread a contiguous run of buckets.
  const std::uint32_t per_thread = (buckets + kTileThreads - 1) / kTileThreads;
  const std::uint32_t b0 = min(buckets, threadIdx.x * per_thread);
  const std::uint32_t b1 = min(buckets, b0 + per_thread);
  std::uint32_t run = 0;
  bool over = false;
  for (std::uint32_t b = b0; b < b1; ++b) {
    const std::uint32_t size = __ldcg(p.bucket_sizes + b);
    over = over || size > static_cast<std::uint32_t>(kPartitionBucketCapacity);
    run += size;
  }
  const bool sorts = __syncthreads_and(in_reach && !over);
  std::uint32_t running = detail::block_exclusive_sum(run, scratch);
  for (std::uint32_t b = b0; b < b1; ++b) {
    if (sorts) {
      p.starts[b] = running;
      running += __ldcg(p.bucket_sizes + b);
    }
    p.bucket_sizes[b] = 0;
  }
  if (threadIdx.x == 0) {
    if (sorts) p.starts[buckets] = n;
    write_verdict(p, sorts);
    p.state[kOutOfReach] = 0;
    p.state[kTicket] = 0;
  }
}

}  // namespace particles::cuda::partition
