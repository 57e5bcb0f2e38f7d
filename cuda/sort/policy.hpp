#pragma once
// Every tuning constant of the sort library, defined once. Each note says what chose the value;
// "H200" notes refer to bench/sort_bench runs recorded in docs/performance.md.
#include <cstddef>

namespace particles::cuda {

// Digits of 8 bits: 256 buckets fit one warp-histogram row per warp in shared memory and a
// 32-bit key takes 4 passes (the seed's choice, and CUB's for 32-bit keys on Hopper).
inline constexpr int kRadixBits = 8;
inline constexpr int kRadixBuckets = 1 << kRadixBits;

// One LSD pass = one kernel: tile ranking + decoupled look-back + scatter. Threads must be >= 256
// (one thread per bucket in the look-back).
struct RadixPolicy {
  int threads;
  int items_per_thread;
  constexpr int tile() const { return threads * items_per_thread; }
};
// Large problems: the seed's 7680-key tile (512 x 15) keeps the look-back chain short.
inline constexpr RadixPolicy kRadixLarge{512, 15};
// Medium and small problems are latency-bound (1M keys make only 137 tiles of 7680 on 132 SMs):
// smaller tiles give every SM several blocks to overlap.
inline constexpr RadixPolicy kRadixMedium{512, 8};
inline constexpr RadixPolicy kRadixSmall{256, 8};
// Sizes at or above which the larger policy is used. H200, 2026-11-29, sort_bench tuning lines
// (32-bit random, ballot ranking; docs/performance.md): 256x8 fastest up to 2^18 (34 vs 39 vs
// 50 us at 2^16), 512x8 fastest 2^19..2^21 (83 vs 98 vs 95 us at 2^20); from 2^22 the three are
// within 3% of each other (243 / 250 / 259 us at 2^22 for large / medium / small).
inline constexpr std::size_t kRadixLargeFrom = std::size_t{1} << 22;
inline constexpr std::size_t kRadixMediumFrom = std::size_t{1} << 19;
// Blocks per SM of the up-front histogram kernel (grid-stride): enough to hide load latency.
inline constexpr int kHistogramThreads = 512;
inline constexpr int kHistogramBlocksPerSm = 2;

// Block-local sort in shared memory (odd-even tiles, quicksort's small segments): 512 x 8.
inline constexpr int kBlockSortThreads = 512;
inline constexpr int kBlockSortItems = 8;
inline constexpr int kBlockSortTile = kBlockSortThreads * kBlockSortItems;

// Odd-even merge-split: a merge first tries a window of this many keys on each side of the
// boundary; with displacement <= 256 after the tile sort every exchange fits in it.
inline constexpr int kOddEvenWindow = 512;
// Phases (half rounds) before giving up and finishing with the radix sort. Nearly sorted input
// (displacement < tile) converges in about 3; a random input never would, and each phase
// costs up to one pass over the data, so the cap stays small.
inline constexpr int kOddEvenPhaseCap = 8;

// Quicksort: chunk of one partition block (512 x 8 keys, the block-sort tile, so the finish shares
// its layout). A level splits each segment around kQuicksortPivots sampled
// pivots into 2 * pivots + 1 buckets (< p0, == p0, (p0, p1), == p1, ...): 255 buckets plus one
// padding bucket fill the 256 digits of the block ranking, and one level divides a segment by
// about 128, so 2^20 and 2^24 keys need 2 levels. Levels beyond the ones n needs plus this slack
// hand over to the radix sort (exactness on adversarial pivots); an unused level costs only 4
// empty launches.
inline constexpr int kQuicksortThreads = 512;
inline constexpr int kQuicksortItems = 8;
inline constexpr int kQuicksortChunk = kQuicksortThreads * kQuicksortItems;
inline constexpr int kQuicksortPivots = 127;
inline constexpr int kQuicksortLevelSlack = 1;

}  // namespace particles::cuda
