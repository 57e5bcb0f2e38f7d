#pragma once
// The odd-even sort's window path: kernels of one block per tile that sort nearly sorted input
// in place (the proof is in odd_even_window.hpp):
//   1. window_check_kernel reads the keys of its tile's chunks and the next three, checks (*) for
//      its chunks (one failure anywhere sets the verdict word), and copies its tile's head and
//      tail chunks (keys and values) into the edge buffer: the halos of its neighbours, which
//      the second kernel overwrites in place. Its last block hands the verdict on as the fallback
//      word (which enables the exact kernel) and resets the words for the next sort;
//   2. window_sort_kernel (a programmatic dependent launch: it loads its own tile while the check
//      kernel finishes), unless the fallback word is set, sorts its tile plus halos (5120 pairs)
//      in shared memory by buckets over their key range and writes the tile's own range only.
// The exact kernel depends on the check kernel only, so it runs beside the sort kernel (on a
// branch of the caller's stream) and its launch, empty unless the check failed, is off the path.
// (One launch doing both, blocks checking tiles from a counter before sorting, measured slower
// and was not kept: docs/notes/oddeven.md.)
// Included by odd_even_sort.cu only.
#include <cstddef>
#include <cstdint>

#include <cuda/atomic>

#include "cuda/common/dependent_launch.cuh"
#include "cuda/common/dynamic_shared.cuh"
#include "cuda/common/enable_word.cuh"
#include "cuda/common/prefetch.cuh"
#include "cuda/common/warp.cuh"
#include "cuda/sort/block/block_buckets.cuh"
#include "cuda/sort/block/block_radix.cuh"
#include "cuda/sort/block/merge.hpp"
#include "cuda/sort/oddeven/odd_even_window.hpp"
#include "cuda/sort/policy.hpp"
#include "cuda/sort/sorter.hpp"

namespace particles::cuda::detail {

namespace window {

constexpr int kTile = kOddEvenWindowTile;
constexpr int kChunk = kOddEvenWindow;
constexpr int kChunksPerTile = kTile / kChunk;
constexpr int kSpan = kTile + 2 * kChunk;  // a tile and its two halos
constexpr int kThreads = kOddEvenWindowThreads;
constexpr int kItems = kSpan / kThreads;
constexpr int kWarps = kThreads / kWarpSize;
constexpr int kBucketBits = 12;
constexpr int kBuckets = 1 << kBucketBits;
constexpr int kBucketsPerThread = kBuckets / kThreads;
static_assert(kBuckets >= kSpan * 3 / 4, "about one key a bucket on evenly spread keys");
static_assert(kTile % kChunk == 0 && kSpan % kThreads == 0, "whole chunks, whole item rows");
static_assert(kBucketsPerThread % 4 == 0, "uint4 bucket scans");
constexpr int kPositionBits = 13;
static_assert(kSpan <= (1 << kPositionBits), "E positions fit kPositionBits");

// 256 threads: one wave of check blocks at 2^22 (8 per SM). 512 (a warp per chunk) was faster
// at 2^20-2^21 but slower at 2^22 (docs/notes/oddeven.md).
constexpr int kCheckThreads = 256;
constexpr int kCheckWarps = kCheckThreads / kWarpSize;
constexpr int kCheckChunks = kChunksPerTile + 3;  // (*) reaches three chunks ahead

using Rank = BlockRadixRank<kThreads, kItems>;

struct BucketShared {
  std::uint32_t keys[kSpan];  // in bucket order
  std::uint32_t values[kSpan];
  std::uint32_t offset[kBuckets + 1];  // counts, then exclusive offsets, of the buckets
  // (key bits below the bucket's) << kPositionBits | index in E: inside one bucket it orders as
  // (sort key, index in E) does, so one comparison ranks stably.
  std::uint32_t order[kSpan];
};
struct RadixShared {
  Rank::Storage rank;
  std::uint32_t keys[kSpan];
  std::uint32_t values[kSpan];
};
struct Shared {
  union {
    BucketShared bucket;
    RadixShared radix;
  };
  std::uint32_t scratch[2][kWarps];
};
constexpr std::size_t kSharedBytes = sizeof(Shared);

struct Args {
  std::uint32_t* keys;
  std::uint32_t* values;
  std::uint32_t* edge_keys;  // [tiles][2][kChunk]: each tile's head chunk, then its tail chunk
  std::uint32_t* edge_values;
  std::uint32_t n;
  KeyBits bits;
  std::uint32_t* verdict;   // set when some chunk fails (*); zero between sorts
  std::uint32_t* done;      // check blocks finished; zero between sorts
  std::uint32_t* fallback;  // the verdict of the last check: disables the sort kernel and
                            // enables the exact kernel; left until the next check
  OddEvenStatus* status;
  const std::int32_t* enable;  // the caller's: when set and *enable == 0, nothing runs
};

// Every block returns at once, leaving the words above as they are (zero between sorts).
__device__ __forceinline__ bool caller_disabled(const Args& a) {
  return disabled(a.enable);
}

__device__ __forceinline__ std::uint32_t edge_index(std::uint32_t tile, int tail, int i) {
  return (2 * tile + static_cast<std::uint32_t>(tail)) * kChunk + static_cast<std::uint32_t>(i);
}

// The warp's minimum and maximum of the lanes' lo and hi.
__device__ __forceinline__ KeySpan warp_span(std::uint32_t lo, std::uint32_t hi) {
  return KeySpan{__reduce_min_sync(kFullMask, lo), __reduce_max_sync(kFullMask, hi)};
}

// Minimum and maximum of the sort keys of 4 keys, folded into lo and hi.
__device__ __forceinline__ void fold_span(const Args& a, uint4 k, std::uint32_t& lo,
                                          std::uint32_t& hi) {
  lo = min(min(lo, min(a.bits(k.x), a.bits(k.y))), min(a.bits(k.z), a.bits(k.w)));
  hi = max(max(hi, max(a.bits(k.x), a.bits(k.y))), max(a.bits(k.z), a.bits(k.w)));
}

// The check of tile c (condition (*) for its chunks; a failure sets the verdict) and the copy of
// its edge chunks, by a block of Threads threads. Tiles whose checked chunks are all full read
// and copy in 16-byte words when the arrays allow (the kernel is bound by load latency: fewer,
// wider loads in flight per thread); the last tiles and unaligned arrays go word by word.
template <int Threads>
__device__ __forceinline__ void check_tile(const Args& a, std::uint32_t c, std::uint32_t tiles,
                                           KeySpan (&spans)[kCheckChunks]) {
  constexpr int kWarpsHere = Threads / kWarpSize;
  const int chunks = static_cast<int>((a.n + kChunk - 1) / kChunk);
  const int first = static_cast<int>(c) * kChunksPerTile;
  const WindowExtent x = window_extent(c, a.n, kTile, kChunk);
  const bool aligned =
      (reinterpret_cast<std::uintptr_t>(a.keys) | reinterpret_cast<std::uintptr_t>(a.values)) %
          16 ==
      0;
  if (aligned && static_cast<std::size_t>(first + kCheckChunks) * kChunk <= a.n) {
    constexpr int kQuads = kChunk / 4;  // 16-byte words of a chunk
    constexpr int kEdgeRounds = (2 * kQuads + Threads - 1) / Threads;
    const auto* keys4 = reinterpret_cast<const uint4*>(a.keys);
    const auto* values4 = reinterpret_cast<const uint4*>(a.values);
    auto* edge_keys4 = reinterpret_cast<uint4*>(a.edge_keys);
    auto* edge_values4 = reinterpret_cast<uint4*>(a.edge_values);
    // Edge loads first, into registers: their latency overlaps the chunk reads.
    uint4 ek[kEdgeRounds], ev[kEdgeRounds];
    bool copy[kEdgeRounds];
#pragma unroll
    for (int r = 0; r < kEdgeRounds; ++r) {
      const int q = static_cast<int>(threadIdx.x) + r * Threads;
      const int tail = q / kQuads;  // head chunk (tile c-1's right halo), then tail chunk
      copy[r] = q < 2 * kQuads && (tail == 0 ? c > 0 : c + 1 < tiles);
      if (copy[r]) {
        const std::uint32_t from =
            (x.start + static_cast<std::uint32_t>(tail * (kTile - kChunk))) / 4 +
            static_cast<std::uint32_t>(q % kQuads);
        ek[r] = keys4[from];
        ev[r] = values4[from];
      }
    }
    for (int s = static_cast<int>(warp_id()); s < kCheckChunks; s += kWarpsHere) {
      const std::uint32_t begin = static_cast<std::uint32_t>(first + s) * kQuads;
      std::uint32_t lo = 0xffffffffu, hi = 0;
#pragma unroll
      for (int i = 0; i < kQuads / kWarpSize; ++i)
        fold_span(a, keys4[begin + static_cast<std::uint32_t>(i * kWarpSize) + lane_id()], lo, hi);
      const KeySpan span = warp_span(lo, hi);
      if (lane_id() == 0) spans[s] = span;
    }
#pragma unroll
    for (int r = 0; r < kEdgeRounds; ++r) {
      if (copy[r]) {
        const int q = static_cast<int>(threadIdx.x) + r * Threads;
        const std::uint32_t to =
            edge_index(c, q / kQuads, 0) / 4 + static_cast<std::uint32_t>(q % kQuads);
        edge_keys4[to] = ek[r];
        edge_values4[to] = ev[r];
      }
    }
  } else {
    for (int s = static_cast<int>(warp_id()); s < kCheckChunks && first + s < chunks;
         s += kWarpsHere) {
      const std::uint32_t begin = static_cast<std::uint32_t>(first + s) * kChunk;
      const std::uint32_t end = min(begin + kChunk, a.n);
      std::uint32_t lo = 0xffffffffu, hi = 0;
#pragma unroll
      for (int i = 0; i < kChunk / kWarpSize; ++i) {
        const std::uint32_t g = begin + static_cast<std::uint32_t>(i * kWarpSize) + lane_id();
        if (g < end) {
          const std::uint32_t key = a.bits(a.keys[g]);
          lo = min(lo, key);
          hi = max(hi, key);
        }
      }
      const KeySpan span = warp_span(lo, hi);
      if (lane_id() == 0) spans[s] = span;
    }
    if (c > 0) {  // the head chunk is tile c-1's right halo
      for (int i = static_cast<int>(threadIdx.x); i < min(kChunk, x.len); i += Threads) {
        a.edge_keys[edge_index(c, 0, i)] = a.keys[x.start + static_cast<std::uint32_t>(i)];
        a.edge_values[edge_index(c, 0, i)] = a.values[x.start + static_cast<std::uint32_t>(i)];
      }
    }
    if (c + 1 < tiles) {  // the tail chunk (of a full tile) is tile c+1's left halo
      const std::uint32_t tail = x.start + kTile - kChunk;
      for (int i = static_cast<int>(threadIdx.x); i < kChunk; i += Threads) {
        a.edge_keys[edge_index(c, 1, i)] = a.keys[tail + static_cast<std::uint32_t>(i)];
        a.edge_values[edge_index(c, 1, i)] = a.values[tail + static_cast<std::uint32_t>(i)];
      }
    }
  }
  __syncthreads();
  const int k = first + static_cast<int>(threadIdx.x);
  if (threadIdx.x < kChunksPerTile && k < chunks &&
      !window_chunk_holds([&](int i) { return spans[i - first]; }, k, chunks)) {
    atomicExch(a.verdict, 1u);
    __threadfence();  // the failure is visible before this block reports done
  }
}

// Ends a check block: the last block to finish (every failure is in) hands the verdict on to the
// sort kernel and the exact kernel and clears the words for the next sort.
__device__ __forceinline__ void hand_on_verdict(const Args& a) {
  __syncthreads();
  if (threadIdx.x == 0 && atomicAdd(a.done, 1u) == gridDim.x - 1) {
    const std::uint32_t failed = atomicExch(a.verdict, 0u);
    *a.done = 0;
    *a.fallback = failed;
    // Written before the sort kernel has run, but read only once the whole sort is done.
    if (failed == 0u) *a.status = OddEvenStatus{1, 2, 0, 0};
  }
}

__global__ void __launch_bounds__(kCheckThreads) window_check_kernel(Args a) {
  __shared__ KeySpan spans[kCheckChunks];
  if (caller_disabled(a)) return;
  cudaTriggerProgrammaticLaunchCompletion();  // the sort kernel may start loading its tiles
  check_tile<kCheckThreads>(a, blockIdx.x, gridDim.x, spans);
  hand_on_verdict(a);
}

// Element e of tile c's extended range, from the edge buffer (halos) or the tile itself.
__device__ __forceinline__ std::uint32_t window_load(const std::uint32_t* own,
                                                     const std::uint32_t* edge, std::uint32_t c,
                                                     const WindowExtent& x, int e) {
  if (e < x.left) return edge[edge_index(c - 1, 1, e)];
  if (e < x.left + x.len) return own[x.start + static_cast<std::uint32_t>(e - x.left)];
  return edge[edge_index(c + 1, 0, e - x.left - x.len)];
}

// Crowded buckets (many equal keys): ranking inside a bucket costs its size per key, so the
// extended range is radix-sorted by the bits that vary instead. Out of line: its registers do
// not burden the bucket path.
__device__ __noinline__ void radix_sort_window(Args a, std::uint32_t c, WindowExtent x,
                                               std::uint32_t differ) {
  Shared& sh = dynamic_shared<Shared>();
  std::uint32_t keys[kItems], values[kItems];
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int q = Rank::striped_index(i);
    keys[i] = q < x.size() ? window_load(a.keys, a.edge_keys, c, x, q) : 0xffffffffu;
    values[i] = q < x.size() ? window_load(a.values, a.edge_values, c, x, q) : 0u;
  }
  const KeyBits span_bits{a.bits.begin_bit, a.bits.begin_bit + bit_width(differ)};
  // Its first barrier follows every load: no thread writes the tile before all have read it.
  block_sort_pairs<kThreads, kItems>(keys, values, span_bits, sh.radix.rank, sh.radix.keys,
                                     sh.radix.values);
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int q = Rank::striped_index(i);
    if (q >= x.left && q < x.left + x.len) {
      a.keys[x.start + static_cast<std::uint32_t>(q - x.left)] = keys[i];
      a.values[x.start + static_cast<std::uint32_t>(q - x.left)] = values[i];
    }
  }
}

// Sorts tile c's extended range and writes its ranks [left, left + len) over the tile.
template <typename Wait>
__device__ __forceinline__ void sort_window(const Args& a, std::uint32_t c, Wait wait_for_check) {
  Shared& sh = dynamic_shared<Shared>();
  const WindowExtent x = window_extent(c, a.n, kTile, kChunk);
  const int size = x.size();
  std::uint32_t keys[kItems];
  // The tile's own keys first: the check writes none of them, so they are read before waiting
  // for it, and their values are fetched towards L2 for the scatter.
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int e = i * kThreads + static_cast<int>(threadIdx.x);
    if (e >= x.left && e < x.left + x.len) {
      const std::uint32_t g = x.start + static_cast<std::uint32_t>(e - x.left);
      keys[i] = a.keys[g];
      detail::prefetch_l2(a.values + g);
    }
  }
  wait_for_check();  // the verdict and the halos are the check's
  if (*a.fallback != 0u) return;
  std::uint32_t lo = 0xffffffffu, hi = 0;
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int e = i * kThreads + static_cast<int>(threadIdx.x);
    if (e < size) {
      if (e < x.left || e >= x.left + x.len) keys[i] = window_load(a.keys, a.edge_keys, c, x, e);
      lo = min(lo, a.bits(keys[i]));
      hi = max(hi, a.bits(keys[i]));
    }
  }
  for (int b = static_cast<int>(threadIdx.x); b < kBuckets; b += kThreads) sh.bucket.offset[b] = 0;
  block_min_max(lo, hi, sh.scratch);  // its barriers also order the zeroing before the counting
  if (lo == hi) return;  // all keys equal: stable order is input order, the tile stays as it is

  const TileBuckets bucket(lo, hi, kBucketBits);
  // Places in the buckets (< 2^13), two to a register: the kernel runs at 32 registers a thread
  // (two blocks of 1024 per SM). The bucket itself is recomputed from the key.
  std::uint32_t place[(kItems + 1) / 2] = {};
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int e = i * kThreads + static_cast<int>(threadIdx.x);
    if (e < size)
      place[i / 2] |= atomicAdd(&sh.bucket.offset[bucket(a.bits(keys[i]))], 1u) << (16 * (i % 2));
  }
  __syncthreads();

  // Counts -> exclusive offsets. Thread t owns buckets [t * kBucketsPerThread, ...).
  const bool crowded = bucket_counts_to_offsets<kBucketsPerThread, kOddEvenBucketLimit>(
      &sh.bucket.offset[threadIdx.x * kBucketsPerThread], sh.scratch);
  if (threadIdx.x == 0) sh.bucket.offset[kBuckets] = static_cast<std::uint32_t>(size);

  // Crowded buckets, or key ranges too wide for the order words (more than 2^31 apart): radix.
  if (__syncthreads_or(crowded) || bucket.shift > 32 - kPositionBits) {
    radix_sort_window(a, c, x, lo ^ hi);
    return;
  }
  const std::uint32_t below = (1u << bucket.shift) - 1u;  // key bits below the bucket's

  // Values are read here, before the barrier that precedes the first write over the tile.
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int e = i * kThreads + static_cast<int>(threadIdx.x);
    if (e < size) {
      const std::uint32_t to =
          sh.bucket.offset[bucket(a.bits(keys[i]))] + ((place[i / 2] >> (16 * (i % 2))) & 0xffffu);
      sh.bucket.keys[to] = keys[i];
      sh.bucket.values[to] = window_load(a.values, a.edge_values, c, x, e);
      sh.bucket.order[to] =
          ((a.bits(keys[i]) - lo) & below) << kPositionBits | static_cast<std::uint32_t>(e);
    }
  }
  __syncthreads();
  // A key's rank in E is its bucket's offset plus the bucket's keys before it by (sort key, E
  // index), i.e. by order word; only the ranks of the tile's own range are written.
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int p = i * kThreads + static_cast<int>(threadIdx.x);
    if (p < size) {
      const std::uint32_t key = sh.bucket.keys[p];
      const std::uint32_t order = sh.bucket.order[p];
      const std::uint32_t b = bucket(a.bits(key));
      const int first = static_cast<int>(sh.bucket.offset[b]);
      const int end = static_cast<int>(sh.bucket.offset[b + 1]);
      int f = first;
      for (int m = first; m < end; ++m) f += sh.bucket.order[m] < order;
      if (f >= x.left && f < x.left + x.len) {
        const std::uint32_t to = x.start + static_cast<std::uint32_t>(f - x.left);
        a.keys[to] = key;
        a.values[to] = sh.bucket.values[p];
      }
    }
  }
}

// After window_check_kernel, launched as its programmatic dependent.
__global__ void __launch_bounds__(kThreads, kOddEvenWindowBlocksPerSm) window_sort_kernel(Args a) {
  if (caller_disabled(a)) return;  // written before the check kernel started: visible here
  sort_window(a, blockIdx.x, [] { wait_for_previous_grid(); });
}

}  // namespace window
}  // namespace particles::cuda::detail
