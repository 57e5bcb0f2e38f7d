// Recording one frame from its plan (core/frame_plan.hpp): the stages as stream work, run under
// capture only (cuda/pipeline/frame_graphs.hpp). Every decision was made by plan_frame; this
// file only carries it out. Every pointer but the targets' is owned by the pipeline and fixed
// until reset(); the targets come through FrameConstants.
#include <cstddef>
#include <stdexcept>

#include "core/auto_policy.hpp"
#include "cuda/auto/auto_probe.hpp"
#include "cuda/auto/splitter_partition.hpp"
#include "cuda/common/check.hpp"
#include "cuda/common/launch_grid.hpp"
#include "cuda/pipeline/auto_words.hpp"
#include "cuda/pipeline/device_pipeline.hpp"
#include "cuda/sort/copy_kernels.cuh"
#include "cuda/sort/policy.hpp"
#include "cuda/sort/sortedness.hpp"
#include "cuda/stages/keys/depth_keys.hpp"
#include "cuda/stages/reduce/extents_fold.hpp"
#include "cuda/stages/reduce/extents_reduce.hpp"
#include "cuda/stages/sim/simulate.hpp"
#include "cuda/stages/sim/step_fused.hpp"

namespace particles::cuda {
namespace {

static_assert(2 * kAutoProbeStride == kBlockSortTile,
              "the strided probe must match the odd-even tile it predicts convergence for");

// The words from the probe's counts and last frame's try.
__global__ void choose_auto_path_kernel(FrameReport* report, std::int32_t* enable, int key_bits) {
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

}  // namespace

void DevicePipeline::record_frame(const FramePlan& plan, int slot, int timing_slot, bool stages,
                                  MarkMap& marks) {
  StageMarker marker(stage_events_, stream_.get(), timing_slot, stages, marks);
  marker.begin();
  record_step(plan, slot, marker);
  record_keys_stage(plan, slot, marker);
  record_sort(plan);
  if (plan.step.extents_as_partials) {
    CUDA_CHECK(cudaStreamWaitEvent(stream_.get(), joined_.get(), 0));
  }
  if (plan.order_stage == OrderStage::none) {
    marker.end(4);  // the sort wrote the target: its end is the frame's
    return;
  }
  marker.boundary(4);
  record_order_stage(plan);
  marker.end(5);
}

void DevicePipeline::record_step(const FramePlan& plan, int slot, StageMarker& marker) {
  if (plan.step.fused) {
    record_fused_step(plan, slot);
    marker.boundary(1);
    marker.no_work_since_last(2);  // extents ran inside the step
    return;
  }
  cudaStream_t s = stream_.get();
  FrameConstants* c = constants_.data();
  ParticleState* state_out = states_[slot ^ 1].data();
  launch_step(params_, states_[slot].data(), state_out, count_, &c->dt, &c->vertices,
              &c->sprite_scales, s);
  marker.boundary(1);
  launch_extents(state_out, count_, &c->view, &report_.data()->extents, extents_workspace_.data(),
                 s);
  marker.boundary(2);
}

void DevicePipeline::record_fused_step(const FramePlan& plan, int slot) {
  cudaStream_t s = stream_.get();
  FrameConstants* c = constants_.data();
  FusedStepArgs step;
  step.params = params_;
  step.state_in = states_[slot].data();
  step.state_out = states_[slot ^ 1].data();
  // Read before the step overwrites it with the identity (values), each place by its thread.
  step.gather = plan.step.lays_out ? order_.data() : nullptr;
  step.count = count_;
  step.dt = &c->dt;
  step.vertices = &c->vertices;
  step.sprite_scales = &c->sprite_scales;
  step.view = &c->view;
  // A stint's frame of exact keys folds its extents beside the sort, so that the step ends
  // without the combine's tail. (H200, galaxy 1M auto: a build without that combine ran the
  // frame in 49.3 us against 51.3; with the fold beside, 49.7 against 51.0.)
  step.extents_workspace = extents_workspace_.data();
  if (plan.step.extents_as_partials) {
    step.extents_partials = extents_partials_.data();
  } else {
    step.extents = &report_.data()->extents;
  }
  step.keys = plan.step.makes_keys ? keys_.data() : nullptr;
  step.values = plan.step.writes_identity ? order_.data() : nullptr;
  step.key_floor = plan.step.keeps_key_floor ? key_floor_.data() : nullptr;
  if (plan.append == BucketAppend::step) {
    step.append = partition_->append_target();
    // A stint's keys are read only by its overflow sort (no probe, no note_sorted): they stay
    // in the buckets' slots, and reach keys_ only when a bucket overflows. (H200, galaxy 1M auto:
    // 53.5-53.8 -> 52.5-52.7 us, 2M 103.7 -> 101.9; an earlier try, whose bucket kernel still
    // spilled 88 bytes, lost in the sort what the step gained.)
    step.append.keys_by_place = stint_keys_by_place(plan.sort == SortStage::partition_stint);
  }
  launch_step_fused(step, s);
  if (plan.step.extents_as_partials) {  // joined before the frame's end (record_frame)
    CUDA_CHECK(cudaEventRecord(fork_.get(), s));
    CUDA_CHECK(cudaStreamWaitEvent(branch_.get(), fork_.get(), 0));
    launch_extents_fold(extents_partials_.data(), fused_step_blocks(params_.model, count_),
                        &report_.data()->extents, branch_.get());
    CUDA_CHECK(cudaEventRecord(joined_.get(), branch_.get()));
  }
}

void DevicePipeline::record_keys_stage(const FramePlan& plan, int slot, StageMarker& marker) {
  if (plan.keys_stage == KeysStage::none) {
    marker.no_work_since_last(3);
    return;
  }
  DepthKeyArgs keys;
  keys.state = states_[slot ^ 1].data();
  keys.count = count_;
  keys.keys = keys_.data();
  if (plan.keys_stage == KeysStage::requantize) {  // in place; the step made the values
    keys.exact_keys = keys_.data();
    if (plan.append == BucketAppend::keys_stage) keys.append = partition_->append_target();
  } else {
    keys.order = plan.keys_stage == KeysStage::through_last_order ? order_.data() : nullptr;
    keys.values = order_.data();
  }
  keys.view = &constants_.data()->view;
  keys.extents = &report_.data()->extents;
  keys.mode = plan.keys.mode;
  keys.bits = plan.keys.bits;
  keys.metric = plan.keys.metric;
  launch_depth_keys(keys, stream_.get());
  marker.boundary(3);
}

void DevicePipeline::record_sort(const FramePlan& plan) {
  cudaStream_t s = stream_.get();
  switch (plan.sort) {
    case SortStage::unsorted:
    case SortStage::held:
      return;
    case SortStage::auto_choice:
    case SortStage::partition_stint:
      record_auto_sort(plan);
      return;
    case SortStage::radix_to_target:
      // The sorted keys are not kept (nothing reads them). With keys made in the step, the
      // frame's smallest key is their floor: a galaxy frame's depth keys span less than 2^24
      // above it, so the top pass is skipped, and 3 passes, an odd count, need no copy back.
      sorter(Algorithm::radix)
          .sort({.keys = keys_.data(),
                 .values = order_.data(),
                 .n = count_,
                 .begin_bit = 0,
                 .end_bit = plan.keys.bits,
                 .final_values = &constants_.data()->order,
                 .key_floor = plan.step.keeps_key_floor ? key_floor_.data() : nullptr,
                 .values_are_indices = plan.sort_makes_values,
                 .keys_needed = false,
                 .top_digit_crowded = true},
                s);
      return;
    case SortStage::in_place:
      sorter(plan.in_place_sorter).sort(keys_.data(), order_.data(), count_, 0, plan.keys.bits, s);
      return;
  }
}

// Every sort, each enabled by its word, which a one-thread kernel sets from the probe's counts
// (and the partition sort, when it cannot sort, hands to radix): the decision is made on the
// device, in the same frame, without a host round trip. A partition stint's frame has no probe,
// no choice and no other sort: its partition sort always runs, and never refuses.
void DevicePipeline::record_auto_sort(const FramePlan& plan) {
  cudaStream_t s = stream_.get();
  const int end_bit = plan.keys.bits;
  const bool partition_stint = plan.sort == SortStage::partition_stint;
  const bool keys_appended = plan.append != BucketAppend::none;
  // A stint's sort has no fallback: it must be one the partition sort never refuses.
  if (partition_stint && !(keys_appended && partition_buckets(count_) <= kPartitionMaxBuckets))
    throw std::logic_error("a partition stint for keys the partition sort never takes");
  std::int32_t* words = auto_enable_.data();
  FrameReport* report = report_.data();
  if (!partition_stint) {
    // Quantized keys leave the unused high bits zero, so full-word comparisons are exact.
    static_assert(offsetof(FrameReport, strided_descents) ==
                  offsetof(FrameReport, descents) + sizeof(std::uint32_t));
    launch_sortedness_probes(keys_.data(), count_, kAutoProbeStride, &report->descents, s);
    choose_auto_path_kernel<<<1, 1, 0, s>>>(report, words, end_bit);
    CUDA_CHECK_LAUNCH("choose_auto_path_kernel", s);
    sorter(Algorithm::oddeven)
        .sort({.keys = keys_.data(),
               .values = order_.data(),
               .n = count_,
               .begin_bit = 0,
               .end_bit = end_bit,
               .enable = words + kOddEvenRuns},
              s);
  }
  if (plan.tries_partition_sort) {
    const std::int32_t* enable = words + (partition_stint ? kAlwaysOne : kPartitionRuns);
    const PartitionExtras extras{.final_values = &constants_.data()->order,
                                 .note_splitters = true,
                                 // A stint's frame has no finish to turn off.
                                 .finish_enable = partition_stint ? nullptr : words + kFinishRuns,
                                 .keys_by_place = stint_keys_by_place(partition_stint)};
    if (keys_appended) {  // by the step or the keys stage, each with its place as its value
      // Its sorted keys are not kept: when it sorts, it takes the next splitters itself and the
      // finish (note_sorted, their only reader) does not run.
      partition_->sort_appended(nullptr, order_.data(), count_, s, enable, words + kRadixRuns,
                                &report->partitioned, extras);
    } else {
      partition_->sort_enabled(keys_.data(), order_.data(), count_, s, enable, words + kRadixRuns,
                               &report->partitioned, extras);
    }
  }
  if (partition_stint) {
    // A stint's partition sort never refuses: a frame that moved too far, past a bucket's
    // capacity, is sorted in the same kernel by its overflow sort (PartitionExtras::keys_by_place),
    // which ends the stint through the report. No fallback launch: a node fewer on every frame.
    // (H200, galaxy 1M auto: the odd-even exact kernel as a fallback, launched early and returning
    // at once, cost 0.6-0.9 us a frame.) The sort writes the target itself, so a stint's frame has
    // no order stage either.
    return;
  }
  // Unrouted, without the step's key floor: measured on the H200 at 1M (galaxy, exact keys),
  // 3 routed passes plus the copy back of an odd pass count took 95 us, 4 plain ones 90.
  sorter(Algorithm::radix)
      .sort({.keys = keys_.data(),
             .values = order_.data(),
             .n = count_,
             .begin_bit = 0,
             .end_bit = end_bit,
             .enable = words + kRadixRuns,
             .top_digit_crowded = true},
            s);
}

// The GL element buffer's address is read when the copy runs (see FrameConstants). Auto's
// partition sort, when it sorted, wrote the target and its splitters itself (kFinishRuns).
void DevicePipeline::record_order_stage(const FramePlan& plan) {
  cudaStream_t s = stream_.get();
  std::uint32_t* const* target = &constants_.data()->order;  // read when the copy runs
  const std::int32_t* finish =
      plan.sort == SortStage::auto_choice ? auto_enable_.data() + kFinishRuns : nullptr;
  if (plan.order_stage == OrderStage::copy_auto_order_and_splitters) {
    // Whichever path sorted them, keys_ now holds this frame's sorted keys: the splitters of
    // the next frame's partition sort, taken in the copy's launch.
    partition_->note_sorted(keys_.data(), count_, s, finish, {order_.data(), target});
    return;
  }
  // A held frame draws the stale order's last sorted frame's order again.
  const std::uint32_t* drawn =
      plan.order_stage == OrderStage::copy_stale_order ? stale_order_.data() : order_.data();
  detail::copy_values_to_kernel<<<detail::grid_stride_blocks(count_, detail::kCopyThreads, 1),
                                  detail::kCopyThreads, 0, s>>>(drawn, target, count_, finish);
  CUDA_CHECK_LAUNCH("copy_values_to_kernel", s);
}

}  // namespace particles::cuda
