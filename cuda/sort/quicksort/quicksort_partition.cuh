#pragma once
// The quicksort's partition kernels, one level of them per launch of each: init (the first
// segment), pivot (quantiles of stratified samples), count (bucket counts, look-back and the plan
// of each segment it finishes) and scatter (the stable warp-ballot partition to the other
// ping-pong buffer). Launched by warp_quicksort.cu, the one source that includes this header.
#include <cuda/atomic>

#include <cstddef>
#include <cstdint>

#include "cuda/common/dynamic_shared.cuh"
#include "cuda/common/warp.cuh"
#include "cuda/sort/block/block_radix.cuh"
#include "cuda/sort/quicksort/quicksort_common.cuh"

namespace particles::cuda::detail {
namespace {

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

}  // namespace
}  // namespace particles::cuda::detail
