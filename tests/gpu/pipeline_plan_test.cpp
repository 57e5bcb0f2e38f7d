// The plan a frame records is the plan tests/unit/frame_plan_test.cpp checks on the CPU: over a
// run that switches between algorithms, key modes and bits, draw orders (a stale order's sorting
// and held frames among them) and fused or separate stages, with auto's stints, each frame's
// recorded plan (DevicePipeline::newest_frame_plan) is plan_frame of its settings, of whether it
// sorts (a StaleSchedule of the test's own) and of the stint it ran in; and the pipeline built
// one graph per distinct plan, the plan being the graph cache's key.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "core/frame_plan.hpp"
#include "cuda/pipeline/device_pipeline.hpp"
#include "tests/gpu/pipeline_test_util.hpp"

namespace particles {
namespace {

struct Segment {
  FrameSettings settings;
  int frames = 6;
};

std::string describe(const FrameSettings& s) {
  std::string d = std::string(to_string(s.algorithm)) + " " + std::string(to_string(s.order));
  d += s.key_mode == KeyMode::exact ? " exact" : " q" + std::to_string(s.key_bits);
  return d + (s.fuse_stages ? " fused" : " apart");
}

std::vector<Segment> segments() {
  std::vector<Segment> out;
  for (Algorithm a : kAllAlgorithms) {
    for (KeyMode mode : {KeyMode::exact, KeyMode::quantized}) {
      for (bool fused : {true, false}) {
        Segment g;
        g.settings.algorithm = a;
        g.settings.key_mode = mode;
        g.settings.key_bits = 24;  // wide enough for auto's partition sort
        g.settings.fuse_stages = fused;
        out.push_back(g);
      }
    }
  }
  for (DrawOrder o : kAllDrawOrders) {
    for (Algorithm a : {Algorithm::radix, Algorithm::oddeven, Algorithm::automatic}) {
      Segment g;
      g.settings.algorithm = a;
      g.settings.order = o;
      g.settings.order_period = 3;
      out.push_back(g);
    }
  }
  // Large steps: auto's policy sends the frames to radix or the partition sort, and after a
  // streak of them its schedule runs stints of that path.
  Segment stints;
  stints.settings.algorithm = Algorithm::automatic;
  stints.settings.dt = 0.3f;
  stints.frames = 48;
  out.push_back(stints);
  return out;
}

TEST(PipelinePlan, EachFrameRecordsThePlanOfItsSettingsAndOneGraphPerPlan) {
  REQUIRE_CUDA_DEVICE();
  const std::uint32_t n = 20000;
  cuda::DevicePipeline pipeline;
  pipeline.reset(test::scene(Model::galaxy), n);
  cuda::DeviceBuffer<ParticleVertex> vertices(n);
  cuda::DeviceBuffer<std::uint32_t> order(n);
  EXPECT_FALSE(pipeline.newest_frame_plan().has_value());
  StaleSchedule schedule;
  std::vector<FramePlan> distinct;
  int stint_frames = 0;
  int frame = 0;
  for (const Segment& segment : segments()) {
    for (int k = 0; k < segment.frames; ++k, ++frame) {
      FrameSettings s = segment.settings;
      s.view = test::orbit_view(frame);
      pipeline.run_frame(s, {vertices.data(), order.data()});
      const bool sorts = schedule.sorts(s.order, s.order_period);
      const SortPath stint = pipeline.newest_frame_stint();
      const std::optional<FramePlan> recorded = pipeline.newest_frame_plan();
      ASSERT_TRUE(recorded.has_value());
      EXPECT_EQ(*recorded, plan_frame(s, {sorts, stint}))
          << describe(s) << " frame " << frame << " stint " << to_string(stint);
      if (std::find(distinct.begin(), distinct.end(), *recorded) == distinct.end()) {
        distinct.push_back(*recorded);
      }
      stint_frames += stint != SortPath::unsorted ? 1 : 0;
    }
  }
  pipeline.synchronize();
  EXPECT_EQ(pipeline.graphs_built(), distinct.size());
  EXPECT_GT(stint_frames, 0) << "no stint ran: the stints' plans went unchecked";
}

}  // namespace
}  // namespace particles
