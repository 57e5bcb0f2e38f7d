// Stage 2 against cpu_extents: min/max are exact operations, so on identical input the fused
// GPU reduction must return the same bits, whatever the order it combined things in (the inputs
// avoid zeros, the one case where the sign of the result depends on that order).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "core/cpu_pipeline.hpp"
#include "core/hash.hpp"
#include "cuda/stages/reduce/extents_reduce.hpp"
#include "tests/gpu/pipeline_test_util.hpp"

namespace particles {
namespace {

// Nonzero floats of both signs over several magnitudes.
float random_float(std::uint32_t h) {
  const float magnitude = (0.5f + unit_float(h)) * std::ldexp(1.0f, static_cast<int>(h % 9) - 4);
  return (h & 0x100u) ? -magnitude : magnitude;
}

std::vector<ParticleState> random_states(std::uint32_t n, std::uint32_t seed) {
  std::vector<ParticleState> s(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t h = hash_combine(seed, i);
    s[i] = {random_float(hash_u32(h)),     random_float(hash_u32(h + 1)),
            random_float(hash_u32(h + 2)), 0.0f,
            random_float(hash_u32(h + 3)), random_float(hash_u32(h + 4)),
            random_float(hash_u32(h + 5)), h};
  }
  return s;
}

Extents gpu_extents(const std::vector<ParticleState>& host, const DepthFrame& view) {
  auto state = test::to_device(host);
  auto d_view = test::device_value(view);
  cuda::DeviceBuffer<Extents> out(1);
  cuda::DeviceBuffer<unsigned char> ws(cuda::extents_workspace_bytes());
  cuda::init_extents_workspace(ws.data(), nullptr);
  cuda::launch_extents(state.data(), static_cast<std::uint32_t>(host.size()), d_view.data(),
                       out.data(), ws.data(), nullptr);
  return test::to_host(out.data(), 1)[0];
}

void expect_bitwise_equal(const Extents& gpu, const Extents& cpu) {
  EXPECT_EQ(0, std::memcmp(&gpu, &cpu, sizeof(Extents)))
      << "gpu min " << gpu.min.x << "," << gpu.min.y << "," << gpu.min.z << " max " << gpu.max.x
      << "," << gpu.max.y << "," << gpu.max.z << " depth " << gpu.depth_min << ".." << gpu.depth_max
      << " speed " << gpu.max_speed << "\ncpu min " << cpu.min.x << "," << cpu.min.y << ","
      << cpu.min.z << " max " << cpu.max.x << "," << cpu.max.y << "," << cpu.max.z << " depth "
      << cpu.depth_min << ".." << cpu.depth_max << " speed " << cpu.max_speed;
}

class StageExtents : public ::testing::TestWithParam<std::uint32_t> {};

// Sizes across the warp, block, unrolled-loop and grid boundaries.
TEST_P(StageExtents, BitwiseEqualToCpu) {
  REQUIRE_CUDA_DEVICE();
  const std::uint32_t n = GetParam();
  const auto host = random_states(n, n + 11);
  const DepthFrame view = test::orbit_view(3);
  expect_bitwise_equal(gpu_extents(host, view), cpu_extents(host, view));
}

INSTANTIATE_TEST_SUITE_P(Sizes, StageExtents,
                         ::testing::Values(1u, 2u, 31u, 32u, 33u, 255u, 256u, 257u, 1023u, 1025u,
                                           4097u, 65537u, 300000u));

TEST(StageExtentsEdge, EmptyInputGivesEmptyExtents) {
  REQUIRE_CUDA_DEVICE();
  const Extents e = gpu_extents({}, test::orbit_view(0));
  EXPECT_TRUE(e.empty());
  expect_bitwise_equal(e, Extents{});
}

TEST(StageExtentsEdge, NanNeverWinsInfinityDoes) {
  REQUIRE_CUDA_DEVICE();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  auto host = random_states(5000, 3);
  host[0].px = nan;  // first: the accumulator must not take it
  host[17].py = nan;
  host[4999].pz = nan;
  host[100].vx = nan;
  host[2500].px = inf;
  host[2501].py = -inf;
  host[777].vz = -inf;  // speed +inf
  const DepthFrame view = test::orbit_view(1);
  const Extents gpu = gpu_extents(host, view);
  expect_bitwise_equal(gpu, cpu_extents(host, view));
  EXPECT_FALSE(std::isnan(gpu.min.x));
  EXPECT_EQ(gpu.max.x, inf);
  EXPECT_EQ(gpu.min.y, -inf);
  EXPECT_EQ(gpu.max_speed, inf);
}

// The combine's words encode both zeros (-0 just below +0): an extreme that is a zero of either
// sign comes back a zero, and the other fields stay bit-equal to the CPU's.
TEST(StageExtentsEdge, ZerosOfBothSignsComeBackZero) {
  REQUIRE_CUDA_DEVICE();
  auto host = random_states(70000, 5);
  for (std::size_t i = 0; i < host.size(); ++i) host[i].px = (i * 7919u) % 3u == 0 ? -0.0f : 0.0f;
  const DepthFrame view = test::orbit_view(4);
  const Extents gpu = gpu_extents(host, view);
  const Extents cpu = cpu_extents(host, view);
  EXPECT_EQ(gpu.min.x, 0.0f);
  EXPECT_EQ(gpu.max.x, 0.0f);
  Extents gpu_rest = gpu, cpu_rest = cpu;
  gpu_rest.min.x = cpu_rest.min.x = gpu_rest.max.x = cpu_rest.max.x = 0.0f;
  expect_bitwise_equal(gpu_rest, cpu_rest);
}

TEST(StageExtentsEdge, RepeatedLaunchesReuseTheWorkspace) {
  REQUIRE_CUDA_DEVICE();
  cuda::DeviceBuffer<unsigned char> ws(cuda::extents_workspace_bytes());
  cuda::init_extents_workspace(ws.data(), nullptr);
  cuda::DeviceBuffer<Extents> out(1);
  const DepthFrame view = test::orbit_view(2);
  auto d_view = test::device_value(view);
  for (std::uint32_t round = 0; round < 4; ++round) {
    const auto host = random_states(100000 + round * 7777, round);
    auto state = test::to_device(host);
    cuda::launch_extents(state.data(), static_cast<std::uint32_t>(host.size()), d_view.data(),
                         out.data(), ws.data(), nullptr);
    expect_bitwise_equal(test::to_host(out.data(), 1)[0], cpu_extents(host, view));
  }
}

}  // namespace
}  // namespace particles
