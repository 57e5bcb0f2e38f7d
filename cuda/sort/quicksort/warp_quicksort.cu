// GPU quicksort on the warp-ballot partition, many pivots per level, host-driven by levels with a
// device-side work list.
//
// A level partitions every "big" segment (> kBlockSortTile pairs) around P = kQuicksortPivots
// pivots, quantiles of 2048 sorted samples, into 2P + 1 buckets: < p0 | == p0 | (p0, p1) | == p1
// | ... | > p(P-1). This is the three-way split of a quicksort with P pivots at once: a bucket of
// equal keys is finished at once, so duplicates cannot degrade it, and one level divides a
// segment by about P + 1, so 2^20 and 2^24 keys need 2 levels instead of ~log2(n / tile).
// Each key's bucket is a binary search over the pivots; its slot inside a chunk comes from warp
// ballots (one per bucket bit: the lanes with the same bucket find each other, popc(lanemask_lt)
// orders them), so the partition is stable: every chunk and warp writes at offsets fixed by index
// order. Per level, three kernels read the work list on the device (no host sync):
//   pivot   - per segment: sorts 2048 stratified samples in shared memory, keeps P quantiles;
//   count   - per chunk of kQuicksortChunk pairs, in ticket order: bucket counts, then per-bucket
//             chunk prefixes within the segment by decoupled look-back (no single-block scan).
//             The block that counted a segment's last chunk then holds its bucket totals and
//             plans it: bucket offsets; big buckets become the next level's segments, small
//             ones are packed, in order, into finish jobs of at most one tile;
//   scatter - ranks each chunk by bucket, writes both arrays once to the other ping-pong buffer.
// Then one kernel runs every finish job: it reads the job's pairs from the buffer the level wrote,
// sorts them in shared memory (a block radix sort over only the key bits that differ inside the
// job: adjacent small buckets are already in key order, so sorting their concatenation is exact)
// and writes them to the caller's arrays, which nothing else writes. Level 0 therefore reads the
// caller's arrays directly, no copy. A big bucket left after the last level is copied unsorted
// and sets a device flag on which the radix sort finishes the whole array (exact on any input,
// and stable since every step preserved the input order of equal keys).
#include <cuda/atomic>

#include <algorithm>
#include <stdexcept>

#include "cuda/common/check.hpp"
#include "cuda/common/device_buffer.hpp"
#include "cuda/common/dynamic_shared.cuh"
#include "cuda/common/warp.cuh"
#include "cuda/sort/block/block_radix.cuh"
#include "cuda/sort/radix/radix_engine.hpp"
#include "cuda/sort/sorters_internal.hpp"

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

struct SortShared {  // block sort of one tile (the finish)
  Rank::Storage rank;
  std::uint32_t keys[kBlockSortTile];
  std::uint32_t values[kBlockSortTile];
};
struct SampleShared {
  SampleRank::Storage rank;
  std::uint32_t keys[kSamples];
  std::uint32_t values[kSamples];
};

__global__ void init_kernel(Control* ctrl, Segment* first, std::uint32_t n, std::uint32_t mask) {
  ctrl->work[0] = (1ull << 32) | chunks_of(n);
  ctrl->work[1] = 0;
  ctrl->jobs = 0;
  ctrl->run_fallback = 0;
  for (int l = 0; l < kMaxLevels; ++l) ctrl->ticket[l] = 0;
  *first = Segment{0, n, 0, 0, mask};
}

__global__ void __launch_bounds__(kSampleThreads)
    pivot_kernel(const std::uint32_t* keys, const Segment* segs, Control* ctrl, int side,
                 std::uint32_t* pivots, KeyBits bits) {
  __shared__ SampleShared sh;
  // The plan kernel of this level appends the next level's work here; the previous level that
  // used this side is done.
  if (blockIdx.x == 0 && threadIdx.x == 0) ctrl->work[side ^ 1] = 0;
  const std::uint32_t seg_count = hi32(ctrl->work[side]);
  for (std::uint32_t s = blockIdx.x; s < seg_count; s += gridDim.x) {
    const Segment seg = segs[s];
    // Stratified samples: one at a hashed position in each of kSamples equal strata (a segment
    // is longer than kSamples), so periodic inputs cannot fool evenly spaced ones.
    std::uint32_t k[kItems], v[kItems];
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const auto j = static_cast<std::uint32_t>(SampleRank::striped_index(i));
      const unsigned long long pos =
          (static_cast<unsigned long long>(j) * seg.len + mix(j ^ s) % seg.len) / kSamples;
      k[i] = bits(keys[seg.start + static_cast<std::uint32_t>(pos)]);
      v[i] = 0;
    }
    // Sort keys lie in [lo, hi], so only the bits below their highest difference need sorting.
    const KeyBits sample_bits{0, static_cast<int>(differing_bits(seg.lo, seg.hi))};
    block_sort_pairs<kSampleThreads, kItems>(k, v, sample_bits, sh.rank, sh.keys, sh.values);
    // Pivot m is sample rank 16m + 15: quantiles m + 1 of kPivotStride.
    constexpr std::uint32_t kStep = kSamples / kPivotStride;
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const auto j = static_cast<std::uint32_t>(SampleRank::striped_index(i));
      if (j % kStep == kStep - 1 && j / kStep < kPivots)
        pivots[s * kPivotStride + j / kStep] = k[i];
    }
    if (threadIdx.x == 0) pivots[s * kPivotStride + kPivots] = 0xffffffffu;  // table padding
  }
}

struct PlanArgs {
  Segment* next_segs;
  std::uint32_t* next_chunk_segment;
  Control* ctrl;
  int side;
  std::uint32_t* bucket_base;  // [segment][256]: first index of each bucket within its segment
  Job* jobs;
  int last_level;
};

struct PlanShared {
  std::uint32_t size[kRadixBuckets], base[kRadixBuckets];
  std::uint32_t lo[kRadixBuckets], hi[kRadixBuckets];
  bool groupable[kRadixBuckets];
  std::uint8_t group_first[kRadixBuckets], group_last[kRadixBuckets];
  std::uint32_t scan_scratch[8], scan_total[3], group_count, job_base;
  unsigned long long next_base;
};

// Plans segment s from its bucket totals (thread b holds n_b, the count of bucket b; 0 for
// b >= kBuckets): bucket offsets for the scatter, big buckets to the next level, small ones packed
// into finish jobs. Every thread of the block calls it (it holds barriers).
__device__ void plan_segment(const PlanArgs& a, std::uint32_t s, const Segment& seg,
                             std::uint32_t n_b, const std::uint32_t* pivots, PlanShared& sh) {
  const std::uint32_t b = threadIdx.x;
  const bool mine = b < kRadixBuckets;
  const std::uint32_t base_b = block_exclusive_sum_256(n_b, sh.scan_scratch, &sh.scan_total[0]);
  if (mine) a.bucket_base[static_cast<std::size_t>(s) * kRadixBuckets + b] = base_b;
  const uint2 bounds = bucket_bounds(mine ? b : 0u, pivots, seg);
  const std::uint32_t width = n_b > 0 ? differing_bits(bounds.x, bounds.y) : 0u;
  // A big bucket of distinct keys is split again, or on the last level copied for the radix
  // fallback; a big bucket of equal keys is done and only copied, in pieces.
  const bool big = n_b > kTile;
  const bool split = big && width > 0 && !a.last_level;
  if (big && width > 0 && a.last_level) a.ctrl->run_fallback = 1;
  const std::uint32_t copies = big && !split ? (n_b + kCopyPiece - 1) / kCopyPiece : 0u;
  if (mine) {
    sh.size[b] = n_b;
    sh.base[b] = base_b;
    sh.lo[b] = bounds.x;
    sh.hi[b] = bounds.y;
    sh.groupable[b] = n_b > 0 && !big;
  }
  const std::uint32_t chunks_b = split ? chunks_of(n_b) : 0u;
  // (segments << 24 | chunks): at most 255 segments and < 2^24 chunks per block.
  const std::uint32_t next_offset = block_exclusive_sum_256((split ? 1u << 24 : 0u) | chunks_b,
                                                            sh.scan_scratch, &sh.scan_total[1]);
  const std::uint32_t copy_offset =
      block_exclusive_sum_256(copies, sh.scan_scratch, &sh.scan_total[2]);
  // (size, groupable and the scan totals are visible here: the scans end with barriers.)
  if (b == 0) {
    // Small buckets packed in order, greedily, into jobs of at most one tile; a big bucket ends a
    // run (empty buckets take no room and do not).
    std::uint32_t groups = 0, run = 0;
    bool open = false;
    for (std::uint32_t q = 0; q < kBuckets; ++q) {
      if (sh.size[q] == 0) continue;
      if (!sh.groupable[q]) {
        open = false;
      } else if (open && run + sh.size[q] <= kTile) {
        run += sh.size[q];
        sh.group_last[groups - 1] = static_cast<std::uint8_t>(q);
      } else {
        sh.group_first[groups] = sh.group_last[groups] = static_cast<std::uint8_t>(q);
        ++groups;
        run = sh.size[q];
        open = true;
      }
    }
    sh.group_count = groups;
    sh.job_base = atomicAdd(&a.ctrl->jobs, groups + sh.scan_total[2]);
    const std::uint32_t t = sh.scan_total[1];
    if (t != 0)
      sh.next_base = atomicAdd(&a.ctrl->work[a.side ^ 1],
                               (static_cast<unsigned long long>(t >> 24) << 32) | (t & 0xffffffu));
  }
  __syncthreads();
  const auto job_side = static_cast<std::uint32_t>(a.side);
  if (b < sh.group_count) {
    const std::uint32_t f = sh.group_first[b], l = sh.group_last[b];
    a.jobs[sh.job_base + b] = Job{seg.start + sh.base[f], sh.base[l] + sh.size[l] - sh.base[f],
                                  differing_bits(sh.lo[f], sh.hi[l]), job_side};
  }
  for (std::uint32_t j = 0; j < copies; ++j)
    a.jobs[sh.job_base + sh.group_count + copy_offset + j] = Job{
        seg.start + base_b + j * kCopyPiece, min(kCopyPiece, n_b - j * kCopyPiece), 0u, job_side};
  if (split) {
    const std::uint32_t index = hi32(sh.next_base) + (next_offset >> 24);
    const std::uint32_t chunk = lo32(sh.next_base) + (next_offset & 0xffffffu);
    a.next_segs[index] = Segment{seg.start + base_b, n_b, chunk, bounds.x, bounds.y};
    for (std::uint32_t j = 0; j < chunks_b; ++j) a.next_chunk_segment[chunk + j] = index;
  }
}

struct CountArgs {
  const std::uint32_t* keys;
  const Segment* segs;
  const std::uint32_t* chunk_segment;
  int level;
  const std::uint32_t* pivots;
  std::uint32_t* status;
  KeyBits bits;
  PlanArgs plan;
};

// 4 blocks per SM (32 registers, no spills), as many as the SM holds: blocks waiting in the
// look-back leave others to run.
__global__ void __launch_bounds__(kThreads, 4) count_kernel(CountArgs a) {
  __shared__ std::uint32_t pivots_sh[kPivotStride];
  __shared__ std::uint32_t hist[kRadixBuckets];
  __shared__ std::uint32_t ticket;
  __shared__ PlanShared plan_sh;
  Control* ctrl = a.plan.ctrl;
  const unsigned long long work = ctrl->work[a.plan.side];
  const std::uint32_t seg_count = hi32(work), chunks = lo32(work);
  for (;;) {
    // Chunks are numbered in the order blocks take them, so every chunk this one waits for in the
    // look-back is already running: no deadlock whatever the scheduler does.
    if (threadIdx.x == 0) ticket = atomicAdd(&ctrl->ticket[a.level], 1u);
    if (threadIdx.x < kRadixBuckets) hist[threadIdx.x] = 0;
    __syncthreads();
    const std::uint32_t c = ticket;
    if (c >= chunks) break;
    const std::uint32_t s = find_segment(a.chunk_segment, seg_count, c);
    const Segment seg = a.segs[s];
    if (threadIdx.x < kPivotStride)
      pivots_sh[threadIdx.x] = a.pivots[s * kPivotStride + threadIdx.x];
    const std::uint32_t offset = (c - seg.chunk_begin) * kChunk;
    const std::uint32_t len = min(kChunk, seg.len - offset);
    std::uint32_t k[kItems];
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const auto idx = static_cast<std::uint32_t>(Rank::striped_index(i));
      k[i] = idx < len ? a.keys[seg.start + offset + idx] : 0u;
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const bool valid = static_cast<std::uint32_t>(Rank::striped_index(i)) < len;
      const std::uint32_t b = valid ? bucket_of(a.bits(k[i]), pivots_sh) : kPadBucket;
      // One shared atomic per group of equal buckets: sorted input puts a whole warp in one.
      const unsigned peers = same_bucket_lanes(b);
      if (valid && static_cast<int>(lane_id()) == __ffs(peers) - 1)
        atomicAdd(&hist[b], static_cast<std::uint32_t>(__popc(peers)));
    }
    __syncthreads();
    std::uint32_t inclusive = 0;  // of bucket threadIdx.x, over the segment's chunks up to c
    if (threadIdx.x < kBuckets) {
      const std::uint32_t count = hist[threadIdx.x];
      const std::size_t row = static_cast<std::size_t>(c) * kRadixBuckets;
      StatusRef mine(a.status[row + threadIdx.x]);
      if (c == seg.chunk_begin) {
        inclusive = count;
        mine.store(kFlagInclusive | count, ::cuda::memory_order_relaxed);
      } else {
        mine.store(kFlagAggregate | count, ::cuda::memory_order_relaxed);
        // Decoupled look-back over this segment's earlier chunks; its first chunk publishes an
        // inclusive count at once, so the walk never leaves the segment.
        std::uint32_t exclusive = 0;
        for (std::size_t p = row - kRadixBuckets;;) {
          const std::uint32_t word =
              StatusRef(a.status[p + threadIdx.x]).load(::cuda::memory_order_relaxed);
          if ((word & ~kCountMask) == 0) continue;  // not published yet: spin
          exclusive += word & kCountMask;
          if (word & kFlagInclusive) break;
          p -= kRadixBuckets;
        }
        inclusive = exclusive + count;
        mine.store(kFlagInclusive | inclusive, ::cuda::memory_order_relaxed);
      }
    }
    // The block that counted a segment's last chunk now holds its bucket totals: it plans it (no
    // separate launch, and no single block that waits for the whole level).
    if (c == seg.chunk_begin + chunks_of(seg.len) - 1)
      plan_segment(a.plan, s, seg, inclusive, pivots_sh, plan_sh);
    __syncthreads();  // hist, pivots_sh, ticket and plan_sh are reused by the next chunk
  }
}

struct ScatterArgs {
  const std::uint32_t* src_keys;
  const std::uint32_t* src_values;
  std::uint32_t* dst_keys;
  std::uint32_t* dst_values;
  const Segment* segs;
  const std::uint32_t* chunk_segment;
  const Control* ctrl;
  int side;
  const std::uint32_t* pivots;
  const std::uint32_t* bucket_base;
  std::uint32_t* status;
  KeyBits bits;
};

struct ScatterShared {
  Rank::Storage rank;
  std::uint32_t keys[kChunk];
  std::uint32_t values[kChunk];
  std::uint8_t bucket[kChunk];
  std::uint32_t dest_base[kRadixBuckets];  // output index of chunk slot j is dest_base[b] + j
  std::uint32_t pivots[kPivotStride];
};

// 3 blocks per SM (40 registers, a few bytes spilled) rather than 2: the kernel waits on memory
// and barriers more than it computes.
__global__ void __launch_bounds__(kThreads, 3) scatter_kernel(ScatterArgs a) {
  auto& sh = dynamic_shared<ScatterShared>();
  const unsigned long long work = a.ctrl->work[a.side];
  const std::uint32_t seg_count = hi32(work), chunks = lo32(work);
  for (std::uint32_t c = blockIdx.x; c < chunks; c += gridDim.x) {
    const std::uint32_t s = find_segment(a.chunk_segment, seg_count, c);
    const Segment seg = a.segs[s];
    if (threadIdx.x < kPivotStride)
      sh.pivots[threadIdx.x] = a.pivots[s * kPivotStride + threadIdx.x];
    const std::uint32_t offset = (c - seg.chunk_begin) * kChunk;
    const std::uint32_t len = min(kChunk, seg.len - offset);
    std::uint32_t keys[kItems], values[kItems], bucket[kItems], rank[kItems];
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const auto idx = static_cast<std::uint32_t>(Rank::striped_index(i));
      keys[i] = idx < len ? a.src_keys[seg.start + offset + idx] : 0u;
      values[i] = idx < len ? a.src_values[seg.start + offset + idx] : 0u;
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < kItems; ++i)
      bucket[i] = static_cast<std::uint32_t>(Rank::striped_index(i)) < len
                      ? bucket_of(a.bits(keys[i]), sh.pivots)
                      : kPadBucket;
    // The warp-ballot partition, block-wide: stable ranks by bucket, chunk in index order.
    Rank::rank(bucket, rank, sh.rank);
    if (threadIdx.x < kBuckets) {
      const std::uint32_t q = threadIdx.x;
      StatusRef word(a.status[static_cast<std::size_t>(c) * kRadixBuckets + q]);
      const std::uint32_t inclusive = word.load(::cuda::memory_order_relaxed) & kCountMask;
      word.store(0u, ::cuda::memory_order_relaxed);  // clean for the next level
      sh.dest_base[q] = seg.start + a.bucket_base[static_cast<std::size_t>(s) * kRadixBuckets + q] +
                        (inclusive - sh.rank.bucket_count[q]) - sh.rank.bucket_offset[q];
    }
    // Through shared memory, so that consecutive threads write consecutive addresses of each
    // bucket's run.
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      sh.keys[rank[i]] = keys[i];
      sh.values[rank[i]] = values[i];
      sh.bucket[rank[i]] = static_cast<std::uint8_t>(bucket[i]);
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const std::uint32_t j = threadIdx.x + static_cast<std::uint32_t>(i * kThreads);
      if (j < len) {
        const std::uint32_t to = sh.dest_base[sh.bucket[j]] + j;
        a.dst_keys[to] = sh.keys[j];
        a.dst_values[to] = sh.values[j];
      }
    }
    __syncthreads();  // shared memory is reused by the next chunk
  }
}

struct FinishArgs {
  const std::uint32_t* src_keys[2];  // per job side
  const std::uint32_t* src_values[2];
  std::uint32_t* dst_keys;
  std::uint32_t* dst_values;
  const Job* jobs;  // nullptr: the single job below
  const Control* ctrl;
  Job single;
  KeyBits bits;
};

// Runs every finish job: sorts it in shared memory by the bits that differ inside it (a copy when
// none do) and writes it to the caller's arrays.
// 3 blocks per SM, as the scatter.
__global__ void __launch_bounds__(kThreads, 3) finish_kernel(FinishArgs a) {
  auto& sh = dynamic_shared<SortShared>();
  const std::uint32_t count = a.jobs != nullptr ? a.ctrl->jobs : 1u;
  for (std::uint32_t e = blockIdx.x; e < count; e += gridDim.x) {
    const Job job = a.jobs != nullptr ? a.jobs[e] : a.single;
    // A select, not a[job.side]: indexing a kernel parameter array puts it on the stack.
    const std::uint32_t* src_keys = (job.side ? a.src_keys[1] : a.src_keys[0]) + job.start;
    const std::uint32_t* src_values = (job.side ? a.src_values[1] : a.src_values[0]) + job.start;
    if (job.width == 0) {
      // Equal keys (or unsorted for the fallback): a copy of any length, a tile at a time with
      // all of its loads issued before the first store (a load-store loop waits on each load).
      for (std::uint32_t t = 0; t < job.len; t += kTile) {
        std::uint32_t k[kItems], v[kItems];
#pragma unroll
        for (int i = 0; i < kItems; ++i) {
          const std::uint32_t idx = t + threadIdx.x + static_cast<std::uint32_t>(i * kThreads);
          k[i] = idx < job.len ? src_keys[idx] : 0u;
          v[i] = idx < job.len ? src_values[idx] : 0u;
        }
#pragma unroll
        for (int i = 0; i < kItems; ++i) {
          const std::uint32_t idx = t + threadIdx.x + static_cast<std::uint32_t>(i * kThreads);
          if (idx < job.len) {
            a.dst_keys[job.start + idx] = k[i];
            a.dst_values[job.start + idx] = v[i];
          }
        }
      }
      continue;
    }
    std::uint32_t k[kItems], v[kItems];
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const auto idx = static_cast<std::uint32_t>(Rank::striped_index(i));
      k[i] = idx < job.len ? src_keys[idx] : 0xffffffffu;  // padding sorts last
      v[i] = idx < job.len ? src_values[idx] : 0u;
    }
    const KeyBits job_bits{a.bits.begin_bit, a.bits.begin_bit + static_cast<int>(job.width)};
    block_sort_pairs<kBlockSortThreads, kBlockSortItems>(k, v, job_bits, sh.rank, sh.keys,
                                                         sh.values);
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const auto idx = static_cast<std::uint32_t>(Rank::striped_index(i));
      if (idx < job.len) {
        a.dst_keys[job.start + idx] = k[i];
        a.dst_values[job.start + idx] = v[i];
      }
    }
  }
}

template <typename Kernel>
unsigned resident_grid(Kernel kernel, int threads, std::size_t shared, int sm_count) {
  int per_sm = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, shared));
  return static_cast<unsigned>(std::max(1, per_sm) * sm_count);
}

class QuicksortSorter final : public Sorter {
 public:
  explicit QuicksortSorter(std::size_t capacity)
      : capacity_(capacity),
        fallback_(capacity),
        buffer_keys_{DeviceBuffer<std::uint32_t>(capacity), DeviceBuffer<std::uint32_t>(capacity)},
        buffer_values_{DeviceBuffer<std::uint32_t>(capacity),
                       DeviceBuffer<std::uint32_t>(capacity)},
        // Segments are big (> one tile); a segment of len pairs has at most 2 len / chunk chunks.
        max_segments_(capacity / (kTile + 1) + 2),
        max_chunks_(2 * (capacity / kChunk) + 2),
        // Jobs: each pair is in one job; packing makes two adjacent jobs of a run hold more than
        // a tile; runs per level are bounded by segments plus big buckets.
        max_jobs_((4 + 2 * static_cast<std::size_t>(kMaxLevels)) * (capacity / kTile + 2)),
        segments_{DeviceBuffer<Segment>(max_segments_), DeviceBuffer<Segment>(max_segments_)},
        chunk_segment_{DeviceBuffer<std::uint32_t>(max_chunks_),
                       DeviceBuffer<std::uint32_t>(max_chunks_)},
        pivots_(max_segments_ * kPivotStride),
        bucket_base_(max_segments_ * kRadixBuckets),
        status_(max_chunks_ * kRadixBuckets),
        jobs_(max_jobs_),
        control_(1) {
    if (capacity > kCountMask) throw std::invalid_argument("quicksort capacity above 2^30 - 1");
    CUDA_CHECK(cudaMemset(status_.data(), 0, status_.size_bytes()));
    CUDA_CHECK(cudaFuncSetAttribute(finish_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(sizeof(SortShared))));
    CUDA_CHECK(cudaFuncSetAttribute(scatter_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(sizeof(ScatterShared))));
    int device = 0, sm_count = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device));
    // Every per-level kernel loops over the level's work, so one resident wave of each suffices.
    pivot_grid_ = resident_grid(pivot_kernel, kSampleThreads, 0, sm_count);
    count_grid_ = resident_grid(count_kernel, kThreads, 0, sm_count);
    scatter_grid_ = resident_grid(scatter_kernel, kThreads, sizeof(ScatterShared), sm_count);
    finish_grid_ = resident_grid(finish_kernel, kThreads, sizeof(SortShared), sm_count);
  }
  Algorithm algorithm() const override { return Algorithm::quicksort; }
  std::size_t capacity() const override { return capacity_; }
  // The plain sort only: its own radix fallback already runs on an enable word of its own.
  SorterTraits traits() const override { return {}; }

 private:
  void enqueue(const SortRequest& request, cudaStream_t stream) override {
    std::uint32_t* keys = request.keys;
    std::uint32_t* values = request.values;
    const std::size_t n = request.n;
    const int begin_bit = request.begin_bit;
    const int end_bit = request.end_bit;
    if (n < 2 || begin_bit == end_bit) return;
    const KeyBits bits{begin_bit, end_bit};
    const auto n32 = static_cast<std::uint32_t>(n);
    FinishArgs finish{{keys, buffer_keys_[1].data()},
                      {values, buffer_values_[1].data()},
                      keys,
                      values,
                      nullptr,
                      nullptr,
                      Job{0, n32, static_cast<std::uint32_t>(bits.width()), 0},
                      bits};
    if (n <= kTile) {  // one tile: sorted in place by a single finish job
      finish_kernel<<<1, kThreads, sizeof(SortShared), stream>>>(finish);
      CUDA_CHECK_LAUNCH("quicksort finish_kernel", stream);
      return;
    }
    init_kernel<<<1, 1, 0, stream>>>(control_.data(), segments_[0].data(), n32, bits.mask());
    CUDA_CHECK_LAUNCH("quicksort init_kernel", stream);

    // Levels n needs when each divides by kPivots + 1, plus the slack; then the radix fallback.
    int levels = 1;
    for (std::size_t covered = std::size_t{kTile} * kPivotStride; covered < n;
         covered *= kPivotStride)
      ++levels;
    levels = std::min(levels + kQuicksortLevelSlack, kMaxLevels);
    for (int level = 0; level < levels; ++level) {
      // Level l reads its segments from side l & 1 and its pairs from the buffer level l - 1
      // wrote (the caller's arrays for level 0), and writes its pairs to buffer l & 1.
      const int side = level & 1;
      const std::uint32_t* src_keys = level == 0 ? keys : buffer_keys_[side ^ 1].data();
      const std::uint32_t* src_values = level == 0 ? values : buffer_values_[side ^ 1].data();
      pivot_kernel<<<pivot_grid_, kSampleThreads, 0, stream>>>(
          src_keys, segments_[side].data(), control_.data(), side, pivots_.data(), bits);
      CUDA_CHECK_LAUNCH("quicksort pivot_kernel", stream);
      count_kernel<<<count_grid_, kThreads, 0, stream>>>(CountArgs{
          src_keys, segments_[side].data(), chunk_segment_[side].data(), level, pivots_.data(),
          status_.data(), bits,
          PlanArgs{segments_[side ^ 1].data(), chunk_segment_[side ^ 1].data(), control_.data(),
                   side, bucket_base_.data(), jobs_.data(), level == levels - 1 ? 1 : 0}});
      CUDA_CHECK_LAUNCH("quicksort count_kernel", stream);
      scatter_kernel<<<scatter_grid_, kThreads, sizeof(ScatterShared), stream>>>(
          ScatterArgs{src_keys, src_values, buffer_keys_[side].data(), buffer_values_[side].data(),
                      segments_[side].data(), chunk_segment_[side].data(), control_.data(), side,
                      pivots_.data(), bucket_base_.data(), status_.data(), bits});
      CUDA_CHECK_LAUNCH("quicksort scatter_kernel", stream);
    }
    finish.src_keys[0] = buffer_keys_[0].data();
    finish.src_values[0] = buffer_values_[0].data();
    finish.jobs = jobs_.data();
    finish.ctrl = control_.data();
    finish_kernel<<<finish_grid_, kThreads, sizeof(SortShared), stream>>>(finish);
    CUDA_CHECK_LAUNCH("quicksort finish_kernel", stream);
    fallback_.sort(keys, values, n, begin_bit, end_bit, stream,
                   {.enable = &control_.data()->run_fallback});
  }

  std::size_t capacity_;
  RadixSortEngine fallback_;
  DeviceBuffer<std::uint32_t> buffer_keys_[2];
  DeviceBuffer<std::uint32_t> buffer_values_[2];
  std::size_t max_segments_;
  std::size_t max_chunks_;
  std::size_t max_jobs_;
  DeviceBuffer<Segment> segments_[2];
  DeviceBuffer<std::uint32_t> chunk_segment_[2];
  DeviceBuffer<std::uint32_t> pivots_;
  DeviceBuffer<std::uint32_t> bucket_base_;
  DeviceBuffer<std::uint32_t> status_;
  DeviceBuffer<Job> jobs_;
  DeviceBuffer<Control> control_;
  unsigned pivot_grid_ = 1, count_grid_ = 1, scatter_grid_ = 1, finish_grid_ = 1;
};

}  // namespace

std::unique_ptr<Sorter> make_quicksort_sorter(std::size_t capacity) {
  return std::make_unique<QuicksortSorter>(capacity);
}

}  // namespace particles::cuda::detail
