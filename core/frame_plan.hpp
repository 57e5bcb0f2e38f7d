#pragma once
// What one frame of the CUDA backend runs, decided on the host before anything is recorded.
// plan_frame turns the frame's settings and auto's state into named decisions (which stages run,
// which kernel makes the keys, which sort runs and who writes the draw order), and the recorder
// (cuda/pipeline/frame_recorder.cu) only reads them, so that every rule lives here once and
// tests/unit/frame_plan_test.cpp can check all of them on the CPU.
//
// A plan is also the key of the graph cache (cuda/pipeline/frame_graphs.hpp): frames with equal
// plans replay the same graph, and a plan holds nothing that does not change the graph (the
// order error and the comparison view run after it, the step and view come through constants).
#include <stdexcept>

#include "core/algorithm.hpp"
#include "core/frame_types.hpp"

namespace particles {

// What sorts the frame's keys. Exactly one sort path runs on a frame that sorts.
enum class SortStage {
  unsorted,  // nothing sorts; the identity is drawn
  held,      // a stale order's frame between sorts: no keys, no sort, the stale order drawn again
  // The radix sort, its last pass writing the draw order straight into the target (a frame of
  // the radix algorithm, or of auto's radix stint).
  radix_to_target,
  in_place,  // FramePlan::in_place_sorter sorts the pipeline's own order; the order stage copies it
  auto_choice,  // auto's probing frame: a kernel enables one of its sorts on the device
  // A partition stint of auto: the splitter partition sort alone, writing the target itself.
  partition_stint,
};

// The keys stage, a kernel of its own after the step, when the step does not make the keys.
enum class KeysStage {
  none,                // the step made them, or the frame needs none (held)
  from_identity,       // keys of the particles where they lie; the values are the identity
  through_last_order,  // unfused auto: keyed through last frame's order, which it sorts again
  requantize,          // fused auto of quantized keys: remade from the step's exact keys in place
};

// Which kernel appends auto's laid-out keys to the partition sort's buckets as it makes them, so
// that the sort needs no pass of its own to split them.
enum class BucketAppend { none, step, keys_stage };

// The order stage: whether a copy writes the draw order into the target after the sort.
enum class OrderStage {
  none,              // the sort wrote the target itself
  copy_order,        // the pipeline's own order (sorted in place, or the identity)
  copy_stale_order,  // the stale order's last sorted frame's order, again (held)
  // Auto's order, unless its partition sort wrote the target itself (an enable word says).
  copy_auto_order,
  // The same, and the sorted keys become the next frame's splitters (keys wide enough for the
  // partition sort to be tried).
  copy_auto_order_and_splitters,
};

// The fused step: simulate, extents and (when it says so) keys in one kernel. Every field but
// `fused` is false on a frame whose stages run apart.
struct StepPlan {
  bool fused = true;
  // Each particle is read through last frame's order and written at its place in it (auto), so
  // the keys come out already in that order.
  bool lays_out = false;
  bool makes_keys = false;
  bool writes_identity = false;  // the index values of the order the sort starts from
  bool keeps_key_floor = false;  // the frame's smallest key, which the radix sort starts above
  // The extents left as per-block partials and folded on a branch beside the sort, so that the
  // step ends without the combine's tail.
  bool extents_as_partials = false;
  bool operator==(const StepPlan&) const = default;
};

struct FramePlan {
  SortKeys keys;  // what the frame's keys are (made even on an unsorted frame, as before)
  StepPlan step;
  KeysStage keys_stage = KeysStage::none;
  BucketAppend append = BucketAppend::none;
  SortStage sort = SortStage::radix_to_target;
  // The sorter of an in_place frame (oddeven, quicksort or cub); radix for every other stage, so
  // that plans which run the same graph compare equal.
  Algorithm in_place_sorter = Algorithm::radix;
  // The radix sort writes the index values itself from the step's keys (radix_to_target only).
  bool sort_makes_values = false;
  // Auto's splitter partition sort is in the graph: an auto frame of keys wide enough for it to
  // be tried (a partition stint's always are). Narrower keys' frames have no launch of it.
  bool tries_partition_sort = false;
  OrderStage order_stage = OrderStage::none;

  bool operator==(const FramePlan&) const = default;
  // Auto sorts this frame: its order stays last frame's order in the current layout afterwards.
  bool automatic() const noexcept {
    return sort == SortStage::auto_choice || sort == SortStage::partition_stint;
  }
};

// What plan_frame needs of the frame's state beyond its settings.
struct AutoState {
  bool sorts = true;  // StaleSchedule::sorts for this frame
  // The stint auto's schedule picked (AutoSchedule::next_frame): unsorted for none, radix or
  // partition. Only a frame that takes_stints may be given one.
  SortPath stint = SortPath::unsorted;
};

// Invalid settings or state (quantized keys outside 1..32 bits, a stint for a frame that takes
// none, a partition stint for keys the partition sort never takes) throw std::invalid_argument.
FramePlan plan_frame(const FrameSettings& settings, AutoState state);

// Whether `stage`'s work ran inside the fused step (simulate's pass), so that it has no time of
// its own: the HUD and the bench say so rather than show its zero (StageTimes::in_simulate).
constexpr bool runs_in_step(const FramePlan& plan, Stage stage) {
  if (!plan.step.fused) return false;
  if (stage == Stage::extents) return true;
  return stage == Stage::keys && plan.step.makes_keys && plan.keys_stage == KeysStage::none;
}

// Whether frames that ask for this plan (planned without a stint) are the ones auto's schedule
// picks stints for: fused auto's probing frames.
constexpr bool takes_stints(const FramePlan& requested) {
  return requested.sort == SortStage::auto_choice && requested.step.fused;
}

}  // namespace particles
