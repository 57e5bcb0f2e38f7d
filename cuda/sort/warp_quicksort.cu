// GPU quicksort on the warp-ballot partition, host-driven by levels with a device-side work list.
//
// A level partitions every "big" segment (> kBlockSortTile pairs) three ways around a pivot, the
// median of 32 evenly spaced samples: < pivot | == pivot | > pivot. Equal keys are finished at
// once (a segment of equal keys cannot degrade it). The partition is stable: instead of the
// seed's atomics, which reserve space in whatever order warps arrive, chunk counts are scanned,
// so each chunk and each warp writes at offsets fixed by index order; inside a warp ballots and
// popc(lanemask_lt) give each lane its slot.
// Per level, three kernels read the work list on the device (no host sync):
//   count  - per chunk of kQuicksortChunk pairs: its segment's pivot, then counts of < and ==;
//   plan   - one block: scans the chunk counts, sizes the three parts of every segment, appends
//            big parts to the next level's list and small parts (2..tile pairs) to the finish
//            list;
//   scatter- moves each chunk's pairs to their part: big parts to the other ping-pong buffer,
//            equal keys and small parts straight to the caller's arrays.
// After the levels, one kernel sorts every small part in shared memory (block radix sort). The
// host launches log2(n / tile) + kQuicksortLevelSlack levels; a big part left after the last one
// sets a device flag on which the radix sort finishes the whole array (exact on any input, and
// stable since every step preserved the input order of equal keys).
#include <cub/block/block_scan.cuh>

#include <algorithm>
#include <bit>

#include "cuda/check.hpp"
#include "cuda/detail/device_buffer.hpp"
#include "cuda/sort/block_radix.cuh"
#include "cuda/sort/radix_engine.hpp"
#include "cuda/sort/sorters_internal.hpp"

namespace particles::cuda::detail {
namespace {

constexpr int kThreads = kQuicksortThreads;
constexpr int kItems = kQuicksortItems;
constexpr int kChunk = kQuicksortChunk;
constexpr int kWarps = kThreads / 32;
constexpr std::uint32_t kSmallLimit = kBlockSortTile;
constexpr int kPlanThreads = 1024;
static_assert(kQuicksortThreads == kBlockSortThreads && kQuicksortItems == kBlockSortItems,
              "the partition chunk and the finishing tile share the warp-striped layout");

using Rank = BlockRadixRank<kBlockSortThreads, kBlockSortItems>;

struct Segment {
  std::uint32_t start;
  std::uint32_t len;
  std::uint32_t chunk_begin;  // index of its first chunk in this level's chunk numbering
  std::uint32_t pivot;        // written by the count kernel
  std::uint32_t lt_total;     // written by the plan kernel
  std::uint32_t eq_total;
  std::uint32_t flags;  // bit 0: the < part continues to the next level, bit 1: the > part
  std::uint32_t pad;
};
struct Control {
  std::uint32_t segments[2];  // per ping-pong side
  std::uint32_t chunks[2];
  std::uint32_t small_count;
  std::int32_t run_fallback;
};

__device__ __forceinline__ std::uint32_t hi(unsigned long long v) {
  return static_cast<std::uint32_t>(v >> 32);
}
__device__ __forceinline__ std::uint32_t lo(unsigned long long v) {
  return static_cast<std::uint32_t>(v);
}

// Segment owning chunk c, from the map the plan kernel wrote (one load instead of a dependent
// binary search per chunk). Level 0 has a single segment and no map.
__device__ __forceinline__ std::uint32_t find_segment(const std::uint32_t* chunk_segment,
                                                      std::uint32_t count, std::uint32_t c) {
  return count == 1 ? 0u : chunk_segment[c];
}

__global__ void init_kernel(Control* ctrl, Segment* first, std::uint32_t n) {
  ctrl->segments[0] = 1;
  ctrl->segments[1] = 0;
  ctrl->chunks[0] = (n + kChunk - 1) / kChunk;
  ctrl->chunks[1] = 0;
  ctrl->small_count = 0;
  ctrl->run_fallback = 0;
  *first = Segment{0, n, 0, 0, 0, 0, 0, 0};
}

__global__ void __launch_bounds__(kThreads)
    count_kernel(const std::uint32_t* keys, Segment* segs, const std::uint32_t* chunk_segment,
                 const Control* ctrl, int side, unsigned long long* counts, KeyBits bits) {
  __shared__ std::uint32_t pivot_shared;
  __shared__ unsigned long long block_total;
  const std::uint32_t chunks = ctrl->chunks[side];
  const std::uint32_t seg_count = ctrl->segments[side];
  for (std::uint32_t c = blockIdx.x; c < chunks; c += gridDim.x) {
    const std::uint32_t s = find_segment(chunk_segment, seg_count, c);
    const Segment seg = segs[s];
    if (threadIdx.x < 32) {
      // Pivot: median (rank 15 of 32, ties by sample index) of evenly spaced samples. Every
      // block of the segment computes the same value from the same samples.
      const std::uint32_t lane = threadIdx.x;
      const std::uint32_t sample =
          bits(keys[seg.start + static_cast<std::uint32_t>((2ull * lane + 1) * seg.len / 64)]);
      int rank = 0;
      for (int m = 0; m < 32; ++m) {
        const std::uint32_t other = __shfl_sync(kFullMask, sample, m);
        rank += (other < sample || (other == sample && m < static_cast<int>(lane))) ? 1 : 0;
      }
      const int leader = __ffs(__ballot_sync(kFullMask, rank == 15)) - 1;
      const std::uint32_t pivot = __shfl_sync(kFullMask, sample, leader);
      if (lane == 0) {
        pivot_shared = pivot;
        block_total = 0;
      }
    }
    __syncthreads();
    const std::uint32_t pivot = pivot_shared;
    const std::uint32_t offset = (c - seg.chunk_begin) * kChunk;
    const std::uint32_t len = min(static_cast<std::uint32_t>(kChunk), seg.len - offset);
    std::uint32_t lt = 0, eq = 0;
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const std::uint32_t idx = static_cast<std::uint32_t>(Rank::striped_index(i));
      if (idx < len) {
        const std::uint32_t k = bits(keys[seg.start + offset + idx]);
        lt += k < pivot ? 1u : 0u;
        eq += k == pivot ? 1u : 0u;
      }
    }
    lt = __reduce_add_sync(kFullMask, lt);
    eq = __reduce_add_sync(kFullMask, eq);
    if (lane_id() == 0) atomicAdd(&block_total, (static_cast<unsigned long long>(lt) << 32) | eq);
    __syncthreads();
    if (threadIdx.x == 0) {
      counts[c] = block_total;
      if (c == seg.chunk_begin) segs[s].pivot = pivot;
    }
    __syncthreads();
  }
}

__global__ void __launch_bounds__(kPlanThreads)
    plan_kernel(Segment* segs, Segment* next_segs, std::uint32_t* next_chunk_segment, Control* ctrl,
                int side, const unsigned long long* counts, unsigned long long* prefix,
                uint2* small, int last_level) {
  using Scan = cub::BlockScan<unsigned long long, kPlanThreads>;
  __shared__ typename Scan::TempStorage scan_storage;
  const std::uint32_t chunks = ctrl->chunks[side];
  const std::uint32_t seg_count = ctrl->segments[side];

  // 1. exclusive prefix of packed (lt << 32 | eq) counts over all chunks of the level
  unsigned long long carry = 0;
  for (std::uint32_t base = 0; base < chunks; base += kPlanThreads) {
    const std::uint32_t c = base + threadIdx.x;
    unsigned long long exclusive = 0, aggregate = 0;
    Scan(scan_storage).ExclusiveSum(c < chunks ? counts[c] : 0ull, exclusive, aggregate);
    if (c < chunks) prefix[c] = carry + exclusive;
    carry += aggregate;
    __syncthreads();
  }
  if (threadIdx.x == 0) prefix[chunks] = carry;
  __syncthreads();

  // 2. part sizes of every segment; big parts listed for the next level (packed scan of
  //    (parts << 32 | chunks) keeps the list and its chunk numbering in order)
  unsigned long long next_carry = 0;
  for (std::uint32_t base = 0; base < seg_count; base += kPlanThreads) {
    const std::uint32_t s = base + threadIdx.x;
    unsigned long long want = 0;
    Segment seg{};
    std::uint32_t lt = 0, eq = 0, gt = 0, flags = 0;
    if (s < seg_count) {
      seg = segs[s];
      const std::uint32_t end_chunk = s + 1 < seg_count ? segs[s + 1].chunk_begin : chunks;
      const unsigned long long p0 = prefix[seg.chunk_begin], p1 = prefix[end_chunk];
      lt = hi(p1) - hi(p0);
      eq = lo(p1) - lo(p0);
      gt = seg.len - lt - eq;
      const bool lt_big = lt > kSmallLimit, gt_big = gt > kSmallLimit;
      if (last_level) {
        if (lt_big || gt_big) ctrl->run_fallback = 1;  // left unsorted in place for the radix
      } else {
        flags = (lt_big ? 1u : 0u) | (gt_big ? 2u : 0u);
      }
      if (lt >= 2 && !lt_big) small[atomicAdd(&ctrl->small_count, 1u)] = make_uint2(seg.start, lt);
      if (gt >= 2 && !gt_big)
        small[atomicAdd(&ctrl->small_count, 1u)] = make_uint2(seg.start + lt + eq, gt);
      const std::uint32_t parts = ((flags & 1u) ? 1u : 0u) + ((flags & 2u) ? 1u : 0u);
      const std::uint32_t part_chunks = ((flags & 1u) ? (lt + kChunk - 1) / kChunk : 0u) +
                                        ((flags & 2u) ? (gt + kChunk - 1) / kChunk : 0u);
      want = (static_cast<unsigned long long>(parts) << 32) | part_chunks;
      segs[s].lt_total = lt;
      segs[s].eq_total = eq;
      segs[s].flags = flags;
    }
    unsigned long long exclusive = 0, aggregate = 0;
    Scan(scan_storage).ExclusiveSum(want, exclusive, aggregate);
    if (s < seg_count) {
      std::uint32_t index = hi(next_carry + exclusive);
      std::uint32_t chunk = lo(next_carry + exclusive);
      if (flags & 1u) {
        const std::uint32_t end = chunk + (lt + kChunk - 1) / kChunk;
        next_segs[index] = Segment{seg.start, lt, chunk, 0, 0, 0, 0, 0};
        for (; chunk < end; ++chunk) next_chunk_segment[chunk] = index;
        ++index;
      }
      if (flags & 2u) {
        const std::uint32_t end = chunk + (gt + kChunk - 1) / kChunk;
        next_segs[index] = Segment{seg.start + lt + eq, gt, chunk, 0, 0, 0, 0, 0};
        for (; chunk < end; ++chunk) next_chunk_segment[chunk] = index;
      }
    }
    next_carry += aggregate;
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    ctrl->segments[side ^ 1] = hi(next_carry);
    ctrl->chunks[side ^ 1] = lo(next_carry);
  }
}

struct ScatterArgs {
  const std::uint32_t* src_keys;
  const std::uint32_t* src_values;
  std::uint32_t* next_keys;  // big parts
  std::uint32_t* next_values;
  std::uint32_t* final_keys;  // equal keys and small parts
  std::uint32_t* final_values;
  const Segment* segs;
  const std::uint32_t* chunk_segment;
  const Control* ctrl;
  int side;
  const unsigned long long* prefix;
  KeyBits bits;
};

__global__ void __launch_bounds__(kThreads) scatter_kernel(ScatterArgs a) {
  __shared__ std::uint32_t warp_offset[kWarps][3];
  const std::uint32_t chunks = a.ctrl->chunks[a.side];
  const std::uint32_t seg_count = a.ctrl->segments[a.side];
  const unsigned below = lanemask_lt();
  for (std::uint32_t c = blockIdx.x; c < chunks; c += gridDim.x) {
    const Segment seg = a.segs[find_segment(a.chunk_segment, seg_count, c)];
    const std::uint32_t offset = (c - seg.chunk_begin) * kChunk;
    const std::uint32_t len = min(static_cast<std::uint32_t>(kChunk), seg.len - offset);
    const unsigned long long p = a.prefix[c], p0 = a.prefix[seg.chunk_begin];
    const std::uint32_t lt_before = hi(p) - hi(p0), eq_before = lo(p) - lo(p0);
    const std::uint32_t part_base[3] = {
        seg.start + lt_before, seg.start + seg.lt_total + eq_before,
        seg.start + seg.lt_total + seg.eq_total + (offset - lt_before - eq_before)};

    // Warp ballot partition (the seed's idea, made stable): items in index order, each lane's
    // slot among its warp's pairs of the same part is popc(ballot & lanemask_lt).
    std::uint32_t keys[kItems], values[kItems], slot[kItems] = {}, part[kItems];
    std::uint32_t warp_count[3] = {0, 0, 0};
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const std::uint32_t idx = static_cast<std::uint32_t>(Rank::striped_index(i));
      const bool valid = idx < len;
      keys[i] = valid ? a.src_keys[seg.start + offset + idx] : 0u;
      values[i] = valid ? a.src_values[seg.start + offset + idx] : 0u;
      const std::uint32_t k = a.bits(keys[i]);
      part[i] = !valid ? 3u : (k < seg.pivot ? 0u : (k == seg.pivot ? 1u : 2u));
#pragma unroll
      for (std::uint32_t q = 0; q < 3; ++q) {
        const unsigned mask = __ballot_sync(kFullMask, part[i] == q);
        if (part[i] == q)
          slot[i] = warp_count[q] + static_cast<std::uint32_t>(__popc(mask & below));
        warp_count[q] += static_cast<std::uint32_t>(__popc(mask));
      }
    }
    if (lane_id() == 0)
      for (int q = 0; q < 3; ++q) warp_offset[warp_id()][q] = warp_count[q];
    __syncthreads();
    if (threadIdx.x < 3) {  // exclusive scan over warps, per part
      std::uint32_t run = 0;
      for (int w = 0; w < kWarps; ++w) {
        const std::uint32_t v = warp_offset[w][threadIdx.x];
        warp_offset[w][threadIdx.x] = run;
        run += v;
      }
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      if (part[i] < 3) {
        const std::uint32_t q = part[i];
        const std::uint32_t to = part_base[q] + warp_offset[warp_id()][q] + slot[i];
        const bool to_next = (q == 0 && (seg.flags & 1u)) || (q == 2 && (seg.flags & 2u));
        (to_next ? a.next_keys : a.final_keys)[to] = keys[i];
        (to_next ? a.next_values : a.final_values)[to] = values[i];
      }
    }
    __syncthreads();  // warp_offset is reused by the next chunk
  }
}

struct FinishShared {
  Rank::Storage rank;
  std::uint32_t keys[kBlockSortTile];
  std::uint32_t values[kBlockSortTile];
};

// Sorts each small part (<= one tile) in shared memory, in place in the caller's arrays. With
// list == nullptr it sorts the single segment [0, single_len).
__global__ void __launch_bounds__(kThreads)
    finish_kernel(std::uint32_t* keys, std::uint32_t* values, const uint2* list,
                  const Control* ctrl, std::uint32_t single_len, KeyBits bits) {
  extern __shared__ uint4 shared_raw[];
  auto& sh = *reinterpret_cast<FinishShared*>(shared_raw);
  const std::uint32_t count = list != nullptr ? ctrl->small_count : 1u;
  for (std::uint32_t e = blockIdx.x; e < count; e += gridDim.x) {
    const uint2 part = list != nullptr ? list[e] : make_uint2(0u, single_len);
    std::uint32_t k[kItems], v[kItems];
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const std::uint32_t idx = static_cast<std::uint32_t>(Rank::striped_index(i));
      k[i] = idx < part.y ? keys[part.x + idx] : 0xffffffffu;  // padding sorts last
      v[i] = idx < part.y ? values[part.x + idx] : 0u;
    }
    block_sort_pairs<kBlockSortThreads, kBlockSortItems>(k, v, bits, sh.rank, sh.keys, sh.values);
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const std::uint32_t idx = static_cast<std::uint32_t>(Rank::striped_index(i));
      if (idx < part.y) {
        keys[part.x + idx] = k[i];
        values[part.x + idx] = v[i];
      }
    }
  }
}

class QuicksortSorter final : public Sorter {
 public:
  explicit QuicksortSorter(std::size_t capacity)
      : capacity_(capacity),
        fallback_(capacity),
        buffer_keys_{DeviceBuffer<std::uint32_t>(capacity), DeviceBuffer<std::uint32_t>(capacity)},
        buffer_values_{DeviceBuffer<std::uint32_t>(capacity),
                       DeviceBuffer<std::uint32_t>(capacity)},
        max_segments_(capacity / (kSmallLimit + 1) + 2),
        max_chunks_(capacity / kChunk + max_segments_ + 2),
        segments_{DeviceBuffer<Segment>(max_segments_), DeviceBuffer<Segment>(max_segments_)},
        chunk_segment_{DeviceBuffer<std::uint32_t>(max_chunks_),
                       DeviceBuffer<std::uint32_t>(max_chunks_)},
        counts_(max_chunks_),
        prefix_(max_chunks_ + 1),
        small_(capacity / 2 + 2),
        control_(1) {
    CUDA_CHECK(cudaFuncSetAttribute(finish_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(sizeof(FinishShared))));
    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sm_count_, cudaDevAttrMultiProcessorCount, device));
  }
  SortAlgorithm algorithm() const override { return SortAlgorithm::quicksort; }
  std::size_t capacity() const override { return capacity_; }

  void sort(std::uint32_t* keys, std::uint32_t* values, std::size_t n, int begin_bit, int end_bit,
            cudaStream_t stream) override {
    check_sort_arguments(n, capacity_, begin_bit, end_bit);
    if (n < 2 || begin_bit == end_bit) return;
    const KeyBits bits{begin_bit, end_bit};
    const auto n32 = static_cast<std::uint32_t>(n);
    if (n <= kSmallLimit) {  // one tile: straight to the shared-memory finish
      finish_kernel<<<1, kThreads, sizeof(FinishShared), stream>>>(keys, values, nullptr, nullptr,
                                                                   n32, bits);
      CUDA_CHECK_LAUNCH("quicksort finish_kernel");
      return;
    }
    // Level 0 reads a copy, so that equal keys and small parts can go straight to the caller's
    // arrays while other blocks still read the input.
    CUDA_CHECK(
        cudaMemcpyAsync(buffer_keys_[0].data(), keys, n * 4, cudaMemcpyDeviceToDevice, stream));
    CUDA_CHECK(
        cudaMemcpyAsync(buffer_values_[0].data(), values, n * 4, cudaMemcpyDeviceToDevice, stream));
    init_kernel<<<1, 1, 0, stream>>>(control_.data(), segments_[0].data(), n32);
    CUDA_CHECK_LAUNCH("quicksort init_kernel");

    const int levels = std::bit_width((n - 1) / kSmallLimit) + kQuicksortLevelSlack;
    const unsigned grid = static_cast<unsigned>(sm_count_ * kQuicksortBlocksPerSm);
    for (int level = 0; level < levels; ++level) {
      const int side = level & 1;
      count_kernel<<<grid, kThreads, 0, stream>>>(buffer_keys_[side].data(), segments_[side].data(),
                                                  chunk_segment_[side].data(), control_.data(),
                                                  side, counts_.data(), bits);
      CUDA_CHECK_LAUNCH("quicksort count_kernel");
      plan_kernel<<<1, kPlanThreads, 0, stream>>>(
          segments_[side].data(), segments_[side ^ 1].data(), chunk_segment_[side ^ 1].data(),
          control_.data(), side, counts_.data(), prefix_.data(), small_.data(),
          level == levels - 1 ? 1 : 0);
      CUDA_CHECK_LAUNCH("quicksort plan_kernel");
      scatter_kernel<<<grid, kThreads, 0, stream>>>(ScatterArgs{
          buffer_keys_[side].data(), buffer_values_[side].data(), buffer_keys_[side ^ 1].data(),
          buffer_values_[side ^ 1].data(), keys, values, segments_[side].data(),
          chunk_segment_[side].data(), control_.data(), side, prefix_.data(), bits});
      CUDA_CHECK_LAUNCH("quicksort scatter_kernel");
    }
    finish_kernel<<<static_cast<unsigned>(sm_count_ * 2), kThreads, sizeof(FinishShared), stream>>>(
        keys, values, small_.data(), control_.data(), 0, bits);
    CUDA_CHECK_LAUNCH("quicksort finish_kernel");
    fallback_.sort(keys, values, n, begin_bit, end_bit, stream, &control_.data()->run_fallback);
  }

 private:
  std::size_t capacity_;
  RadixSortEngine fallback_;
  DeviceBuffer<std::uint32_t> buffer_keys_[2];
  DeviceBuffer<std::uint32_t> buffer_values_[2];
  std::size_t max_segments_;
  std::size_t max_chunks_;
  DeviceBuffer<Segment> segments_[2];
  DeviceBuffer<std::uint32_t> chunk_segment_[2];
  DeviceBuffer<unsigned long long> counts_;
  DeviceBuffer<unsigned long long> prefix_;
  DeviceBuffer<uint2> small_;
  DeviceBuffer<Control> control_;
  int sm_count_ = 0;
};

}  // namespace

std::unique_ptr<Sorter> make_quicksort_sorter(std::size_t capacity) {
  return std::make_unique<QuicksortSorter>(capacity);
}

}  // namespace particles::cuda::detail
