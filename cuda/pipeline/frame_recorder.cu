// Recording one frame from its plan (core/frame_plan.hpp): the stages as stream work, run under
// capture only (cuda/pipeline/frame_graphs.hpp). Every decision was made by plan_frame; this
// file only carries it out. Every pointer but the targets' is owned by the pipeline and fixed
// until reset(); the targets come through FrameConstants.
#include <cstddef>
#include <stdexcept>

#include "cuda/common/check.hpp"
#include "cuda/common/launch_grid.hpp"
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
    // A stint's keys are read only by its overflow sort (no probe, no note_sorted): they stay
    // in the buckets' slots, and reach keys_ only when a bucket overflows (docs/notes/auto.md).
    step.append = auto_.append_target(plan, auto_frame());
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
    if (plan.append == BucketAppend::keys_stage)
      keys.append = auto_.append_target(plan, auto_frame());
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
      auto_.record_sort(plan, auto_frame(),
                        {.oddeven = sorter(Algorithm::oddeven), .radix = sorter(Algorithm::radix)},
                        s);
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

// The GL element buffer's address is read when the copy runs (see FrameConstants).
void DevicePipeline::record_order_stage(const FramePlan& plan) {
  cudaStream_t s = stream_.get();
  if (plan.order_stage == OrderStage::copy_auto_order ||
      plan.order_stage == OrderStage::copy_auto_order_and_splitters) {
    auto_.record_finish(plan, auto_frame(), s);
    return;
  }
  std::uint32_t* const* target = &constants_.data()->order;  // read when the copy runs
  // A held frame draws the stale order's last sorted frame's order again.
  const std::uint32_t* drawn =
      plan.order_stage == OrderStage::copy_stale_order ? stale_order_.data() : order_.data();
  detail::copy_values_to_kernel<<<detail::grid_stride_blocks(count_, detail::kCopyThreads, 1),
                                  detail::kCopyThreads, 0, s>>>(drawn, target, count_, nullptr);
  CUDA_CHECK_LAUNCH("copy_values_to_kernel", s);
}

}  // namespace particles::cuda
