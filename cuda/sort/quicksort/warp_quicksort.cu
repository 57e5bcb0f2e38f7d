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
// This file holds the sorter, which sizes the buffers and launches the levels; the kernels are in
// quicksort_partition.cuh (pivot, count, scatter) and quicksort_finish.cuh.
#include <algorithm>
#include <stdexcept>

#include "cuda/common/check.hpp"
#include "cuda/common/device_buffer.hpp"
#include "cuda/sort/quicksort/quicksort_common.cuh"
#include "cuda/sort/quicksort/quicksort_finish.cuh"
#include "cuda/sort/quicksort/quicksort_partition.cuh"
#include "cuda/sort/radix/radix_engine.hpp"
#include "cuda/sort/sorters_internal.hpp"

namespace particles::cuda::detail {
namespace {

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
