#include "core/frame_plan.hpp"

#include <string>

#include "core/auto_policy.hpp"

namespace particles {
namespace {

SortKeys checked_keys(const FrameSettings& s) {
  const SortKeys keys = sort_keys_of(s);
  if (keys.mode == KeyMode::quantized && (keys.bits < 1 || keys.bits > 32)) {
    throw std::invalid_argument(
        std::string(s.order == DrawOrder::coarse ? "coarse_bits" : "key_bits") +
        " must be in 1..32, got " + std::to_string(keys.bits));
  }
  return keys;
}

// The sort path before any stint: the draw order decides whether the frame sorts, the algorithm
// which sort runs. The radix sort always writes the target itself; the other fixed algorithms
// sort in place, behind a copy.
SortStage requested_sort(const FrameSettings& s, bool sorts) {
  if (s.order == DrawOrder::unsorted || !sorts) {
    return s.order == DrawOrder::stale && !sorts ? SortStage::held : SortStage::unsorted;
  }
  switch (s.algorithm) {
    case Algorithm::radix:
      return SortStage::radix_to_target;
    case Algorithm::automatic:
      return SortStage::auto_choice;
    default:
      return SortStage::in_place;
  }
}

// A stint replaces auto's probing frame by the graph of one path: a radix stint's frame is a
// radix frame, a partition stint's the partition sort alone.
SortStage with_stint(SortStage requested, bool fused, SortPath stint, int key_bits) {
  if (stint == SortPath::unsorted) return requested;
  if (stint != SortPath::radix && stint != SortPath::partition) {
    throw std::invalid_argument("a stint is radix or partition, got " +
                                std::string(to_string(stint)));
  }
  if (requested != SortStage::auto_choice || !fused) {
    throw std::invalid_argument("a stint for a frame that is not fused auto's");
  }
  if (stint == SortPath::radix) return SortStage::radix_to_target;
  // The stint's sort has no fallback, so it must be one the partition sort takes.
  if (!partition_sort_worth_trying(key_bits)) {
    throw std::invalid_argument("a partition stint for keys the partition sort never takes");
  }
  return SortStage::partition_stint;
}

// Exact keys need only the view, so the fused step makes them. Auto's fused step lays the
// particles out in last frame's order, so its keys come out in that order with no gather of their
// own; quantized ones are then remade from them in place by the keys stage.
StepPlan step_of(const FramePlan& p, bool fused) {
  StepPlan step;
  step.fused = fused;
  if (!fused) return step;
  const bool automatic = p.automatic();
  const bool partition_stint = p.sort == SortStage::partition_stint;
  step.lays_out = automatic;
  // A held frame makes no keys: it sorts nothing and draws the stale order again.
  step.makes_keys = p.sort != SortStage::held && (p.keys.mode == KeyMode::exact || automatic);
  // The radix sort that writes the target makes the index values itself from the step's keys;
  // a partition stint's sorts take the keys' places as their values, and order_ keeps last
  // frame's order until the sort overwrites it.
  const bool sort_makes_values = step.makes_keys && p.sort == SortStage::radix_to_target;
  step.writes_identity = !sort_makes_values && !partition_stint;
  step.keeps_key_floor = step.makes_keys && !automatic;  // read by the radix sort only
  // A stint of exact keys needs its extents only in the report, so they are folded beside the
  // sort. Quantized keys are made from the extents, and radix's frame needs the key floor (the
  // combine's extra minimum) before its sort: both keep the combine in the step.
  step.extents_as_partials = partition_stint && p.keys.mode == KeyMode::exact;
  return step;
}

KeysStage keys_stage_of(const FramePlan& p) {
  if (p.sort == SortStage::held) return KeysStage::none;
  if (p.step.lays_out) {
    return p.keys.mode == KeyMode::quantized ? KeysStage::requantize : KeysStage::none;
  }
  if (p.step.makes_keys) return KeysStage::none;
  // Unfused auto keys last frame's order in place; the others start from the identity.
  return p.automatic() ? KeysStage::through_last_order : KeysStage::from_identity;
}

BucketAppend append_of(const FramePlan& p) {
  if (!p.step.lays_out || !p.tries_partition_sort) return BucketAppend::none;
  return p.keys.mode == KeyMode::exact ? BucketAppend::step : BucketAppend::keys_stage;
}

// Auto's partition sort, when it sorted, writes the target and its splitters itself, which the
// copy's enable word says; wide keys' sorted keys are the next frame's splitters.
OrderStage order_stage_of(const FramePlan& p) {
  switch (p.sort) {
    case SortStage::radix_to_target:
    case SortStage::partition_stint:
      return OrderStage::none;
    case SortStage::held:
      return OrderStage::copy_stale_order;
    case SortStage::auto_choice:
      return p.tries_partition_sort ? OrderStage::copy_auto_order_and_splitters
                                    : OrderStage::copy_auto_order;
    default:
      return OrderStage::copy_order;
  }
}

}  // namespace

FramePlan plan_frame(const FrameSettings& settings, AutoState state) {
  FramePlan p;
  p.keys = checked_keys(settings);
  // The fused step makes view-depth keys only: eye keys come from the keys stage.
  const bool fused = settings.fuse_stages && p.keys.metric == DepthMetric::view_depth;
  p.sort = with_stint(requested_sort(settings, state.sorts), fused, state.stint, p.keys.bits);
  if (p.sort == SortStage::in_place) p.in_place_sorter = settings.algorithm;
  p.tries_partition_sort = p.automatic() && partition_sort_worth_trying(p.keys.bits);
  p.step = step_of(p, fused);
  p.keys_stage = keys_stage_of(p);
  p.append = append_of(p);
  p.sort_makes_values = p.step.makes_keys && p.sort == SortStage::radix_to_target;
  p.order_stage = order_stage_of(p);
  return p;
}

}  // namespace particles
