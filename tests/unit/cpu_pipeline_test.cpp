#include "core/cpu_pipeline.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "core/auto_policy.hpp"
#include "core/camera.hpp"
#include "core/models/model_names.hpp"
#include "core/scene_models.hpp"
#include "tests/unit/test_points.hpp"

namespace particles {
namespace {

DepthFrame test_view() {
  CameraPose pose;
  return depth_frame(camera_matrices(pose, 16.0f / 9.0f, 0.1f, 1000.0f));
}

TEST(CpuSortOrder, StableForEqualKeys) {
  const std::vector<std::uint32_t> keys = {5, 1, 5, 1, 3, 5, 1};
  std::vector<std::uint32_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0u);
  SortScratch scratch;
  cpu_sort_order(keys, order, scratch);
  EXPECT_EQ(order, (std::vector<std::uint32_t>{1, 3, 6, 4, 0, 2, 5}));
}

TEST(CpuSortOrder, TiesKeepTheIncomingOrder) {
  const std::vector<std::uint32_t> keys = {7, 7, 7, 2};
  std::vector<std::uint32_t> order = {2, 0, 3, 1};
  SortScratch scratch;
  cpu_sort_order(keys, order, scratch);
  EXPECT_EQ(order, (std::vector<std::uint32_t>{3, 2, 0, 1}));
}

TEST(CpuSortOrder, MatchesStdStableSortOnRandomKeys) {
  std::mt19937 rng(7);
  std::vector<std::uint32_t> keys(5000);
  for (auto& k : keys) k = static_cast<std::uint32_t>(rng() % 97);  // many ties
  std::vector<std::uint32_t> order(keys.size()), expected(keys.size());
  std::iota(order.begin(), order.end(), 0u);
  std::iota(expected.begin(), expected.end(), 0u);
  std::stable_sort(expected.begin(), expected.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
  SortScratch scratch;
  cpu_sort_order(keys, order, scratch);
  EXPECT_EQ(order, expected);
}

TEST(CpuSortOrder, MatchesStdStableSortOnFullWidthKeysFromAnyOrder) {
  // Keys over all four bytes (every radix pass runs), a shuffled incoming order, and the edge
  // sizes: the radix sort is stable, so it must equal std::stable_sort exactly.
  std::mt19937 rng(11);
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{70000}}) {
    std::vector<std::uint32_t> keys(n);
    for (auto& k : keys) k = rng() % 3 == 0 ? 0xdeadbeefu : static_cast<std::uint32_t>(rng());
    std::vector<std::uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<std::uint32_t> expected = order;
    std::stable_sort(expected.begin(), expected.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
    SortScratch scratch;
    cpu_sort_order(keys, order, scratch);
    EXPECT_EQ(order, expected) << n << " keys";
    // The scratch is reused across frames of other sizes.
    cpu_sort_order(keys, order, scratch);
    EXPECT_EQ(order, expected) << n << " keys, sorted again";
  }
}

TEST(CpuStages, OverAllCoresEqualTheSerialLoopBitForBit) {
  // The CPU backend is the GPU tests' oracle, so its threaded stages must compute exactly what a
  // plain loop over the same scene math does.
  for (Model model : kAllModels) {
    ModelParams params;
    params.model = model;
    params = test::with_test_points(params);
    const std::size_t n = 200003;  // not a multiple of any thread count
    std::vector<ParticleState> state(n), serial(n);
    for (std::size_t i = 0; i < n; ++i)
      state[i] = model_init(params, static_cast<std::uint32_t>(i));
    serial = state;
    const DepthFrame view = test_view();
    for (int frame = 0; frame < 3; ++frame) {
      cpu_simulate(params, state, 0.02f);
      for (ParticleState& s : serial) model_step(params, s, 0.02f);
    }
    ASSERT_EQ(0, std::memcmp(state.data(), serial.data(), n * sizeof(ParticleState)));

    const Extents e = cpu_extents(state, view);
    Extents want;
    for (const ParticleState& s : serial) {
      extents_add(want, position_of(s), view_depth(view, position_of(s)), speed_of(s));
    }
    EXPECT_EQ(0, std::memcmp(&e, &want, sizeof e));

    for (KeyMode mode : {KeyMode::exact, KeyMode::quantized}) {
      std::vector<std::uint32_t> keys(n);
      cpu_depth_keys(state, view, mode, 16, e, keys);
      for (std::size_t i = 0; i < n; i += 997) {
        const float depth = view_depth(view, position_of(serial[i]));
        const std::uint32_t k = mode == KeyMode::exact
                                    ? exact_depth_key(depth)
                                    : quantized_depth_key(depth, e.depth_min, e.depth_max, 16);
        ASSERT_EQ(keys[i], k) << i;
      }
    }
    std::vector<ParticleVertex> vertices(n);
    cpu_write_vertices(params, state, vertices);
    for (std::size_t i = 0; i < n; i += 997) {
      const ParticleVertex v = model_vertex(params, serial[i]);
      ASSERT_EQ(0, std::memcmp(&vertices[i], &v, sizeof v)) << i;
    }
  }
}

TEST(CpuCountDescents, CountsAdjacentInversions) {
  const std::vector<std::uint32_t> keys = {1, 2, 3, 4};
  EXPECT_EQ(cpu_count_descents(keys, std::vector<std::uint32_t>{0, 1, 2, 3}), 0u);
  EXPECT_EQ(cpu_count_descents(keys, std::vector<std::uint32_t>{3, 2, 1, 0}), 3u);
  EXPECT_EQ(cpu_count_descents(keys, std::vector<std::uint32_t>{1, 0, 3, 2}), 2u);
}

TEST(CpuCountStridedDescents, SeesFarMovesButNotLocalJitter) {
  // Every neighbouring pair swapped: half the adjacent pairs descend, yet nothing is far off.
  std::vector<std::uint32_t> keys(10000), order(10000);
  for (std::uint32_t i = 0; i < keys.size(); ++i) keys[i] = i ^ 1u;
  std::iota(order.begin(), order.end(), 0u);
  EXPECT_GT(cpu_count_descents(keys, order), 4000u);
  EXPECT_EQ(cpu_count_strided_descents(keys, order, 16), 0u);
  EXPECT_EQ(choose_auto_path(1, 0), SortPath::oddeven);
  // One element moved 5000 places: strided pairs see it.
  std::swap(keys[10], keys[5010]);
  EXPECT_GT(cpu_count_strided_descents(keys, order, 16), 0u);
  EXPECT_EQ(choose_auto_path(1, 1), SortPath::radix);
  EXPECT_EQ(choose_auto_path(0, 0), SortPath::skipped_sorted);
}

TEST(AutoPolicy, PartitionSortWaitsAfterAFailedTry) {
  PartitionTries tries;
  tries = next_partition_tries(tries, false, SortPath::radix, 32);
  EXPECT_TRUE(tries.tried);
  // Not for 16-bit keys, nor for frames the policy does not send to radix.
  EXPECT_FALSE(next_partition_tries({}, false, SortPath::radix, 16).tried);
  EXPECT_FALSE(next_partition_tries({}, false, SortPath::oddeven, 32).tried);
  EXPECT_FALSE(next_partition_tries({}, false, SortPath::skipped_sorted, 32).tried);
  // A failed try: the next kPartitionRetryAfter - 1 frames do not try, the one after does.
  tries = next_partition_tries(tries, true, SortPath::radix, 32);
  for (int f = 1; f < kPartitionRetryAfter; ++f) {
    EXPECT_FALSE(tries.tried) << f;
    tries = next_partition_tries(tries, false, SortPath::radix, 32);
  }
  EXPECT_TRUE(tries.tried);
  EXPECT_EQ(tries.wait, 0);
}

TEST(AutoPolicy, FirstFrameAfterResetDoesNotTryThePartitionSort) {
  const PartitionTries frame0 =
      next_partition_tries(kPartitionTriesAfterReset, false, SortPath::radix, 32);
  EXPECT_FALSE(frame0.tried);  // no splitters yet
  const PartitionTries frame1 = next_partition_tries(frame0, false, SortPath::radix, 32);
  EXPECT_TRUE(frame1.tried);  // frame 0's sort left them
}

TEST(AutoPolicy, FramesEndingInOnePathStartAStintOfIt) {
  for (SortPath path : {SortPath::radix, SortPath::partition}) {
    SCOPED_TRACE(to_string(path));
    AutoStint s;
    for (int f = 1; f < kAutoStintStreak; ++f) {
      s = after_auto_report(s, path);
      EXPECT_EQ(s.left, 0) << f;
    }
    s = after_auto_report(s, path);
    EXPECT_EQ(s.left, kAutoStint);
    EXPECT_EQ(s.path, path);
    EXPECT_EQ(s.streak, 0);
  }
  // Any other path breaks a streak, and so does the other stint path.
  for (SortPath other : {SortPath::partition, SortPath::oddeven, SortPath::skipped_sorted}) {
    AutoStint t = after_auto_report({}, SortPath::radix);
    t = after_auto_report(t, other);
    EXPECT_EQ(t.streak, other == SortPath::partition ? 1 : 0);
    t = after_auto_report(t, SortPath::radix);
    EXPECT_EQ(t.left, 0) << to_string(other);
  }
  // A report arriving during a stint does not shorten it.
  AutoStint during{SortPath::radix, 0, 5, kAutoStint};
  during = after_auto_report(during, SortPath::oddeven);
  EXPECT_EQ(during.left, 5);
}

// The probing frames after a stint that choose its path again start a stint twice as long, up to
// the longest; any other path, or a stint of the other path, starts over.
TEST(AutoPolicy, StintsOfOnePathInARowDoubleUpToTheLongest) {
  for (SortPath path : {SortPath::radix, SortPath::partition}) {
    SCOPED_TRACE(to_string(path));
    AutoStint s;
    std::vector<int> lengths;
    for (int stint = 0; stint < 6; ++stint) {
      s.streak = 0;  // as the pipeline does once a stint has run (its frames report no streak)
      for (int f = 0; f < kAutoStintStreak; ++f) s = after_auto_report(s, path);
      lengths.push_back(s.left);
      s.left = 0;  // the stint ran
    }
    EXPECT_EQ(lengths, (std::vector<int>{kAutoStint, 2 * kAutoStint, 4 * kAutoStint,
                                         kAutoStintLongest, kAutoStintLongest, kAutoStintLongest}));
    static_assert(4 * kAutoStint == kAutoStintLongest, "the lengths above");
    for (SortPath other : {SortPath::oddeven, SortPath::skipped_sorted,
                           path == SortPath::radix ? SortPath::partition : SortPath::radix}) {
      AutoStint t = after_auto_report(s, other);
      for (int f = 0; f < kAutoStintStreak; ++f) t = after_auto_report(t, path);
      EXPECT_EQ(t.left, kAutoStint) << to_string(other);
    }
    EXPECT_EQ(after_auto_report(AutoStint{}, path).length, 0);  // a reset state starts over
  }
}

class CpuPipelineTest : public ::testing::TestWithParam<std::tuple<Model, Algorithm, KeyMode>> {};

// Every frame's order is strictly far-to-near (by depth recomputed here, not by the pipeline's
// own keys) and stable for equal keys.
TEST_P(CpuPipelineTest, EveryFrameIsOrderedFarToNear) {
  const auto [model, algorithm, key_mode] = GetParam();
  ModelParams params;
  params.model = model;
  params = test::with_test_points(params);
  CpuPipeline pipeline;
  pipeline.reset(params, 4000);
  FrameSettings settings;
  settings.view = test_view();
  settings.algorithm = algorithm;
  settings.key_mode = key_mode;
  settings.key_bits = 10;  // coarse buckets: plenty of ties to check stability on
  std::vector<std::uint32_t> previous_order(pipeline.order().begin(), pipeline.order().end());
  for (int frame = 0; frame < 30; ++frame) {
    const FrameInfo info = pipeline.run_frame(settings);
    const auto order = pipeline.order();
    const auto keys = pipeline.keys();
    const auto state = pipeline.state();
    ASSERT_EQ(order.size(), 4000u);
    std::vector<std::uint32_t> rank_before(order.size());
    for (std::uint32_t i = 0; i < previous_order.size(); ++i) rank_before[previous_order[i]] = i;
    for (std::size_t i = 1; i < order.size(); ++i) {
      const float far = view_depth(settings.view, position_of(state[order[i - 1]]));
      const float near = view_depth(settings.view, position_of(state[order[i]]));
      if (key_mode == KeyMode::exact) {
        ASSERT_GE(far, near) << "frame " << frame << " at " << i;
      }
      ASSERT_LE(keys[order[i - 1]], keys[order[i]]);
      if (keys[order[i - 1]] == keys[order[i]]) {
        // ties: identity order for the direct algorithms and auto's radix stints, last frame's
        // order for auto's other frames
        if (algorithm == Algorithm::automatic && pipeline.last_auto_stint() != SortPath::radix) {
          ASSERT_LT(rank_before[order[i - 1]], rank_before[order[i]]);
        } else {
          ASSERT_LT(order[i - 1], order[i]);
        }
      }
    }
    EXPECT_FALSE(info.extents.empty());
    previous_order.assign(order.begin(), order.end());
  }
}

INSTANTIATE_TEST_SUITE_P(AllModels, CpuPipelineTest,
                         ::testing::Combine(::testing::ValuesIn(kAllModels),
                                            ::testing::ValuesIn(kAllAlgorithms),
                                            ::testing::Values(KeyMode::exact, KeyMode::quantized)));

// The points model over the whole CPU frame, every motion and algorithm: each frame's order is
// exactly far-to-near by depth recomputed from the points (the motion's own formula, not the
// pipeline's state), and every vertex is its point's, coloured as the file said.
class CpuPointsTest : public ::testing::TestWithParam<std::tuple<PointMotion, Algorithm>> {};

TEST_P(CpuPointsTest, EveryFrameIsExactlyOrderedAndEveryVertexIsItsPoint) {
  const auto [motion, algorithm] = GetParam();
  ModelParams params;
  params.model = Model::points;
  params = test::with_test_points(params, motion);
  const auto& points = test::test_points();
  for (std::uint32_t n : {1u, 1000u, 7919u}) {  // subsampled, and each point repeated
    CpuPipeline pipeline;
    pipeline.reset(params, n);
    FrameSettings settings;
    settings.algorithm = algorithm;
    CameraPose pose;
    pose.distance = 12.0f;
    ParticleState clock{};
    for (int frame = 0; frame < 40; ++frame) {
      pose.yaw_deg = 9.0f * static_cast<float>(frame);
      settings.view = depth_frame(camera_matrices(pose, 16.0f / 9.0f, 0.1f, 1000.0f));
      settings.dt = frame == 20 ? 0.0f : 1.0f / 30.0f;
      pipeline.run_frame(settings);
      if (settings.dt != 0.0f) points_step(params.points, clock, settings.dt);
      const auto order = pipeline.order();
      const auto vertices = pipeline.vertices();
      std::vector<float> depth(n);
      for (std::uint32_t i = 0; i < n; ++i) {
        const PointRecord& p = points[static_cast<std::uint64_t>(i) * points.size() / n];
        ParticleState s = clock;
        s.seed = 0;
        points_place(params.points, p, s);
        ASSERT_EQ(vertices[i].x, s.px) << "frame " << frame << " particle " << i;
        ASSERT_EQ(vertices[i].y, s.py);
        ASSERT_EQ(vertices[i].z, s.pz);
        ASSERT_EQ(vertices[i].rgba8, p.rgba8);
        depth[i] = view_depth(settings.view, position_of(s));
      }
      for (std::uint32_t i = 1; i < n; ++i) {
        ASSERT_GE(depth[order[i - 1]], depth[order[i]]) << "frame " << frame << " at " << i;
        if (depth[order[i - 1]] == depth[order[i]] && algorithm != Algorithm::automatic) {
          ASSERT_LT(order[i - 1], order[i]);  // ties (repeated points) keep the index order
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Motions, CpuPointsTest,
                         ::testing::Combine(::testing::Values(PointMotion::still,
                                                              PointMotion::turntable,
                                                              PointMotion::breathing),
                                            ::testing::ValuesIn(kAllAlgorithms)));

TEST(CpuPoints, ResetRefusesACloudWithoutPoints) {
  ModelParams params;
  params.model = Model::points;
  CpuPipeline pipeline;
  EXPECT_THROW(pipeline.reset(params, 10), std::invalid_argument);
}

TEST(CpuPoints, ResetCopiesTheCloud) {
  // The pipeline keeps its own copy: the scene's points may go away after the reset.
  std::vector<PointRecord> points = {{1, 2, 3, 0x11223344u}, {4, 5, 6, 0x55667788u}};
  ModelParams params;
  params.model = Model::points;
  params.points.records = points.data();
  params.points.record_count = 2;
  CpuPipeline pipeline;
  pipeline.reset(params, 4);
  points.assign(2, PointRecord{0, 0, 0, 0});
  FrameSettings settings;
  settings.view = test_view();
  pipeline.run_frame(settings);
  EXPECT_EQ(pipeline.vertices()[0].x, 1.0f);
  EXPECT_EQ(pipeline.vertices()[1].rgba8, 0x11223344u);  // 4 particles: each point twice
  EXPECT_EQ(pipeline.vertices()[2].rgba8, 0x55667788u);
  EXPECT_EQ(pipeline.vertices()[3].z, 6.0f);
}

// The one pass that steps the particles also measures the extents and makes exact view-depth
// keys: the frame says those stages ran in simulate, so the HUD and the bench do not show their
// zeros as times. Quantized and eye-distance keys are made in their own stage.
TEST(CpuPipeline, ReportsWhichStagesRanInSimulatesPass) {
  ModelParams params;
  params = test::with_test_points(params);
  CpuPipeline pipeline;
  pipeline.reset(params, 1000);
  FrameSettings settings;
  settings.view = test_view();
  const auto in_simulate = [&](Stage s) {
    return pipeline.run_frame(settings).stages.in_simulate[static_cast<int>(s)];
  };
  EXPECT_FALSE(in_simulate(Stage::simulate));
  EXPECT_TRUE(in_simulate(Stage::extents));
  EXPECT_TRUE(in_simulate(Stage::keys));
  EXPECT_FALSE(in_simulate(Stage::sort));
  EXPECT_FALSE(in_simulate(Stage::order));
  settings.key_mode = KeyMode::quantized;
  EXPECT_TRUE(in_simulate(Stage::extents));
  EXPECT_FALSE(in_simulate(Stage::keys));
  settings.key_mode = KeyMode::exact;
  settings.order = DrawOrder::eye_distance;
  EXPECT_FALSE(in_simulate(Stage::keys));
}

TEST(CpuPipeline, UnsortedDrawsInIndexOrder) {
  CpuPipeline pipeline;
  pipeline.reset(ModelParams{}, 100);
  FrameSettings settings;
  settings.view = test_view();
  settings.order = DrawOrder::unsorted;
  EXPECT_EQ(pipeline.run_frame(settings).path, SortPath::unsorted);
  for (std::uint32_t i = 0; i < 100; ++i) EXPECT_EQ(pipeline.order()[i], i);
}

TEST(CpuPipeline, AutoSkipsWhenNothingMoved) {
  CpuPipeline pipeline;
  pipeline.reset(ModelParams{}, 1000);
  FrameSettings settings;
  settings.view = test_view();
  settings.algorithm = Algorithm::automatic;
  pipeline.run_frame(settings);
  settings.dt = 0.0f;  // paused, camera still
  EXPECT_EQ(pipeline.run_frame(settings).path, SortPath::skipped_sorted);
}

TEST(CpuPipeline, AutoRunsRadixStintsWhereItKeepsEndingInRadix) {
  // A camera that turns half round every frame reverses the order: every probing frame ends in
  // radix. After kAutoStintStreak of them the next kAutoStint frames are radix's own frames, the
  // order the radix algorithm draws; then auto probes again, and its next stint is twice as long.
  ModelParams params;
  params.model = Model::galaxy;
  CpuPipeline automatic, radix;
  automatic.reset(params, 5000);
  radix.reset(params, 5000);
  CameraPose pose;
  pose.distance = 12.0f;
  const int second_stint_start = kAutoStintStreak + kAutoStint + kAutoStintStreak;
  for (int frame = 0; frame <= second_stint_start + 2 * kAutoStint; ++frame) {
    pose.yaw_deg = 180.0f * static_cast<float>(frame % 2);
    FrameSettings settings;
    settings.view = depth_frame(camera_matrices(pose, 16.0f / 9.0f, 0.1f, 1000.0f));
    settings.key_mode = KeyMode::quantized;  // ties: the stint's are in index order
    settings.key_bits = 8;
    settings.algorithm = Algorithm::automatic;
    const FrameInfo info = automatic.run_frame(settings);
    settings.algorithm = Algorithm::radix;
    radix.run_frame(settings);
    const bool in_stint =
        (frame >= kAutoStintStreak && frame < kAutoStintStreak + kAutoStint) ||
        (frame >= second_stint_start && frame < second_stint_start + 2 * kAutoStint);
    SCOPED_TRACE("frame " + std::to_string(frame));
    EXPECT_EQ(info.path, SortPath::radix);
    ASSERT_EQ(automatic.last_auto_stint(), in_stint ? SortPath::radix : SortPath::unsorted);
    if (in_stint) {
      ASSERT_TRUE(std::ranges::equal(automatic.order(), radix.order()));
    }
  }
}

TEST(CpuExtents, BoundsEveryParticle) {
  ModelParams params;
  params.model = Model::fountain;
  CpuPipeline pipeline;
  pipeline.reset(params, 2000);
  FrameSettings settings;
  settings.view = test_view();
  const Extents e = pipeline.run_frame(settings).extents;
  for (const ParticleState& s : pipeline.state()) {
    EXPECT_GE(s.px, e.min.x);
    EXPECT_LE(s.px, e.max.x);
    EXPECT_GE(s.py, e.min.y);
    EXPECT_LE(s.py, e.max.y);
    EXPECT_LE(speed_of(s), e.max_speed);
  }
}

TEST(SceneModels, InitIsDeterministicPerIndex) {
  ModelParams params;
  const ParticleState a = model_init(params, 42);
  const ParticleState b = model_init(params, 42);
  EXPECT_EQ(a.px, b.px);
  EXPECT_EQ(a.seed, b.seed);
  const ParticleState c = model_init(params, 43);
  EXPECT_NE(a.px, c.px);
}

TEST(SceneModels, GalaxyRotationKeepsRadius) {
  ModelParams params;
  ParticleState s = model_init(params, 7);
  const float r0 = std::hypot(s.px, s.pz);
  for (int i = 0; i < 600; ++i) model_step(params, s, 1.0f / 60.0f);
  EXPECT_NEAR(std::hypot(s.px, s.pz), r0, 1e-3f * std::max(1.0f, r0));
}

TEST(SceneModels, FountainRespawnsAtNozzle) {
  ModelParams params;
  params.model = Model::fountain;
  ParticleState s = model_init(params, 3);
  const std::uint32_t first_life = s.seed;
  for (int i = 0; i < 400 && s.seed == first_life; ++i) model_step(params, s, 1.0f / 60.0f);
  EXPECT_NE(s.seed, first_life);
  EXPECT_LT(s.age, params.fountain.lifetime);
  EXPECT_NEAR(s.py, params.fountain.nozzle.y, params.fountain.speed * 1.0f / 60.0f + 1e-3f);
}

}  // namespace
}  // namespace particles
