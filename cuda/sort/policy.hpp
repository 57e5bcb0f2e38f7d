#pragma once
// Every tuning constant of the sort library, defined once. Each note says what chose the value;
// The measurements behind them are in docs/notes/radix.md and docs/notes/oddeven.md ("Figures
// from the code comments"); today's tables are in docs/performance.md.
#include <cstddef>

namespace particles::cuda {

// Digits of 8 bits: 256 buckets fit one warp-histogram row per warp in shared memory and a
// 32-bit key takes 4 passes (the seed's choice, and CUB's for 32-bit keys on Hopper).
inline constexpr int kRadixBits = 8;
inline constexpr int kRadixBuckets = 1 << kRadixBits;

// One LSD pass = one kernel: tile ranking + decoupled look-back + scatter. Threads must be >= 256
// (one thread per bucket in the look-back). min_blocks_per_sm goes to __launch_bounds__: it caps
// registers so that many blocks share an SM (65536 / (threads * min_blocks) registers a thread).
struct RadixPolicy {
  int threads;
  int items_per_thread;
  int min_blocks_per_sm;
  int multisplit;  // detail::Multisplit: 0 ballot, 1 atomic_or (block_radix.cuh)
  constexpr int tile() const { return threads * items_per_thread; }
};
// The candidates; every one is compiled, tested (forced) and timed by bench/sort_bench's tuning
// table, and kRadixPolicyRules picks among them by size. atomic_or multisplit beat ballot at
// every size measured; match_any was the slowest everywhere, so no policy uses it. 384x20/2 (a tie
// with 512x15 at 2^24) and 640x12/2 were tried and not added (docs/notes/radix.md, "Onesweep
// policies and size rules").
inline constexpr RadixPolicy kRadixPolicies[] = {
    {256, 8, 4, 1},   // 0: tile 2048, many blocks for small sorts; fastest up to 2^18
    {384, 15, 3, 1},  // 1: tile 5760, 56 registers; fastest or within 1% from 2^19
    {256, 15, 4, 1},  // 2: tile 3840, 64 registers
    {256, 15, 4, 0},  // 3: as 2 with ballot multisplit
    {512, 15, 2, 0},  // 4: the seed's 7680-key tile with ballot multisplit, for reference
    {512, 15, 2, 1},  // 5: as 4, atomic_or multisplit
    {256, 23, 3, 1},  // 6: tile 5888, 85 registers, atomic_or multisplit
};
struct RadixSizeRule {
  std::size_t from;  // smallest n the rule applies to
  int policy;        // index into kRadixPolicies
};
// Ascending by `from`; the last rule whose `from` <= n wins.
// Each rule takes the policy that was fastest on 32-bit random keys in its size range: 256x8 up to
// 2^18, 384x15 at 2^19-2^20, 256x23 at 2^21, 512x15 atomic_or from 2^22 (sort_bench tuning
// lines: docs/performance.md, "Radix policies"; the choosing run in docs/notes/radix.md).
inline constexpr RadixSizeRule kRadixPolicyRules[] = {
    {0, 0},
    {std::size_t{1} << 19, 1},
    {std::size_t{1} << 21, 6},
    {std::size_t{1} << 22, 5},
};

// MSD-first shortcut of the radix sort (radix_engine.hpp): the pass of the highest digit on which
// keys differ runs alone and partitions the keys into its 256 buckets; when every bucket fits one
// block, each bucket is then sorted by the lower bits in shared memory, replacing the other passes
// (2 sweeps over memory instead of 4 for 32-bit keys). Whether every bucket fits is decided on the
// device from the up-front histogram, so crowded keys (float depths: a few top-digit values) take
// the plain LSD passes instead, exactly as without the shortcut.
struct RadixBucketPolicy {
  int threads;
  int items_per_thread;
  int min_blocks_per_sm;
  constexpr int capacity() const { return threads * items_per_thread; }
};
// 512 x 12 runs 2 blocks per SM, 1024 x 20 one (64 registers a thread either way). With the
// spread bucket sort (radix_bucket_sort.cuh) 512x12 is the faster at 2^20; a 512 x 40 block (1 per
// SM, 128 registers) was slower at every size and dropped, as was 512x24 (docs/notes/radix.md,
// "Onesweep policies and size rules").
inline constexpr RadixBucketPolicy kRadixBucketPolicies[] = {
    {512, 12, 2},   // 0: 6144 pairs: 2^20 keys make buckets of ~4096
    {1024, 20, 1},  // 1: 20480 pairs: 2^21 and 2^22 keys, buckets of ~8192 and ~16384
};
// Planned only when the average bucket (n / 256) leaves this much headroom in the block, so a
// uniform input almost surely fits (the 2^20 random case: mean 4096, largest about 4300), and
// only from this size, the smallest measured, where the shortcut already beat the LSD passes;
// smaller sorts were not timed (docs/notes/radix.md, "Onesweep policies and size rules").
inline constexpr double kRadixBucketHeadroom = 1.25;
inline constexpr std::size_t kRadixBucketMinPairs = std::size_t{1} << 16;
// Bucket sort (radix_bucket_sort.cuh): a bucket whose fullest sub-bucket holds more keys than
// this takes the LSD path instead of ranking inside sub-buckets (a key's ranking costs its
// sub-bucket's size). Spread keys fill one to three a sub-bucket; as kOddEvenBucketLimit below.
inline constexpr int kRadixSpreadBucketLimit = 16;

// Window finish of the radix Sorter (radix_pass_route.hpp): 32-bit sorts of at least this many
// pairs stop after the two top digits when the histograms say the groups sharing the top 16 bits
// are short, and the odd-even window sort finishes them. It beats the 4 passes at 2^23 and 2^24
// but loses to the MSD-first shortcut at 2^22, so not below 2^23 (docs/notes/radix.md, "Window
// finish"). Skew: no top-digit bucket above this
// multiple of the mean; the mean group at most kRadixWindowMaxMeanGroup pairs (the window
// reaches 512 pairs past each tile edge, and a group can straddle a tile edge).
inline constexpr std::size_t kRadixWindowMinPairs = std::size_t{1} << 23;
inline constexpr double kRadixWindowSkew = 1.5;
inline constexpr std::size_t kRadixWindowMaxMeanGroup = 256;

// Blocks per SM of the up-front histogram kernel (grid-stride): enough to hide load latency.
inline constexpr int kHistogramThreads = 512;
inline constexpr int kHistogramBlocksPerSm = 2;

// Block-local sort in shared memory (odd-even tiles, quicksort's small segments): 512 x 8.
inline constexpr int kBlockSortThreads = 512;
inline constexpr int kBlockSortItems = 8;
inline constexpr int kBlockSortTile = kBlockSortThreads * kBlockSortItems;

// Odd-even merge-split (tiles of kBlockSortTile). After the tile sort, a tile is merged with the
// window of this many keys at each neighbour's edge (whole neighbours when the window cannot hold
// the exchange): with displacement <= 256 every key that crosses a tile boundary lies in it
// (at most 2 x 256 keys of a neighbour can cross).
inline constexpr int kOddEvenWindow = 512;
// Tile sort: a tile whose fullest key bucket (of kBlockSortTile buckets over its key range) holds
// more keys than this is radix-sorted instead, since ranking inside a bucket costs its size per
// key. Evenly spread keys fill about one or two per bucket; a few repeated keys fill hundreds.
inline constexpr int kOddEvenBucketLimit = 16;
// Window path (odd_even_window.cuh): tiles of this many pairs, each sorted with a halo chunk of
// kOddEvenWindow pairs on each side by a block of kOddEvenWindowThreads, and the blocks per SM of
// that sort kernel (passed to __launch_bounds__; 2 x 1024 threads at 32 registers, no spills).
// 4096 x 1024 threads, 2 per SM, in two kernels was the fastest at 2^20 and 2^22 on nearly sorted
// keys; one launch, 512 threads and 2048-pair tiles were slower there (2048-pair tiles only won
// below 2^19): docs/notes/oddeven.md, "Figures from the code comments".
inline constexpr int kOddEvenWindowTile = 4096;
inline constexpr int kOddEvenWindowThreads = 1024;
inline constexpr int kOddEvenWindowBlocksPerSm = 2;

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
