// plan_frame, on the CPU: every combination of the choices that shape a frame (algorithm, key
// mode and bits, draw order, a stale order's sorting and held frames, fused stages, auto's
// stint) gives a valid plan, and the same plan the CUDA pipeline derived before it had one (its
// record_frame's booleans, transcribed below as the oracle), so that moving those rules here
// changed no recorded graph. tests/gpu/pipeline_plan_test.cpp checks that a frame records the
// plan these tests see.
#include "core/frame_plan.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/auto_policy.hpp"

namespace particles {
namespace {

struct Combination {
  FrameSettings settings;
  AutoState state;
};

std::string describe(const Combination& c) {
  const FrameSettings& s = c.settings;
  std::string d = std::string(to_string(s.algorithm)) + " " + std::string(to_string(s.order));
  d += s.key_mode == KeyMode::exact ? " exact" : " q" + std::to_string(s.key_bits);
  d += " coarse" + std::to_string(s.coarse_bits);
  d += s.fuse_stages ? " fused" : " apart";
  d += c.state.sorts ? " sorts" : " holds";
  return d + " stint:" + to_string(c.state.stint);
}

// Every combination, with key bits on each side of the partition sort's threshold (16) and at
// the ends of their range, and each stint auto's schedule gives (including none).
std::vector<Combination> every_combination() {
  struct Keys {
    KeyMode mode;
    int bits;
  };
  const Keys key_choices[] = {{KeyMode::exact, kDefaultKeyBits},
                              {KeyMode::quantized, 1},
                              {KeyMode::quantized, 16},
                              {KeyMode::quantized, 17},
                              {KeyMode::quantized, 32}};
  std::vector<Combination> all;
  for (Algorithm algorithm : kAllAlgorithms)
    for (const Keys& keys : key_choices)
      for (DrawOrder order : kAllDrawOrders)
        for (int coarse_bits : {kDefaultCoarseBits, 24})
          for (bool fused : {true, false})
            for (bool sorts : {true, false})
              for (SortPath stint : {SortPath::unsorted, SortPath::radix, SortPath::partition}) {
                Combination c;
                c.settings.algorithm = algorithm;
                c.settings.key_mode = keys.mode;
                c.settings.key_bits = keys.bits;
                c.settings.order = order;
                c.settings.coarse_bits = coarse_bits;
                c.settings.fuse_stages = fused;
                c.state = {sorts, stint};
                all.push_back(c);
              }
  return all;
}

// What the CUDA pipeline derived before plan_frame (commit 20e2cb8): DevicePipeline::shape_of,
// run_frame's stint override and record_frame's nine booleans, transcribed as they were.
struct TodaysFrame {
  Algorithm algorithm = Algorithm::radix;
  KeyMode mode = KeyMode::exact;
  int bits = 32;
  bool sort = true;
  bool hold = false;
  DepthMetric metric = DepthMetric::view_depth;
  bool fused = true;
  bool partition_stint = false;
  bool operator==(const TodaysFrame& o) const {  // GraphShape's fields: the cache's old key
    return algorithm == o.algorithm && mode == o.mode && bits == o.bits && sort == o.sort &&
           hold == o.hold && metric == o.metric && fused == o.fused &&
           partition_stint == o.partition_stint;
  }

  bool automatic = false;
  bool layout_in_step = false;
  bool keys_in_step = false;
  bool direct_to_target = false;
  bool sort_makes_values = false;
  bool appends_keys = false;
  bool order_stage = false;
  bool fold_beside = false;  // extents_on_branch was set exactly when this was
  bool keys_stage_runs = false;
  bool step_writes_values = false;
  bool step_key_floor = false;
  bool note_sorted = false;     // the order stage kept the splitters
  bool partition_sort = false;  // record_auto_sort recorded the partition sort
};

TodaysFrame todays_frame(const Combination& c) {
  const FrameSettings& s = c.settings;
  const SortKeys keys = sort_keys_of(s);
  TodaysFrame t;
  t.sort = s.order != DrawOrder::unsorted && c.state.sorts;
  t.hold = s.order == DrawOrder::stale && !c.state.sorts;
  t.algorithm = t.sort ? s.algorithm : Algorithm::radix;
  t.mode = keys.mode;
  t.bits = keys.mode == KeyMode::quantized ? keys.bits : 32;
  t.metric = keys.metric;
  t.fused = s.fuse_stages && keys.metric == DepthMetric::view_depth;
  if (c.state.stint == SortPath::radix) t.algorithm = Algorithm::radix;
  t.partition_stint = c.state.stint == SortPath::partition;

  t.automatic = t.sort && t.algorithm == Algorithm::automatic;
  t.layout_in_step = t.fused && t.automatic;
  t.keys_in_step = t.fused && !t.hold && (t.mode == KeyMode::exact || t.layout_in_step);
  t.direct_to_target = t.sort && !t.automatic && t.algorithm == Algorithm::radix;
  t.sort_makes_values = t.keys_in_step && t.direct_to_target;
  t.appends_keys = t.layout_in_step && partition_sort_worth_trying(t.bits);
  t.order_stage = !t.direct_to_target && !t.partition_stint;
  t.fold_beside = t.fused && t.partition_stint && t.mode == KeyMode::exact;
  t.keys_stage_runs =
      !t.hold && (!t.keys_in_step || (t.layout_in_step && t.mode == KeyMode::quantized));
  t.step_writes_values = t.fused && !(t.sort_makes_values || t.partition_stint);
  t.step_key_floor = t.keys_in_step && !t.automatic;
  t.note_sorted = t.order_stage && t.automatic && partition_sort_worth_trying(t.bits);
  t.partition_sort = t.sort && t.automatic && partition_sort_worth_trying(t.bits);
  return t;
}

// Whether plan_frame must refuse the combination: quantized keys outside 1..32 bits, a stint for
// a frame auto's schedule gives none, a partition stint for keys the partition sort never takes.
bool refused(const Combination& c) {
  const SortKeys keys = sort_keys_of(c.settings);
  if (keys.mode == KeyMode::quantized && (keys.bits < 1 || keys.bits > 32)) return true;
  if (c.state.stint == SortPath::unsorted) return false;
  const FramePlan requested = plan_frame(c.settings, {c.state.sorts, SortPath::unsorted});
  if (!takes_stints(requested)) return true;
  return c.state.stint == SortPath::partition && !partition_sort_worth_trying(keys.bits);
}

bool fixed_in_place(Algorithm a) {
  return a == Algorithm::oddeven || a == Algorithm::quicksort || a == Algorithm::cub;
}

// The invariants of the sort and of who writes the target.
void expect_valid_sort(const FramePlan& p) {
  const bool held = p.sort == SortStage::held;
  const bool wide = partition_sort_worth_trying(p.keys.bits);
  // Keys: quantized ones of 1..32 bits; exact ones of 32.
  if (p.keys.mode == KeyMode::exact) {
    EXPECT_EQ(p.keys.bits, 32);
  }
  EXPECT_TRUE(p.keys.bits >= 1 && p.keys.bits <= 32);
  // One sorter names an in-place sort, and only it; plans of other stages all carry radix.
  EXPECT_EQ(p.sort == SortStage::in_place, fixed_in_place(p.in_place_sorter));
  if (p.sort != SortStage::in_place) {
    EXPECT_EQ(p.in_place_sorter, Algorithm::radix);
  }
  // Exactly one writer of the target: a sort that writes it has no order stage after it, and
  // every other frame has one.
  const bool sort_writes_target =
      p.sort == SortStage::radix_to_target || p.sort == SortStage::partition_stint;
  EXPECT_EQ(p.order_stage == OrderStage::none, sort_writes_target);
  // A held frame makes no keys, sorts nothing and draws the stale order; no other frame does.
  EXPECT_EQ(p.order_stage == OrderStage::copy_stale_order, held);
  if (held) {
    EXPECT_FALSE(p.step.makes_keys);
    EXPECT_EQ(p.keys_stage, KeysStage::none);
    EXPECT_EQ(p.append, BucketAppend::none);
  }
  // Auto's copy runs on auto's probing frames only, keeping splitters exactly for wide keys.
  const bool auto_copy = p.order_stage == OrderStage::copy_auto_order ||
                         p.order_stage == OrderStage::copy_auto_order_and_splitters;
  EXPECT_EQ(auto_copy, p.sort == SortStage::auto_choice);
  if (auto_copy) {
    EXPECT_EQ(p.order_stage == OrderStage::copy_auto_order_and_splitters, wide);
  }
}

// The invariants of the keys, the step and the appends.
void expect_valid_keys(const FramePlan& p) {
  const bool held = p.sort == SortStage::held;
  const bool wide = partition_sort_worth_trying(p.keys.bits);
  // Every frame but a held one makes its keys exactly once from the particles: in the step or
  // in the keys stage; requantizing remakes the step's laid-out keys.
  const bool stage_makes_keys =
      p.keys_stage == KeysStage::from_identity || p.keys_stage == KeysStage::through_last_order;
  if (!held) {
    EXPECT_NE(p.step.makes_keys, stage_makes_keys);
  }
  if (p.keys_stage == KeysStage::requantize) {
    EXPECT_TRUE(p.step.lays_out && p.step.makes_keys);
    EXPECT_EQ(p.keys.mode, KeyMode::quantized);
  }
  EXPECT_EQ(p.keys_stage == KeysStage::through_last_order, p.automatic() && !p.step.fused);
  // The step: only view-depth keys fused; apart, it decides nothing.
  if (p.step.fused) {
    EXPECT_EQ(p.keys.metric, DepthMetric::view_depth);
  }
  if (!p.step.fused) {
    EXPECT_EQ(p.step, StepPlan{.fused = false});
  }
  EXPECT_EQ(p.step.lays_out, p.step.fused && p.automatic());
  EXPECT_FALSE(p.step.keeps_key_floor && !(p.step.makes_keys && !p.automatic()));
  // The partition sort: in auto's graphs of wide keys only. Appends: by the kernel that makes
  // auto's laid-out keys, only where the partition sort is tried.
  EXPECT_EQ(p.tries_partition_sort, p.automatic() && wide);
  EXPECT_EQ(p.append != BucketAppend::none, p.step.lays_out && p.tries_partition_sort);
  if (p.append == BucketAppend::step) {
    EXPECT_EQ(p.keys.mode, KeyMode::exact);
  }
  if (p.append == BucketAppend::keys_stage) {
    EXPECT_EQ(p.keys_stage, KeysStage::requantize);
  }
  // A partition stint: fused auto's, wide keys appended as made, extents folded beside its sort
  // when the step made the keys exactly, and no identity written (its values are places).
  if (p.sort == SortStage::partition_stint) {
    EXPECT_TRUE(p.step.fused && wide && p.append != BucketAppend::none);
    EXPECT_FALSE(p.step.writes_identity);
  }
  EXPECT_EQ(p.step.extents_as_partials,
            p.sort == SortStage::partition_stint && p.keys.mode == KeyMode::exact);
  // The radix sort makes the values only from the step's keys, and then the step does not.
  if (p.sort_makes_values) {
    EXPECT_EQ(p.sort, SortStage::radix_to_target);
    EXPECT_TRUE(p.step.makes_keys && !p.step.writes_identity);
  }
  // A sort from the identity (and an unsorted frame's copy) finds the identity's values made.
  if (p.sort == SortStage::unsorted || p.sort == SortStage::radix_to_target ||
      p.sort == SortStage::in_place) {
    EXPECT_TRUE(p.sort_makes_values || p.step.writes_identity ||
                p.keys_stage == KeysStage::from_identity);
  }
}

// The plan says what the old booleans said, one for one.
void expect_todays(const FramePlan& p, const TodaysFrame& t, const std::string& where) {
  SCOPED_TRACE(where);
  EXPECT_EQ(p.automatic(), t.automatic);
  EXPECT_EQ(p.step.fused, t.fused);
  EXPECT_EQ(p.step.lays_out, t.layout_in_step);
  EXPECT_EQ(p.step.makes_keys, t.keys_in_step);
  EXPECT_EQ(p.sort == SortStage::radix_to_target, t.direct_to_target);
  EXPECT_EQ(p.sort_makes_values, t.sort_makes_values);
  EXPECT_EQ(p.append != BucketAppend::none, t.appends_keys);
  EXPECT_EQ(p.order_stage != OrderStage::none, t.order_stage);
  EXPECT_EQ(p.step.extents_as_partials, t.fold_beside);
  EXPECT_EQ(p.keys_stage != KeysStage::none, t.keys_stage_runs);
  EXPECT_EQ(p.step.writes_identity, t.step_writes_values);
  EXPECT_EQ(p.step.keeps_key_floor, t.step_key_floor);
  EXPECT_EQ(p.order_stage == OrderStage::copy_auto_order_and_splitters, t.note_sorted);
  EXPECT_EQ(p.tries_partition_sort, t.partition_sort);
  EXPECT_EQ(p.order_stage == OrderStage::copy_stale_order, t.order_stage && t.hold);
  EXPECT_EQ(p.sort == SortStage::held, t.hold);
  EXPECT_EQ(p.sort == SortStage::unsorted, !t.sort && !t.hold);
  EXPECT_EQ(p.sort == SortStage::partition_stint, t.partition_stint);
  EXPECT_EQ(p.keys, (SortKeys{t.mode, t.bits, t.metric}));
  if (p.sort == SortStage::in_place) {
    EXPECT_EQ(p.in_place_sorter, t.algorithm);
  }
  if (t.sort && !t.automatic && t.algorithm != Algorithm::radix) {
    EXPECT_EQ(p.sort, SortStage::in_place);
  }
}

TEST(FramePlan, EveryCombinationGivesAValidPlanWithTodaysBooleansOrIsRefused) {
  int planned = 0;
  for (const Combination& c : every_combination()) {
    if (refused(c)) {
      EXPECT_THROW(plan_frame(c.settings, c.state), std::invalid_argument) << describe(c);
      continue;
    }
    const FramePlan plan = plan_frame(c.settings, c.state);
    {
      SCOPED_TRACE(describe(c));
      expect_valid_sort(plan);
      expect_valid_keys(plan);
    }
    expect_todays(plan, todays_frame(c), describe(c));
    ++planned;
  }
  EXPECT_GT(planned, 1000);
}

// The plan replaced GraphShape as the graph cache's key: two frames share a graph exactly when
// they shared one before, so no frame builds a graph it did not build before.
TEST(FramePlan, PlansAreEqualExactlyWhenTheOldGraphShapesWere) {
  std::vector<TodaysFrame> shapes;
  std::vector<FramePlan> plans;
  for (const Combination& c : every_combination()) {
    if (refused(c)) continue;
    const TodaysFrame shape = todays_frame(c);
    const FramePlan plan = plan_frame(c.settings, c.state);
    bool seen = false;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      EXPECT_EQ(shapes[i] == shape, plans[i] == plan) << describe(c);
      seen = seen || shapes[i] == shape;
    }
    if (!seen) {
      shapes.push_back(shape);
      plans.push_back(plan);
    }
  }
  EXPECT_GT(shapes.size(), 50u);
}

TEST(FramePlan, IsPure) {
  for (const Combination& c : every_combination()) {
    if (!refused(c)) {
      EXPECT_EQ(plan_frame(c.settings, c.state), plan_frame(c.settings, c.state));
    }
  }
}

// Spot checks, each against what record_frame did for that frame (written out by hand).

TEST(FramePlan, FusedExactRadixMakesKeysInTheStepAndSortsIntoTheTarget) {
  const FramePlan p = plan_frame(FrameSettings{}, {});
  EXPECT_EQ(p.step, (StepPlan{.fused = true,
                              .lays_out = false,
                              .makes_keys = true,
                              .writes_identity = false,
                              .keeps_key_floor = true,
                              .extents_as_partials = false}));
  EXPECT_EQ(p.keys_stage, KeysStage::none);
  EXPECT_EQ(p.sort, SortStage::radix_to_target);
  EXPECT_TRUE(p.sort_makes_values);
  EXPECT_EQ(p.order_stage, OrderStage::none);
  EXPECT_EQ(p.append, BucketAppend::none);
  EXPECT_EQ(p.keys, (SortKeys{KeyMode::exact, 32, DepthMetric::view_depth}));
}

TEST(FramePlan, FusedQuantizedRadixMakesKeysInTheirOwnStageFromTheIdentity) {
  FrameSettings s;
  s.key_mode = KeyMode::quantized;
  s.key_bits = 16;
  const FramePlan p = plan_frame(s, {});
  EXPECT_EQ(p.step, (StepPlan{.fused = true, .writes_identity = true}));
  EXPECT_EQ(p.keys_stage, KeysStage::from_identity);
  EXPECT_EQ(p.sort, SortStage::radix_to_target);
  EXPECT_FALSE(p.sort_makes_values);
  EXPECT_EQ(p.order_stage, OrderStage::none);
  EXPECT_EQ(p.keys.bits, 16);
}

TEST(FramePlan, FixedSortersOtherThanRadixSortInPlaceBehindACopy) {
  for (Algorithm a : {Algorithm::oddeven, Algorithm::quicksort, Algorithm::cub}) {
    FrameSettings s;
    s.algorithm = a;
    const FramePlan p = plan_frame(s, {});
    EXPECT_EQ(p.sort, SortStage::in_place);
    EXPECT_EQ(p.in_place_sorter, a);
    EXPECT_EQ(p.order_stage, OrderStage::copy_order);
    // The step still keeps the key floor, which nothing reads here, as record_frame did.
    EXPECT_EQ(
        p.step,
        (StepPlan{
            .fused = true, .makes_keys = true, .writes_identity = true, .keeps_key_floor = true}));
  }
}

TEST(FramePlan, FusedAutoLaysOutAndAppendsWideKeysInTheStep) {
  FrameSettings s;
  s.algorithm = Algorithm::automatic;
  const FramePlan p = plan_frame(s, {});
  EXPECT_EQ(
      p.step,
      (StepPlan{.fused = true, .lays_out = true, .makes_keys = true, .writes_identity = true}));
  EXPECT_EQ(p.keys_stage, KeysStage::none);
  EXPECT_EQ(p.append, BucketAppend::step);
  EXPECT_EQ(p.sort, SortStage::auto_choice);
  EXPECT_EQ(p.order_stage, OrderStage::copy_auto_order_and_splitters);
  EXPECT_TRUE(p.tries_partition_sort);
  EXPECT_TRUE(takes_stints(p));
}

TEST(FramePlan, FusedAutoRequantizesTheStepsKeysAndAppendsOnlyWideOnes) {
  FrameSettings s;
  s.algorithm = Algorithm::automatic;
  s.key_mode = KeyMode::quantized;
  s.key_bits = 16;
  FramePlan p = plan_frame(s, {});
  EXPECT_TRUE(p.step.lays_out && p.step.makes_keys);
  EXPECT_EQ(p.keys_stage, KeysStage::requantize);
  EXPECT_EQ(p.append, BucketAppend::none);
  EXPECT_FALSE(p.tries_partition_sort);  // two radix passes cost less: no launch of it at all
  EXPECT_EQ(p.order_stage, OrderStage::copy_auto_order);
  s.key_bits = 24;
  p = plan_frame(s, {});
  EXPECT_EQ(p.append, BucketAppend::keys_stage);
  EXPECT_EQ(p.order_stage, OrderStage::copy_auto_order_and_splitters);
}

TEST(FramePlan, UnfusedAutoKeysThroughLastFramesOrderAndTakesNoStints) {
  FrameSettings s;
  s.algorithm = Algorithm::automatic;
  s.fuse_stages = false;
  const FramePlan p = plan_frame(s, {});
  EXPECT_EQ(p.step, StepPlan{.fused = false});
  EXPECT_EQ(p.keys_stage, KeysStage::through_last_order);
  EXPECT_EQ(p.append, BucketAppend::none);
  EXPECT_EQ(p.sort, SortStage::auto_choice);
  EXPECT_FALSE(takes_stints(p));
  EXPECT_THROW(plan_frame(s, {true, SortPath::radix}), std::invalid_argument);
}

TEST(FramePlan, ARadixStintRunsTheRadixFramesGraph) {
  FrameSettings s;
  s.algorithm = Algorithm::automatic;
  FrameSettings radix = s;
  radix.algorithm = Algorithm::radix;
  EXPECT_EQ(plan_frame(s, {true, SortPath::radix}), plan_frame(radix, {}));
}

TEST(FramePlan, APartitionStintSortsIntoTheTargetAndFoldsExactExtentsBeside) {
  FrameSettings s;
  s.algorithm = Algorithm::automatic;
  const FramePlan p = plan_frame(s, {true, SortPath::partition});
  EXPECT_EQ(p.sort, SortStage::partition_stint);
  EXPECT_EQ(p.step, (StepPlan{.fused = true,
                              .lays_out = true,
                              .makes_keys = true,
                              .writes_identity = false,
                              .extents_as_partials = true}));
  EXPECT_EQ(p.append, BucketAppend::step);
  EXPECT_EQ(p.order_stage, OrderStage::none);
  s.key_mode = KeyMode::quantized;
  s.key_bits = 24;
  EXPECT_FALSE(plan_frame(s, {true, SortPath::partition}).step.extents_as_partials);
  s.key_bits = 16;
  EXPECT_THROW(plan_frame(s, {true, SortPath::partition}), std::invalid_argument);
}

TEST(FramePlan, AStaleOrdersHeldFrameMakesNoKeysAndDrawsTheStaleOrder) {
  FrameSettings s;
  s.order = DrawOrder::stale;
  const FramePlan held = plan_frame(s, {false, SortPath::unsorted});
  EXPECT_EQ(held.sort, SortStage::held);
  EXPECT_EQ(held.step, (StepPlan{.fused = true, .writes_identity = true}));
  EXPECT_EQ(held.keys_stage, KeysStage::none);
  EXPECT_EQ(held.order_stage, OrderStage::copy_stale_order);
  // Its sorting frames run the exact order's graph.
  EXPECT_EQ(plan_frame(s, {}), plan_frame(FrameSettings{}, {}));
}

TEST(FramePlan, UnsortedFramesStillMakeTheirKeysAndCopyTheIdentity) {
  FrameSettings s;
  s.order = DrawOrder::unsorted;
  s.algorithm = Algorithm::cub;
  const FramePlan p = plan_frame(s, {});
  EXPECT_EQ(p.sort, SortStage::unsorted);
  EXPECT_EQ(p.in_place_sorter, Algorithm::radix);
  EXPECT_TRUE(p.step.makes_keys && p.step.writes_identity);
  EXPECT_EQ(p.order_stage, OrderStage::copy_order);
}

TEST(FramePlan, EyeDistanceKeysRunTheStagesApart) {
  FrameSettings s;
  s.order = DrawOrder::eye_distance;
  const FramePlan p = plan_frame(s, {});
  EXPECT_EQ(p.keys, (SortKeys{KeyMode::exact, 32, DepthMetric::eye_distance}));
  EXPECT_FALSE(p.step.fused);
  EXPECT_EQ(p.keys_stage, KeysStage::from_identity);
  EXPECT_EQ(p.sort, SortStage::radix_to_target);
}

TEST(FramePlan, CoarseOrdersSortQuantizedKeysOfCoarseBits) {
  FrameSettings s;
  s.order = DrawOrder::coarse;
  s.coarse_bits = 6;
  EXPECT_EQ(plan_frame(s, {}).keys, (SortKeys{KeyMode::quantized, 6, DepthMetric::view_depth}));
}

TEST(FramePlan, RefusesKeyBitsOutsideTheirRange) {
  FrameSettings s;
  s.key_mode = KeyMode::quantized;
  for (int bits : {0, 33}) {
    s.key_bits = bits;
    EXPECT_THROW(plan_frame(s, {}), std::invalid_argument) << bits;
  }
  s.key_mode = KeyMode::exact;  // bits of exact keys do not apply
  EXPECT_NO_THROW(plan_frame(s, {}));
  s.order = DrawOrder::coarse;
  s.coarse_bits = 0;
  EXPECT_THROW(plan_frame(s, {}), std::invalid_argument);
}

TEST(FramePlan, RefusesStintsThatAreNotPaths) {
  FrameSettings s;
  s.algorithm = Algorithm::automatic;
  for (SortPath stint : {SortPath::oddeven, SortPath::skipped_sorted, SortPath::held}) {
    EXPECT_THROW(plan_frame(s, {true, stint}), std::invalid_argument) << to_string(stint);
  }
}

}  // namespace
TEST(FramePlan, StagesRunInTheStepOnlyWhereTheStepDoesTheirWork) {
  FrameSettings fused_exact;
  const FramePlan exact = plan_frame(fused_exact, {});
  EXPECT_TRUE(runs_in_step(exact, Stage::extents));
  EXPECT_TRUE(runs_in_step(exact, Stage::keys));
  EXPECT_FALSE(runs_in_step(exact, Stage::simulate));
  EXPECT_FALSE(runs_in_step(exact, Stage::sort));

  FrameSettings quantized = fused_exact;  // the keys stage requantizes: a time of its own
  quantized.key_mode = KeyMode::quantized;
  quantized.key_bits = 16;
  const FramePlan q = plan_frame(quantized, {});
  EXPECT_TRUE(runs_in_step(q, Stage::extents));
  EXPECT_FALSE(runs_in_step(q, Stage::keys));

  FrameSettings apart = fused_exact;
  apart.fuse_stages = false;
  const FramePlan a = plan_frame(apart, {});
  for (int s = 0; s < kStageCount; ++s) EXPECT_FALSE(runs_in_step(a, static_cast<Stage>(s)));
}

}  // namespace particles
