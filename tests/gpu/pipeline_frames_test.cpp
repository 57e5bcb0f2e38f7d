// The whole GPU frame over many frames, checked every frame against the CPU stages applied to
// the GPU's own state (the simulation agrees with the CPU only to an ulp or two, so the CPU
// pipeline run separately would drift; its stages on identical input must agree exactly):
//   - the order written to the target is cpu_sort_order of the frame's keys, started from the
//     identity (fixed algorithms, and auto with fused stages, whose particles are laid out in
//     last frame's order) or from last frame's order (unfused auto): exactly sorted, ties stable;
//   - fused auto: the particle at each place is the one last frame's order put there;
//   - the keys the sort left behind are those keys, ascending;
//   - the FrameInfo returned describes the previous frame (extents bitwise, auto's path).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "core/auto_policy.hpp"
#include "core/cpu_pipeline.hpp"
#include "core/hash.hpp"
#include "cuda/pipeline/device_pipeline.hpp"
#include "tests/gpu/pipeline_test_util.hpp"

namespace particles {
namespace {

struct Case {
  Model model;
  Algorithm algorithm;
  KeyMode mode;
  int bits;
  std::uint32_t count;
  int frames;
  float dt;
  bool moving_camera;
  bool fused = true;  // FrameSettings::fuse_stages
};

std::string name_of(const Case& c) {
  std::string s = std::string(to_string(c.model)) + "_";
  s += std::string(to_string(c.algorithm)) + "_";
  s += c.mode == KeyMode::exact ? "exact" : "q" + std::to_string(c.bits);
  s += "_n" + std::to_string(c.count);
  if (c.dt == 0.0f) s += "_paused";
  if (!c.moving_camera) s += "_still";
  if (!c.fused) s += "_apart";
  return s;
}

struct Probes {
  std::uint64_t descents = 0, strided = 0;
};

SortPath expected_auto_path(const Probes& p) {
  return choose_auto_path(p.descents == 0 ? 0u : 1u, p.strided == 0 ? 0u : 1u);
}

// Probing frames (after the first two) that auto's policy sent to radix, and those the partition
// sort took of them; then the frames of stints (core/auto_policy.hpp).
struct PathCounts {
  int radix_policy = 0;
  int partition = 0;
  int radix_stint = 0;
  int partition_stint = 0;
  int partition_stint_sorted = 0;  // of those, the frames the partition sort took
  int longest_stint = 0;           // frames in a row of one stint path
};

// `paths`, when given, receives the PathCounts (the gtest assertions need a void function).
void run_case(const Case& c, PathCounts* paths = nullptr) {
  PathCounts counted;
  cuda::DevicePipeline pipeline;
  pipeline.reset(test::scene(c.model), c.count);
  const std::uint32_t n = c.count;
  // Two target sets, alternated, as a GL mapping that lands elsewhere from frame to frame would.
  cuda::DeviceBuffer<ParticleVertex> vertices[2] = {cuda::DeviceBuffer<ParticleVertex>(n),
                                                    cuda::DeviceBuffer<ParticleVertex>(n)};
  cuda::DeviceBuffer<std::uint32_t> orders[2] = {cuda::DeviceBuffer<std::uint32_t>(n),
                                                 cuda::DeviceBuffer<std::uint32_t>(n)};
  const bool scaled = model_scales_sprites(c.model);
  cuda::DeviceBuffer<float> scales[2] = {cuda::DeviceBuffer<float>(scaled ? n : 0u),
                                         cuda::DeviceBuffer<float>(scaled ? n : 0u)};

  std::vector<std::uint32_t> previous(n);
  std::iota(previous.begin(), previous.end(), 0u);
  std::vector<ParticleState> previous_state;
  // Fused auto moves each particle to its place in last frame's order as it steps it, except in
  // the frames of a radix stint (which keep the layout; auto starts from it again after one).
  const bool laid_out_in_order = c.algorithm == Algorithm::automatic && c.fused;
  SortPath last_stint = SortPath::unsorted;
  int stint_run = 0;
  std::vector<std::uint32_t> keys(n), expected(n);
  SortScratch scratch;
  Extents last_extents;
  Probes last_probes;

  for (int f = 0; f < c.frames; ++f) {
    FrameSettings settings;
    settings.dt = c.dt;
    settings.view = test::orbit_view(c.moving_camera ? f : 0);
    settings.algorithm = c.algorithm;
    settings.key_mode = c.mode;
    settings.key_bits = c.bits;
    settings.fuse_stages = c.fused;
    const cuda::FrameTargets targets{vertices[f & 1].data(), orders[f & 1].data(), nullptr,
                                     scaled ? scales[f & 1].data() : nullptr};
    const FrameInfo info = pipeline.run_frame(settings, targets);
    pipeline.synchronize();
    const SortPath stint = pipeline.newest_frame_stint();
    const bool as_radix = stint == SortPath::radix;
    if (as_radix) ++counted.radix_stint;
    if (stint == SortPath::partition) ++counted.partition_stint;
    stint_run = stint != SortPath::unsorted && stint == last_stint ? stint_run + 1
                : stint != SortPath::unsorted                      ? 1
                                                                   : 0;
    counted.longest_stint = std::max(counted.longest_stint, stint_run);

    const auto state = test::to_host(pipeline.device_state(), n);
    const auto order = test::to_host(targets.order, n);
    const auto sorted_keys = test::to_host(pipeline.device_sorted_keys(), n);
    const Extents extents = cpu_extents(state, settings.view);
    cpu_depth_keys(state, settings.view, c.mode, c.bits, extents, keys);

    ASSERT_TRUE(stint == SortPath::unsorted || laid_out_in_order) << "only fused auto has stints";
    const bool from_previous = c.algorithm == Algorithm::automatic && !laid_out_in_order;
    expected = from_previous ? previous : std::vector<std::uint32_t>(n);
    if (!from_previous) std::iota(expected.begin(), expected.end(), 0u);
    if (laid_out_in_order && f > 0 && !as_radix) {
      // The seed identifies a particle; a respawn (fountain) advances it by one hash. After a
      // stint frame auto starts again from the layout as it is.
      for (std::uint32_t k = 0; k < n; ++k) {
        const bool last_as_radix = last_stint == SortPath::radix;
        const std::uint32_t was = previous_state[last_as_radix ? k : previous[k]].seed;
        ASSERT_TRUE(state[k].seed == was || state[k].seed == hash_u32(was))
            << "frame " << f << " place " << k;
      }
    }
    const Probes probes{cpu_count_descents(keys, expected),
                        cpu_count_strided_descents(keys, expected, kAutoProbeStride)};
    cpu_sort_order(keys, expected, scratch);
    ASSERT_EQ(order, expected) << "frame " << f;
    // A fixed radix frame writes its order straight to the target and keeps no sorted keys, nor
    // does a frame the partition sort sorted (it keeps its splitters).
    const bool partitioned =
        test::to_host(pipeline.device_report(), 1)[0].auto_report.partitioned != 0;
    if (c.algorithm != Algorithm::radix && !partitioned) {
      for (std::uint32_t i = 0; i < n; ++i) {
        ASSERT_EQ(sorted_keys[i], keys[order[i]]) << "frame " << f << " position " << i;
      }
    }

    // FrameInfo is one frame late, except the first frame after reset.
    const Extents& reported = f == 0 ? extents : last_extents;
    EXPECT_EQ(0, std::memcmp(&info.extents, &reported, sizeof(Extents))) << "frame " << f;
    const SortPath reported_stint = f == 0 ? stint : last_stint;
    if (reported_stint == SortPath::radix) {
      EXPECT_EQ(info.path, SortPath::radix) << "frame " << f;
    } else if (reported_stint == SortPath::partition) {
      // No probe ran: the partition sort, or the odd-even exact kernel when it refused.
      EXPECT_TRUE(info.path == SortPath::partition || info.path == SortPath::oddeven)
          << "frame " << f << " path " << to_string(info.path);
      if (info.path == SortPath::partition) ++counted.partition_stint_sorted;
    } else if (c.algorithm == Algorithm::automatic) {
      const Probes& p = f == 0 ? probes : last_probes;
      // The CPU policy's radix is the device's partition sort when last frame's splitters fit.
      const SortPath policy = expected_auto_path(p);
      const bool as_expected =
          info.path == policy || (policy == SortPath::radix && info.path == SortPath::partition);
      EXPECT_TRUE(as_expected) << "frame " << f << " path " << to_string(info.path) << " descents "
                               << p.descents << " strided " << p.strided;
      if (f >= 2 && policy == SortPath::radix) ++counted.radix_policy;
      if (info.path == SortPath::partition) ++counted.partition;
    } else {
      EXPECT_EQ(info.path, SortPath::full);
    }
    if (f < 2) {  // the vertices went to this frame's target
      const auto verts = test::to_host(targets.vertices, n);
      for (std::uint32_t i = 0; i < n; ++i) ASSERT_EQ(verts[i].x, state[i].px);
      if (scaled) {  // and so did the sprite scales, the CPU twin's bit for bit
        const auto got = test::to_host(targets.sprite_scales, n);
        const ModelParams params = test::scene(c.model);
        for (std::uint32_t i = 0; i < n; ++i) {
          ASSERT_EQ(got[i], model_sprite_scale(params, state[i])) << "frame " << f << " " << i;
        }
      }
    }
    previous = order;
    previous_state = state;
    last_stint = stint;
    last_extents = extents;
    last_probes = probes;
  }
  // One graph for the whole run (and one per kind of auto's stints): neither the moving targets
  // nor dt/view rebuilt it.
  const std::uint64_t stint_graphs =
      (counted.radix_stint > 0 ? 1u : 0u) + (counted.partition_stint > 0 ? 1u : 0u);
  EXPECT_EQ(pipeline.graphs_built(), 1u + stint_graphs);
  if (paths != nullptr) *paths = counted;
}

// `order` holds every index once, and the keys it visits do not descend.
void expect_sorted_permutation(const std::vector<std::uint32_t>& order,
                               const std::vector<std::uint32_t>& keys) {
  const std::size_t n = keys.size();
  ASSERT_EQ(order.size(), n);
  std::vector<bool> seen(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_LT(order[i], n) << "position " << i;
    ASSERT_FALSE(seen[order[i]]) << "position " << i;
    seen[order[i]] = true;
    if (i > 0) {
      ASSERT_LE(keys[order[i - 1]], keys[order[i]]) << "position " << i;
    }
  }
}

// A pipeline drawing into one target set, for the tests that drive it frame by frame: run() checks
// each frame's order is an exactly sorted permutation of the CPU's keys for the state the frame
// left (the caller tests HasFatalFailure) and returns what it checked.
class CheckedPipeline {
 public:
  struct Frame {
    std::vector<ParticleState> state;  // in the layout the order indexes
    std::vector<std::uint32_t> order, keys;
    FrameInfo reported;  // what run_frame said of the frame before
  };

  CheckedPipeline(Model model, std::uint32_t n) : n_(n), vertices_(n), order_(n) {
    pipeline.reset(test::scene(model), n);
  }

  Frame run(const FrameSettings& s) {
    const FrameInfo reported = pipeline.run_frame(s, {vertices_.data(), order_.data()});
    pipeline.synchronize();
    Frame f{test::to_host(pipeline.device_state(), n_), test::to_host(order_.data(), n_),
            std::vector<std::uint32_t>(n_), reported};
    cpu_depth_keys(f.state, s.view, s.key_mode, s.key_bits, cpu_extents(f.state, s.view), f.keys);
    expect_sorted_permutation(f.order, f.keys);
    return f;
  }

  cuda::DevicePipeline pipeline;

 private:
  std::uint32_t n_;
  cuda::DeviceBuffer<ParticleVertex> vertices_;
  cuda::DeviceBuffer<std::uint32_t> order_;
};

class PipelineFrames : public ::testing::TestWithParam<Case> {};
TEST_P(PipelineFrames, EveryFrameMatchesCpuStages) {
  REQUIRE_CUDA_DEVICE();
  run_case(GetParam());
}

std::vector<Case> many_frames() {
  std::vector<Case> cases;
  for (Model m : kAllModels) {
    for (Algorithm a : kAllAlgorithms) {
      cases.push_back({m, a, KeyMode::exact, 32, 20000, 200, 1.0f / 60.0f, true});
      cases.push_back({m, a, KeyMode::quantized, 10, 20000, 200, 1.0f / 60.0f, true});
    }
    // Auto on a still scene: after the first frame nothing moves, so the sort is skipped.
    cases.push_back({m, Algorithm::automatic, KeyMode::exact, 32, 20000, 30, 0.0f, false});
    // The stages run apart (the default fuses simulate + extents + exact keys).
    for (Algorithm a : {Algorithm::radix, Algorithm::automatic}) {
      cases.push_back({m, a, KeyMode::exact, 32, 20000, 60, 1.0f / 60.0f, true, false});
      cases.push_back({m, a, KeyMode::quantized, 12, 20000, 60, 1.0f / 60.0f, true, false});
    }
  }
  return cases;
}

// Small and short: what compute-sanitizer runs (--gtest_filter=Stage*:PipelineSmall*).
std::vector<Case> small_frames() {
  std::vector<Case> cases;
  for (Algorithm a : kAllAlgorithms) {
    cases.push_back({Model::fountain, a, KeyMode::exact, 32, 3000, 6, 1.0f / 60.0f, true});
  }
  cases.push_back(
      {Model::galaxy, Algorithm::automatic, KeyMode::quantized, 8, 3000, 6, 0.0f, false});
  cases.push_back(
      {Model::galaxy, Algorithm::radix, KeyMode::exact, 32, 3000, 6, 1.0f / 60.0f, true, false});
  // Large steps: auto's policy says radix and the partition sort takes the frames.
  cases.push_back({Model::galaxy, Algorithm::automatic, KeyMode::exact, 32, 9000, 6, 0.3f, true});
  // Every other model once, through fused auto (its kernel instantiation, its respawns).
  for (Model m : kAllModels) {
    if (m == Model::galaxy || m == Model::fountain) continue;
    cases.push_back({m, Algorithm::automatic, KeyMode::exact, 32, 3000, 6, 1.0f / 60.0f, true});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Many, PipelineFrames, ::testing::ValuesIn(many_frames()),
                         [](const auto& p) { return name_of(p.param); });

class PipelineSmall : public PipelineFrames {};
TEST_P(PipelineSmall, EveryFrameMatchesCpuStages) {
  REQUIRE_CUDA_DEVICE();
  run_case(GetParam());
}
INSTANTIATE_TEST_SUITE_P(Sanitized, PipelineSmall, ::testing::ValuesIn(small_frames()),
                         [](const auto& p) { return name_of(p.param); });

TEST(PipelineLifecycle, AsksTheL2ForWholeLines) {
  REQUIRE_CUDA_DEVICE();
  // The size is a hint the driver may clamp: what it grants the request made directly (128 on the
  // H200) is what a pipeline must leave, over a smaller size set before it.
  ASSERT_EQ(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, cuda::kPipelineL2FetchBytes),
            cudaSuccess);
  std::size_t granted = 0;
  ASSERT_EQ(cudaDeviceGetLimit(&granted, cudaLimitMaxL2FetchGranularity), cudaSuccess);
  ASSERT_EQ(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, 32), cudaSuccess);
  const cuda::DevicePipeline pipeline;
  std::size_t bytes = 0;
  ASSERT_EQ(cudaDeviceGetLimit(&bytes, cudaLimitMaxL2FetchGranularity), cudaSuccess);
  EXPECT_EQ(bytes, granted);
}

TEST(PipelineLifecycle, ResetRebuildsAndSettingsChangesRebuild) {
  REQUIRE_CUDA_DEVICE();
  cuda::DevicePipeline pipeline;
  for (std::uint32_t n : {1000u, 0u, 1u, 4000u}) {
    pipeline.reset(test::scene(Model::galaxy), n);
    cuda::DeviceBuffer<ParticleVertex> vertices(n);
    cuda::DeviceBuffer<std::uint32_t> order(n);
    FrameSettings s;
    s.view = test::orbit_view(0);
    for (Algorithm a : {Algorithm::radix, Algorithm::automatic, Algorithm::cub}) {
      s.algorithm = a;
      pipeline.run_frame(s, {vertices.data(), order.data()});
    }
    s.order = DrawOrder::unsorted;
    const FrameInfo info = pipeline.run_frame(s, {vertices.data(), order.data()});
    pipeline.run_frame(s, {vertices.data(), order.data()});
    pipeline.synchronize();
    std::vector<std::uint32_t> identity(n);
    std::iota(identity.begin(), identity.end(), 0u);
    EXPECT_EQ(test::to_host(order.data(), n), identity);
    if (n > 0) {
      EXPECT_EQ(info.path, SortPath::full);  // the cub frame before it
    }
  }
  FrameSettings bad;
  bad.key_mode = KeyMode::quantized;
  bad.key_bits = 0;
  EXPECT_THROW(pipeline.run_frame(bad, {}), std::invalid_argument);
}

// The smoke sizes its sprites: a frame without a scale target is refused before anything is
// enqueued, and the same pipeline then runs the frame with one.
TEST(PipelineLifecycle, ASpriteSizingSceneWithoutAScaleTargetIsRefused) {
  REQUIRE_CUDA_DEVICE();
  constexpr std::uint32_t n = 2000;
  cuda::DevicePipeline pipeline;
  pipeline.reset(test::scene(Model::smoke), n);
  cuda::DeviceBuffer<ParticleVertex> vertices(n);
  cuda::DeviceBuffer<std::uint32_t> order(n);
  cuda::DeviceBuffer<float> scales(n);
  FrameSettings s;
  s.view = test::orbit_view(0);
  EXPECT_THROW(pipeline.run_frame(s, {vertices.data(), order.data()}), std::invalid_argument);
  pipeline.run_frame(s, {vertices.data(), order.data(), nullptr, scales.data()});
  pipeline.synchronize();
  const std::vector<float> got = test::to_host(scales.data(), n);
  EXPECT_TRUE(std::all_of(got.begin(), got.end(), [](float v) { return v > 0.0f; }));
}

// Switching algorithms back and forth: each shape's graphs are built once and reused, the
// sorters exist from reset() on, and every frame stays exactly sorted whichever graph ran.
TEST(PipelineLifecycle, SwitchingBackReusesGraphsAndEveryFrameStaysSorted) {
  REQUIRE_CUDA_DEVICE();
  CheckedPipeline checked(Model::fountain, 5000);
  const Algorithm cycle[] = {Algorithm::radix,     Algorithm::cub,       Algorithm::radix,
                             Algorithm::automatic, Algorithm::oddeven,   Algorithm::radix,
                             Algorithm::quicksort, Algorithm::automatic, Algorithm::cub};
  int frame = 0;
  for (int round = 0; round < 2; ++round) {
    for (Algorithm a : cycle) {
      FrameSettings s;  // exact keys
      s.view = test::orbit_view(frame++);
      s.algorithm = a;
      SCOPED_TRACE(std::string(to_string(a)) + " frame " + std::to_string(frame));
      checked.run(s);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
  EXPECT_EQ(checked.pipeline.graphs_built(),
            5u);  // radix, cub, auto, oddeven, quicksort: once each
}

// Auto with fused stages moves the particles into last frame's order; run apart, it keeps the
// layout and keys through the order. Alternating the two (and a fixed algorithm, after which
// auto starts again from the identity) keeps every frame an exactly sorted permutation whose
// ties keep last frame's order.
TEST(PipelineLifecycle, AutoFusedAndApartAlternateAndStaySorted) {
  REQUIRE_CUDA_DEVICE();
  constexpr std::uint32_t n = 6000;
  CheckedPipeline checked(Model::galaxy, n);
  std::vector<std::uint32_t> drawn_seeds, last_seeds;  // the particles in draw order
  for (int frame = 0; frame < 24; ++frame) {
    FrameSettings s;
    s.view = test::orbit_view(frame);
    s.key_mode = frame % 3 == 0 ? KeyMode::quantized : KeyMode::exact;
    s.key_bits = 6;  // coarse: many ties
    s.algorithm = frame == 13 ? Algorithm::radix : Algorithm::automatic;
    s.fuse_stages = frame % 4 < 2;
    SCOPED_TRACE("frame " + std::to_string(frame));
    const CheckedPipeline::Frame f = checked.run(s);
    if (::testing::Test::HasFatalFailure()) return;
    const auto& [state, got, keys, reported] = f;
    drawn_seeds.assign(n, 0);
    for (std::uint32_t i = 0; i < n; ++i) drawn_seeds[i] = state[got[i]].seed;  // kept by galaxy
    // Ties keep last frame's draw order, except on the radix frame, which sorts from its layout.
    if (frame > 0 && frame != 13) {
      std::vector<std::pair<std::uint32_t, std::uint32_t>> by_seed(n);
      for (std::uint32_t i = 0; i < n; ++i) by_seed[i] = {last_seeds[i], i};
      std::sort(by_seed.begin(), by_seed.end());
      const auto place_of = [&](std::uint32_t seed) {
        return std::lower_bound(by_seed.begin(), by_seed.end(), std::make_pair(seed, 0u))->second;
      };
      for (std::uint32_t i = 1; i < n; ++i) {
        if (keys[got[i - 1]] == keys[got[i]]) {
          ASSERT_LT(place_of(drawn_seeds[i - 1]), place_of(drawn_seeds[i]))
              << "frame " << frame << " position " << i;
        }
      }
    }
    last_seeds = drawn_seeds;
  }
}

// Per-stage GPU timings: every frame after the first reports the frame before it, with all
// five stages timed (non-negative, the sort of a million keys visibly non-zero), and draining
// returns the newest frame's, which run_frame never returned.
TEST(PipelineStageTimes, EveryFrameReportsItsPredecessorsStages) {
  REQUIRE_CUDA_DEVICE();
  const std::uint32_t n = 1u << 20;
  cuda::DevicePipeline pipeline;
  pipeline.reset(test::scene(Model::galaxy), n);
  cuda::DeviceBuffer<ParticleVertex> vertices(n);
  cuda::DeviceBuffer<std::uint32_t> order(n);
  for (Algorithm a : {Algorithm::radix, Algorithm::automatic}) {
    FrameSettings s;
    s.algorithm = a;
    s.stage_sample_period = 1;
    for (int frame = 0; frame < 12; ++frame) {
      s.view = test::orbit_view(frame);
      const FrameInfo info = pipeline.run_frame(s, {vertices.data(), order.data()});
      if (frame == 0) continue;  // the first frame of a new graph may have no timings yet
      ASSERT_TRUE(pipeline.stage_timing()) << "stage timing was refused by the driver";
      ASSERT_GE(info.stages.frame, 0) << to_string(a) << " frame " << frame;
      for (int k = 0; k < kStageCount; ++k) {
        EXPECT_GE(info.stages.ms[k], 0.0f) << to_string(static_cast<Stage>(k));
        EXPECT_LT(info.stages.ms[k], 1000.0f) << to_string(static_cast<Stage>(k));
      }
      if (a == Algorithm::radix) {
        EXPECT_GT(info.stages.ms[static_cast<int>(Stage::sort)], 0.001f);
      }
      EXPECT_TRUE(info.stages.has_stages);
      EXPECT_EQ(info.stages.span_ms, info.stages.total());  // nothing timed it apart
    }
    const StageTimes last = pipeline.drain_stage_times();
    EXPECT_GE(last.frame, 0);
    EXPECT_GT(last.total(), 0.0f);
  }
}

// Sampled stage timing: frames 0, 3, 6, ... after the reset time each stage (and leave the
// span untimed: their boundaries slow them); the others time only the span, a real, non-zero
// time, with every stage zero.
TEST(PipelineStageTimes, SampledFramesTimeStagesTheOthersTheSpan) {
  REQUIRE_CUDA_DEVICE();
  const std::uint32_t n = 1u << 18;
  cuda::DevicePipeline pipeline;
  cuda::DeviceBuffer<ParticleVertex> vertices(n);
  cuda::DeviceBuffer<std::uint32_t> order(n);
  for (Algorithm a : {Algorithm::radix, Algorithm::automatic, Algorithm::oddeven}) {
    SCOPED_TRACE(to_string(a));
    pipeline.reset(test::scene(Model::galaxy), n);
    FrameSettings s;
    s.algorithm = a;
    s.stage_sample_period = 3;
    int spans = 0, sampled = 0;
    const auto check = [&](const StageTimes& t) {
      ASSERT_GE(t.frame, 0);
      if (t.frame % 3 == 0) {
        ++sampled;
        EXPECT_TRUE(t.has_stages) << "frame " << t.frame;
        EXPECT_LT(t.span_ms, 0.0f) << "frame " << t.frame;
        EXPECT_GT(t.total(), 0.0f) << "frame " << t.frame;
      } else {
        ++spans;
        EXPECT_FALSE(t.has_stages) << "frame " << t.frame;
        EXPECT_GT(t.span_ms, 0.0f) << "frame " << t.frame;
        EXPECT_LT(t.span_ms, 1000.0f) << "frame " << t.frame;
        EXPECT_EQ(t.total(), 0.0f) << "frame " << t.frame;
      }
    };
    for (int frame = 0; frame < 13; ++frame) {
      s.view = test::orbit_view(frame);
      const FrameInfo info = pipeline.run_frame(s, {vertices.data(), order.data()});
      if (frame > 0) check(info.stages);
    }
    check(pipeline.drain_stage_times());
    EXPECT_EQ(sampled, 5);  // frames 0, 3, 6, 9, 12
    EXPECT_EQ(spans, 8);
  }
}

// A galaxy whose order moves too far for the odd-even sort every frame (large steps): auto's
// policy says radix, and the splitter partition sort, from last frame's splitters, takes those
// frames; run_case checks each of them against the CPU's stable sort of last frame's order.
TEST(PipelinePartition, MovingGalaxyFramesTakeThePartitionSort) {
  REQUIRE_CUDA_DEVICE();
  for (const auto& [mode, bits] : {std::pair{KeyMode::exact, 32}, std::pair{KeyMode::quantized, 24},
                                   std::pair{KeyMode::quantized, 16}}) {
    SCOPED_TRACE(bits);
    PathCounts paths;
    run_case({Model::galaxy, Algorithm::automatic, mode, bits, 60000, 24, 0.3f, true}, &paths);
    EXPECT_GT(paths.radix_policy, 0) << "the case should move too far for the odd-even sort";
    // Keys of 16 bits or fewer go to their two-pass radix sort instead (next_partition_tries).
    EXPECT_EQ(paths.partition, bits > 16 ? paths.radix_policy : 0);
  }
}

// Frames auto sends to radix anyway (16-bit keys never try the partition sort) start radix
// stints: after kAutoStintStreak of them the fixed radix frame runs kAutoStint frames, then
// auto probes again and, radix again, runs a stint twice as long; every frame stays exactly
// sorted with ties kept (run_case's checks).
TEST(PipelineAutoStint, FramesThatEndInRadixRunTheRadixFrameForAWhile) {
  REQUIRE_CUDA_DEVICE();
  constexpr int frames = 60;
  PathCounts paths;
  run_case({Model::galaxy, Algorithm::automatic, KeyMode::quantized, 16, 30000, frames, 0.3f, true},
           &paths);
  EXPECT_GE(paths.radix_stint, 2 * kAutoStint);                 // at least two stints
  EXPECT_LE(paths.radix_stint, frames - 2 * kAutoStintStreak);  // auto came back between them
  EXPECT_EQ(paths.partition, 0);
  EXPECT_EQ(paths.partition_stint, 0);
  EXPECT_EQ(paths.longest_stint, 2 * kAutoStint);  // 60 frames: stints of 16, 32, part of 64
}

// Frames the partition sort takes start partition stints: a graph without the probe, the choice
// and the odd-even launches, whose partition sort takes every frame here (as it takes every
// probing frame of these cases: PipelinePartition.MovingGalaxyFramesTakeThePartitionSort), then
// auto probes again. Exactness, ties and the layout are run_case's checks.
TEST(PipelineAutoStint, FramesThatEndInPartitionRunThePartitionGraphForAWhile) {
  REQUIRE_CUDA_DEVICE();
  constexpr int frames = 60;
  PathCounts paths;
  run_case({Model::galaxy, Algorithm::automatic, KeyMode::exact, 32, 60000, frames, 0.3f, true},
           &paths);
  EXPECT_GE(paths.partition_stint, 2 * kAutoStint);  // at least two stints
  EXPECT_LE(paths.partition_stint, frames - 2 * kAutoStintStreak);
  EXPECT_GE(paths.partition_stint_sorted, paths.partition_stint - 1);  // the last is unreported
  EXPECT_EQ(paths.radix_stint, 0);
  EXPECT_EQ(paths.partition, paths.radix_policy);
  EXPECT_GE(paths.longest_stint, 2 * kAutoStint);  // the second stint, twice as long
}

// A partition stint's frame whose keys no longer fit its splitters' buckets (the camera jumps
// back to 2.5 times its distance: every key lands past the last splitter, far more than a bucket
// holds) is sorted by the partition sort's overflow sort (the odd-even sorter's exact merge sort,
// run by the bucket kernel's blocks), reports oddeven, and ends the stint: the frame after the
// next one probes again. CheckedPipeline checks that every frame's order is exactly sorted.
TEST(PipelineAutoStint, AFrameThatMovedTooFarFallsBackAndEndsTheStint) {
  REQUIRE_CUDA_DEVICE();
  CheckedPipeline checked(Model::galaxy, 60000);
  constexpr int frames = 30;
  int jump = -1;  // the first frame seen from the other side
  std::vector<SortPath> stint(frames), reported(frames);
  for (int frame = 0; frame < frames; ++frame) {
    FrameSettings s;
    s.dt = 0.3f;  // moves too far for odd-even: the partition sort takes the frames
    s.view = test::orbit_view(frame, jump >= 0 && frame >= jump ? 62.5f : 25.0f);
    s.algorithm = Algorithm::automatic;
    s.key_mode = KeyMode::exact;
    SCOPED_TRACE("frame " + std::to_string(frame));
    CheckedPipeline::Frame f;
    ASSERT_NO_THROW(f = checked.run(s));
    if (::testing::Test::HasFatalFailure()) return;
    stint[frame] = checked.pipeline.newest_frame_stint();
    reported[frame] = f.reported.path;
    if (jump < 0 && frame >= 3 && stint[frame] == SortPath::partition) jump = frame + 1;
  }
  ASSERT_GT(jump, 0) << "the case should reach a partition stint";
  ASSERT_LT(jump + 2, frames);
  EXPECT_EQ(stint[jump], SortPath::partition) << "the jump should land in the stint";
  EXPECT_EQ(reported[jump + 1], SortPath::oddeven) << "the jump frame should fall back";
  EXPECT_EQ(stint[jump + 2], SortPath::unsorted) << "the stint should end";
}

// With auto timing its frames (as the app's backend runs it), whichever paths the timings pick,
// radix stints, radix probes or auto's own, every frame is an exactly sorted permutation, across
// key modes. (Which paths run depends on the GPU's timings, so the test asserts none of them:
// the policy's choices are core_tests' AutoCost cases, its effect the bench's auto/radix table.)
TEST(PipelineAutoCost, EveryFrameIsExactWhateverTheTimingsChoose) {
  REQUIRE_CUDA_DEVICE();
  CheckedPipeline checked(Model::galaxy, 65536);
  checked.pipeline.set_auto_measures_cost(true);
  int radix_frames = 0;
  constexpr int frames = 240;
  for (int frame = 0; frame < frames; ++frame) {
    FrameSettings s;
    s.dt = 1.0f / 60.0f;
    s.view = test::orbit_view(frame);
    s.algorithm = Algorithm::automatic;
    s.key_mode = frame < frames / 2 ? KeyMode::quantized : KeyMode::exact;
    s.key_bits = 16;
    SCOPED_TRACE("frame " + std::to_string(frame));
    ASSERT_NO_THROW(checked.run(s));
    if (::testing::Test::HasFatalFailure()) return;
    radix_frames += checked.pipeline.newest_frame_stint() == SortPath::radix ? 1 : 0;
  }
  std::printf("auto timing its frames at 65536: %d of %d frames ran radix\n", radix_frames, frames);
}

// A stint holds only while the same frame is asked for: one chosen for exact keys ends when the
// keys change (a partition stint carried over to 16-bit keys, which the partition sort never
// takes, threw), and every frame across the changes stays an exactly sorted permutation.
TEST(PipelineAutoStint, ChangingTheKeysEndsTheStint) {
  REQUIRE_CUDA_DEVICE();
  CheckedPipeline checked(Model::galaxy, 60000);
  SortPath before_switch = SortPath::unsorted;
  for (int frame = 0; frame < 16; ++frame) {
    FrameSettings s;
    s.dt = 0.3f;  // moves too far for odd-even: the partition sort takes the exact frames
    s.view = test::orbit_view(frame);
    s.algorithm = Algorithm::automatic;
    s.key_mode = frame >= 8 && frame < 12 ? KeyMode::quantized : KeyMode::exact;
    s.key_bits = 16;
    SCOPED_TRACE("frame " + std::to_string(frame));
    ASSERT_NO_THROW(checked.run(s));
    if (::testing::Test::HasFatalFailure()) return;
    const SortPath stint = checked.pipeline.newest_frame_stint();
    if (frame == 7) before_switch = stint;
    if (frame == 8 || frame == 12) {
      EXPECT_EQ(stint, SortPath::unsorted) << "frame " << frame;
    }
  }
  EXPECT_EQ(before_switch, SortPath::partition) << "the case should be in a partition stint";
}

}  // namespace
}  // namespace particles
