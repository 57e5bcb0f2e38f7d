#pragma once
// The quicksort's shared vocabulary (warp_quicksort.cu has the whole design): its constants, the
// look-back status words, the device records of a level's work (segments, finish jobs, control)
// and the small device helpers its kernels share. Included, through quicksort_partition.cuh and
// quicksort_finish.cuh, by warp_quicksort.cu alone (internal linkage).
#include <cuda/atomic>

#include <cstdint>

#include "cuda/common/warp.cuh"
#include "cuda/sort/block/block_radix.cuh"
#include "cuda/sort/policy.hpp"

namespace particles::cuda::detail {
namespace {

constexpr int kThreads = kQuicksortThreads;
constexpr int kItems = kQuicksortItems;
constexpr std::uint32_t kChunk = kQuicksortChunk;
constexpr std::uint32_t kTile = kBlockSortTile;  // finish job limit, and what makes a part big
constexpr int kPivots = kQuicksortPivots;
constexpr int kPivotStride = kPivots + 1;  // words per segment in the pivot table
constexpr std::uint32_t kBuckets = 2 * kPivots + 1;
constexpr std::uint32_t kPadBucket = kBuckets;  // pads a partial chunk; ranks after every bucket
constexpr int kBucketBits = 8;
// Pairs that only need copying (equal keys, or left for the radix fallback) go in pieces this
// long: few jobs to write, and still a few per SM at 2^24.
constexpr std::uint32_t kCopyPiece = 8 * kTile;
// Pivots come from a smaller block than the partition's: level 0 waits on one block sorting them,
// and 16 samples per pivot still leave every 2^24-key level-1 bucket below one tile (host model).
constexpr int kSampleThreads = 256;
constexpr int kSamples = kSampleThreads * kItems;
constexpr int kMaxLevels = 8;
static_assert(kQuicksortThreads == kBlockSortThreads && kQuicksortItems == kBlockSortItems,
              "partition chunks and finish jobs share the warp-striped tile layout");
static_assert(kBuckets + 1 == kRadixBuckets && kRadixBuckets == 1 << kBucketBits,
              "buckets and the padding bucket are the 256 digits of the block ranking");
static_assert((kPivotStride & (kPivotStride - 1)) == 0, "branch-free binary search");
static_assert(kSamples % kPivotStride == 0, "pivots are evenly spaced sample quantiles");

// Look-back status word of one (chunk, bucket): 2 flag bits over a 30-bit count, one 32-bit word
// so a reader never sees a count without its flag. Every word is zero between levels: the
// constructor clears them, the scatter clears each one after its last use.
constexpr std::uint32_t kFlagAggregate = 1u << 30;  // count of this chunk alone
constexpr std::uint32_t kFlagInclusive = 2u << 30;  // count of this chunk and those before it
constexpr std::uint32_t kCountMask = (1u << 30) - 1u;
using StatusRef = ::cuda::atomic_ref<std::uint32_t, ::cuda::thread_scope_device>;

using Rank = BlockRadixRank<kBlockSortThreads, kBlockSortItems>;
using SampleRank = BlockRadixRank<kSampleThreads, kItems>;

struct Segment {
  std::uint32_t start;
  std::uint32_t len;
  std::uint32_t chunk_begin;  // index of its first chunk in its level's chunk numbering
  std::uint32_t lo, hi;       // every sort key of the segment lies in [lo, hi]
};
struct Job {  // pairs [start, start + len) of buffer `side`, to the caller's arrays
  std::uint32_t start;
  std::uint32_t len;    // <= kTile, or <= kCopyPiece when width is 0
  std::uint32_t width;  // key bits that differ inside the job; 0: copy only
  std::uint32_t side;
};
struct Control {
  unsigned long long work[2];  // per ping-pong side: segments << 32 | chunks
  std::uint32_t jobs;
  std::int32_t run_fallback;
  std::uint32_t ticket[kMaxLevels];  // next chunk of the count kernel, per level
};

__host__ __device__ constexpr std::uint32_t chunks_of(std::uint32_t len) {
  return (len + kChunk - 1) / kChunk;
}
__device__ __forceinline__ std::uint32_t hi32(unsigned long long v) {
  return static_cast<std::uint32_t>(v >> 32);
}
__device__ __forceinline__ std::uint32_t lo32(unsigned long long v) {
  return static_cast<std::uint32_t>(v);
}
// Bits below the highest one in which lo and hi differ: all keys in [lo, hi] agree above them.
__device__ __forceinline__ std::uint32_t differing_bits(std::uint32_t lo, std::uint32_t hi) {
  return 32u - static_cast<std::uint32_t>(__clz(lo ^ hi));
}

// Segment owning chunk c, from the map the plan kernel wrote. A single segment (level 0) has no
// map.
__device__ __forceinline__ std::uint32_t find_segment(const std::uint32_t* chunk_segment,
                                                      std::uint32_t count, std::uint32_t c) {
  return count == 1 ? 0u : chunk_segment[c];
}

// Bucket of a sort key: i = number of pivots below it (branch-free binary search; pivots sorted),
// then the "== p_i" bucket 2i + 1 or the range bucket 2i. Duplicate pivots leave buckets empty.
__device__ __forceinline__ std::uint32_t bucket_of(std::uint32_t key, const std::uint32_t* pivots) {
  std::uint32_t i = 0;
#pragma unroll
  for (std::uint32_t step = kPivotStride / 2; step > 0; step >>= 1)
    if (pivots[i + step - 1] < key) i += step;
  return 2 * i + (i < kPivots && pivots[i] == key ? 1u : 0u);
}

// Key bounds of a bucket of segment seg (meaningful for a non-empty bucket only).
__device__ __forceinline__ uint2 bucket_bounds(std::uint32_t b, const std::uint32_t* pivots,
                                               const Segment& seg) {
  const std::uint32_t i = b / 2;
  if (b & 1u) return make_uint2(pivots[i], pivots[i]);
  return make_uint2(i == 0 ? seg.lo : pivots[i - 1] + 1, i == kPivots ? seg.hi : pivots[i] - 1);
}

// Lanes of this warp holding the same bucket as this lane: one ballot per bucket bit.
__device__ __forceinline__ unsigned same_bucket_lanes(std::uint32_t bucket) {
  unsigned peers = kFullMask;
#pragma unroll
  for (int bit = 0; bit < kBucketBits; ++bit) {
    const bool set = (bucket >> bit) & 1u;
    const unsigned vote = __ballot_sync(kFullMask, set);
    peers &= set ? vote : ~vote;
  }
  return peers;
}

// Deterministic scatter of sample positions inside their strata (integer hash).
__device__ __forceinline__ std::uint32_t mix(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  return x ^ (x >> 16);
}

}  // namespace
}  // namespace particles::cuda::detail
