#include "cuda/auto/auto_sort.hpp"

#include <array>
#include <cstddef>
#include <stdexcept>

#include "cuda/auto/auto_probe.hpp"
#include "cuda/auto/auto_words.hpp"
#include "cuda/auto/splitter_partition.hpp"
#include "cuda/auto/splitter_partition_sort.hpp"
#include "cuda/common/check.hpp"
#include "cuda/common/launch_grid.hpp"
#include "cuda/sort/copy_kernels.cuh"
#include "cuda/sort/policy.hpp"
#include "cuda/sort/sortedness.hpp"

namespace particles::cuda {
namespace {

static_assert(2 * kAutoProbeStride == kBlockSortTile,
              "the strided probe must match the odd-even tile it predicts convergence for");

// The words from the probe's counts and last frame's try.
__global__ void choose_auto_path_kernel(AutoReport* report, std::int32_t* enable, int key_bits) {
  const SortPath path = choose_auto_path(report->descents, report->strided_descents);
  const PartitionTries last{enable[kTriesWait], enable[kTriesTried] != 0};
  const bool failed = last.tried && report->partitioned == 0;  // it ran and fell back
  const PartitionTries tries = next_partition_tries(last, failed, path, key_bits);
  enable[kOddEvenRuns] = path == SortPath::oddeven ? 1 : 0;
  enable[kRadixRuns] = path == SortPath::radix && !tries.tried ? 1 : 0;
  enable[kPartitionRuns] = tries.tried ? 1 : 0;
  enable[kTriesWait] = tries.wait;
  enable[kTriesTried] = tries.tried ? 1 : 0;
  enable[kFinishRuns] = 1;
  report->partitioned = 0;
}

// Auto's PartitionTries words as after a reset.
__global__ void reset_partition_tries_kernel(std::int32_t* enable) {
  enable[kTriesWait] = kPartitionTriesAfterReset.wait;
  enable[kTriesTried] = kPartitionTriesAfterReset.tried ? 1 : 0;
}

bool is_stint(const FramePlan& plan) {
  return plan.sort == SortStage::partition_stint;
}

// Where a partition stint's keys go by place: only its partition sort's overflow sort reads them
// (the step appends them, keyed by place, and stores one there only when its bucket overflows;
// the sort, when one did, stores there the keys its buckets hold and sorts them). Null outside a
// stint, whose step stores every key.
std::uint32_t* keys_by_place(const FramePlan& plan, const AutoFrame& frame) {
  return is_stint(plan) ? frame.keys : nullptr;
}

}  // namespace

AutoSort::AutoSort() : words_(kAutoWords) {
  CUDA_CHECK(cudaMemset(words_.data(), 0, words_.size_bytes()));  // no sort enabled until reset
}

AutoSort::~AutoSort() = default;

void AutoSort::reset(std::size_t capacity, cudaStream_t stream) {
  schedule_.reset();
  last_requested_.reset();
  if (capacity > capacity_) {
    partition_.reset();  // the old one's memory first
    partition_ = std::make_unique<SplitterPartitionSort>(capacity);
    capacity_ = capacity;
  }
  if (partition_) partition_->forget_splitters(stream);  // last scene's keys
  // No sort enabled; PartitionTries as after a reset (the first frame has no splitters), set by
  // the kernel that also resets them when auto comes back from another frame.
  std::array<std::int32_t, kAutoWords> words{};
  words[kFinishRuns] = 1;
  words[kAlwaysOne] = 1;
  CUDA_CHECK(
      cudaMemcpyAsync(words_.data(), words.data(), sizeof words, cudaMemcpyHostToDevice, stream));
  reset_partition_tries_kernel<<<1, 1, 0, stream>>>(words_.data());
  CUDA_CHECK_LAUNCH("reset_partition_tries_kernel", stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));  // `words` is on this stack
}

SortPath AutoSort::next_stint(const FramePlan& requested) {
  const bool takes = takes_stints(requested);
  if (!takes || last_requested_ != requested) schedule_.reset();
  last_requested_ = requested;
  return takes ? schedule_.next_frame() : SortPath::unsorted;
}

void AutoSort::restart_order(cudaStream_t stream) {
  reset_partition_tries_kernel<<<1, 1, 0, stream>>>(words_.data());
  CUDA_CHECK_LAUNCH("reset_partition_tries_kernel", stream);
  schedule_.restart_order();
}

void AutoSort::on_report(const FramePlan& requested, const FramePlan& reported, SortPath stint,
                         SortPath path, float span_ms) {
  if (takes_stints(requested) && reported == requested) schedule_.on_report(stint, path, span_ms);
}

SortPath AutoSort::path_of(const FramePlan& plan, const AutoReport& report) {
  if (is_stint(plan)) {
    // Not partitioned: its overflow sort, the odd-even sorter's exact merge sort, sorted it.
    return report.partitioned != 0 ? SortPath::partition : SortPath::oddeven;
  }
  const SortPath path = choose_auto_path(report.descents, report.strided_descents);
  return path == SortPath::radix && report.partitioned != 0 ? SortPath::partition : path;
}

PartitionAppend AutoSort::append_target(const FramePlan& plan, const AutoFrame& frame) const {
  PartitionAppend append = partition_->append_target();
  // The keys stage stores every key in place itself; a stint's step stores only the overflowed.
  if (plan.append == BucketAppend::step) append.keys_by_place = keys_by_place(plan, frame);
  return append;
}

// Every sort, each enabled by its word, which a one-thread kernel sets from the probe's counts
// (and the partition sort, when it cannot sort, hands to radix): the decision is made on the
// device, in the same frame, without a host round trip. A partition stint's frame has no probe,
// no choice and no other sort: its partition sort always runs, and never refuses.
void AutoSort::record_sort(const FramePlan& plan, const AutoFrame& frame,
                           const AutoSorters& sorters, cudaStream_t s) {
  const int end_bit = plan.keys.bits;
  const bool stint = is_stint(plan);
  const bool keys_appended = plan.append != BucketAppend::none;
  // A stint's sort has no fallback: it must be one the partition sort never refuses.
  if (stint && !(keys_appended && partition_buckets(frame.count) <= kPartitionMaxBuckets))
    throw std::logic_error("a partition stint for keys the partition sort never takes");
  std::int32_t* words = words_.data();
  AutoReport* report = frame.report;
  if (!stint) {
    // Quantized keys leave the unused high bits zero, so full-word comparisons are exact.
    static_assert(offsetof(AutoReport, strided_descents) ==
                  offsetof(AutoReport, descents) + sizeof(std::uint32_t));
    launch_sortedness_probes(frame.keys, frame.count, kAutoProbeStride, &report->descents, s);
    choose_auto_path_kernel<<<1, 1, 0, s>>>(report, words, end_bit);
    CUDA_CHECK_LAUNCH("choose_auto_path_kernel", s);
    sorters.oddeven.sort({.keys = frame.keys,
                          .values = frame.order,
                          .n = frame.count,
                          .begin_bit = 0,
                          .end_bit = end_bit,
                          .enable = words + kOddEvenRuns},
                         s);
  }
  if (plan.tries_partition_sort) {
    const std::int32_t* enable = words + (stint ? kAlwaysOne : kPartitionRuns);
    const PartitionExtras extras{.final_values = frame.target,
                                 .note_splitters = true,
                                 // A stint's frame has no finish to turn off.
                                 .finish_enable = stint ? nullptr : words + kFinishRuns,
                                 .keys_by_place = keys_by_place(plan, frame)};
    if (keys_appended) {  // by the step or the keys stage, each with its place as its value
      // Its sorted keys are not kept: when it sorts, it takes the next splitters itself and the
      // finish (note_sorted, their only reader) does not run.
      partition_->sort_appended(nullptr, frame.order, frame.count, s, enable, words + kRadixRuns,
                                &report->partitioned, extras);
    } else {
      partition_->sort_enabled(frame.keys, frame.order, frame.count, s, enable, words + kRadixRuns,
                               &report->partitioned, extras);
    }
  }
  if (stint) {
    // A stint's partition sort never refuses: a frame that moved too far, past a bucket's
    // capacity, is sorted in the same kernel by its overflow sort (PartitionExtras::keys_by_place),
    // which ends the stint through the report. No fallback launch, so a node fewer on every
    // frame (docs/notes/auto.md). The sort writes the target itself, so a stint's frame has no
    // order stage either.
    return;
  }
  // Unrouted, without the step's key floor: plain passes measured faster here than routed ones
  // plus the copy back of an odd pass count (docs/notes/auto.md).
  sorters.radix.sort({.keys = frame.keys,
                      .values = frame.order,
                      .n = frame.count,
                      .begin_bit = 0,
                      .end_bit = end_bit,
                      .enable = words + kRadixRuns,
                      .top_digit_crowded = true},
                     s);
}

// The target's address is read when the copy runs. The partition sort, when it sorted, wrote the
// target and its splitters itself (kFinishRuns).
void AutoSort::record_finish(const FramePlan& plan, const AutoFrame& frame, cudaStream_t s) {
  const std::int32_t* finish = words_.data() + kFinishRuns;
  if (plan.order_stage == OrderStage::copy_auto_order_and_splitters) {
    // Whichever path sorted them, the keys now hold this frame's sorted keys: the splitters of
    // the next frame's partition sort, taken in the copy's launch.
    partition_->note_sorted(frame.keys, frame.count, s, finish, {frame.order, frame.target});
    return;
  }
  detail::copy_values_to_kernel<<<detail::grid_stride_blocks(frame.count, detail::kCopyThreads, 1),
                                  detail::kCopyThreads, 0, s>>>(frame.order, frame.target,
                                                                frame.count, finish);
  CUDA_CHECK_LAUNCH("copy_values_to_kernel", s);
}

}  // namespace particles::cuda
