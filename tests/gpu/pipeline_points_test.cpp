// The points model through the whole GPU frame against the CPU pipeline run on its own: the model
// uses exact arithmetic only, so both backends keep the same cloud bit for bit, frame after frame,
// for every motion and for particle counts below, at and above the cloud's (resampled at reset,
// core/point_cloud.hpp). With a fixed algorithm the layout stays, so states, vertices and draw
// orders compare directly; auto, which moves the particles, is in pipeline_frames_test's cases.
#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/cpu_pipeline.hpp"
#include "cuda/pipeline/device_pipeline.hpp"
#include "tests/gpu/pipeline_test_util.hpp"

namespace particles {
namespace {

struct PointsCase {
  PointMotion motion;
  std::uint32_t count;
  Algorithm algorithm;
  KeyMode mode;
};

std::string name_of(const PointsCase& c) {
  const char* motion = c.motion == PointMotion::still       ? "still"
                       : c.motion == PointMotion::turntable ? "turntable"
                                                            : "breathing";
  return std::string(motion) + "_n" + std::to_string(c.count) + "_" +
         std::string(to_string(c.algorithm)) + (c.mode == KeyMode::exact ? "_exact" : "_q12");
}

class PipelinePoints : public ::testing::TestWithParam<PointsCase> {};

TEST_P(PipelinePoints, EveryFrameEqualsTheCpuPipelineBitForBit) {
  REQUIRE_CUDA_DEVICE();
  const PointsCase c = GetParam();
  ModelParams params;
  params.model = Model::points;
  params = test::with_test_points(params, c.motion);
  const std::uint32_t n = c.count;
  cuda::DevicePipeline gpu;
  gpu.reset(params, n);
  CpuPipeline cpu;
  cpu.reset(params, n);
  cuda::DeviceBuffer<ParticleVertex> vertices(n);
  cuda::DeviceBuffer<std::uint32_t> order(n);
  for (int f = 0; f < 90; ++f) {
    FrameSettings s;
    s.dt = f % 30 == 29 ? 0.0f : 1.0f / 30.0f;  // a paused frame now and then
    s.view = test::orbit_view(f);
    s.algorithm = c.algorithm;
    s.key_mode = c.mode;
    s.key_bits = 12;
    gpu.run_frame(s, {vertices.data(), order.data()});
    gpu.synchronize();
    cpu.run_frame(s);
    SCOPED_TRACE("frame " + std::to_string(f));
    const auto state = test::to_host(gpu.device_state(), n);
    ASSERT_EQ(0, std::memcmp(state.data(), cpu.state().data(), n * sizeof(ParticleState)));
    const auto v = test::to_host(vertices.data(), n);
    ASSERT_EQ(0, std::memcmp(v.data(), cpu.vertices().data(), n * sizeof(ParticleVertex)));
    const auto o = test::to_host(order.data(), n);
    ASSERT_TRUE(std::equal(o.begin(), o.end(), cpu.order().begin()));
  }
}

std::vector<PointsCase> points_cases() {
  std::vector<PointsCase> cases;
  for (PointMotion m : {PointMotion::still, PointMotion::turntable, PointMotion::breathing}) {
    // One particle; a subsample; the cloud itself (3001 points); each point repeated.
    for (std::uint32_t n : {1u, 1000u, 3001u, 20011u}) {
      cases.push_back({m, n, Algorithm::radix, KeyMode::exact});
      cases.push_back({m, n, Algorithm::cub, KeyMode::quantized});
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Motions, PipelinePoints, ::testing::ValuesIn(points_cases()),
                         [](const auto& p) { return name_of(p.param); });

TEST(PipelinePointsReset, RefusesACloudWithoutPoints) {
  REQUIRE_CUDA_DEVICE();
  ModelParams params;
  params.model = Model::points;
  cuda::DevicePipeline gpu;
  EXPECT_THROW(gpu.reset(params, 100), std::invalid_argument);
}

}  // namespace
}  // namespace particles
