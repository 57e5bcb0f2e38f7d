// Stage 1 against its CPU twins: model_init, cpu_simulate and cpu_write_vertices. The kernels
// call the same functions; only sinf/cosf/logf/powf differ between the CUDA and C libraries (by
// an ulp or two), so the galaxy's and the fountain's positions agree within a float tolerance;
// the other models use exact arithmetic only (model_is_exact) and agree bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "core/cpu_pipeline.hpp"
#include "core/scene_models.hpp"
#include "cuda/stages/sim/simulate.hpp"
#include "tests/gpu/pipeline_test_util.hpp"

namespace particles {
namespace {

using test::scene;
using test::to_host;

void expect_close(const ParticleState& gpu, const ParticleState& cpu, std::size_t i) {
  auto tol = [](float ref) { return 2e-3f * std::max(1.0f, std::fabs(ref)); };
  ASSERT_NEAR(gpu.px, cpu.px, tol(cpu.px)) << "particle " << i;
  ASSERT_NEAR(gpu.py, cpu.py, tol(cpu.py)) << "particle " << i;
  ASSERT_NEAR(gpu.pz, cpu.pz, tol(cpu.pz)) << "particle " << i;
  ASSERT_NEAR(gpu.vx, cpu.vx, tol(cpu.vx)) << "particle " << i;
  ASSERT_NEAR(gpu.vy, cpu.vy, tol(cpu.vy)) << "particle " << i;
  ASSERT_NEAR(gpu.vz, cpu.vz, tol(cpu.vz)) << "particle " << i;
  // Ages are sums of the same dt in the same order, seeds are integer hashes: exact.
  ASSERT_EQ(gpu.age, cpu.age) << "particle " << i;
  ASSERT_EQ(gpu.seed, cpu.seed) << "particle " << i;
}

class StageSim : public ::testing::TestWithParam<Model> {};

TEST_P(StageSim, InitAndManyStepsMatchCpu) {
  REQUIRE_CUDA_DEVICE();
  // The same scene twice: for the kernels (a points cloud in device memory) and for the CPU.
  const test::DeviceScene on_device(GetParam());
  const ModelParams& device_params = on_device.params;
  const ModelParams params = scene(GetParam());
  constexpr std::uint32_t n = 5000;
  // Eleven simulated seconds: every fountain and smoke particle respawns, the vortex ring starts
  // again.
  constexpr int steps = 660;
  cuda::DeviceBuffer<ParticleState> state(n);
  cuda::DeviceBuffer<ParticleVertex> vertices(n);
  auto vertex_target = test::device_value(vertices.data());
  cuda::DeviceBuffer<float> scales(n);
  auto scale_target = test::device_value(scales.data());
  const float dt_value = 1.0f / 60.0f;
  auto dt = test::device_value(dt_value);

  cuda::launch_init(device_params, state.data(), n, nullptr);
  std::vector<ParticleState> cpu(n);
  for (std::uint32_t i = 0; i < n; ++i) cpu[i] = model_init(params, i);
  {
    const auto gpu = to_host(state.data(), n);
    for (std::uint32_t i = 0; i < n; ++i) expect_close(gpu[i], cpu[i], i);
  }
  for (int s = 0; s < steps; ++s) {
    cuda::launch_step(device_params, state.data(), state.data(), n, dt.data(), vertex_target.data(),
                      scale_target.data(), nullptr);
    cpu_simulate(params, cpu, dt_value);
  }
  const auto gpu = to_host(state.data(), n);
  for (std::uint32_t i = 0; i < n; ++i) expect_close(gpu[i], cpu[i], i);
  if (model_is_exact(params.model)) {
    for (std::uint32_t i = 0; i < n; ++i) {
      ASSERT_EQ(0, std::memcmp(&gpu[i], &cpu[i], sizeof(ParticleState))) << "particle " << i;
    }
  }

  // Vertices: positions are the state's, bit for bit; colours are model_vertex of that state,
  // within one step of 8-bit rounding per channel.
  const auto verts = to_host(vertices.data(), n);
  std::vector<ParticleVertex> expected(n);
  std::vector<float> expected_scales(model_scales_sprites(params.model) ? n : 0u);
  cpu_write_vertices(params, gpu, expected, expected_scales);
  // Sprite scales, where the model sizes its sprites: the CPU twin's of the same state, bit for
  // bit (exact arithmetic).
  if (!expected_scales.empty()) {
    const auto got = to_host(scales.data(), n);
    for (std::uint32_t i = 0; i < n; ++i) ASSERT_EQ(got[i], expected_scales[i]) << "particle " << i;
  }
  for (std::uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(verts[i].x, gpu[i].px);
    ASSERT_EQ(verts[i].y, gpu[i].py);
    ASSERT_EQ(verts[i].z, gpu[i].pz);
    for (int b = 0; b < 32; b += 8) {
      const int got = static_cast<int>((verts[i].rgba8 >> b) & 0xffu);
      const int want = static_cast<int>((expected[i].rgba8 >> b) & 0xffu);
      ASSERT_LE(std::abs(got - want), 1) << "particle " << i << " channel " << b / 8;
    }
  }
}

TEST_P(StageSim, ZeroDtLeavesStateAndWritesVertices) {
  REQUIRE_CUDA_DEVICE();
  const test::DeviceScene on_device(GetParam());
  const ModelParams& params = on_device.params;
  constexpr std::uint32_t n = 777;
  cuda::DeviceBuffer<ParticleState> state(n);
  cuda::DeviceBuffer<ParticleVertex> vertices(n);
  auto vertex_target = test::device_value(vertices.data());
  cuda::DeviceBuffer<float> scales(n);
  auto scale_target = test::device_value(scales.data());
  auto dt = test::device_value(0.0f);
  cuda::launch_init(params, state.data(), n, nullptr);
  const auto before = to_host(state.data(), n);
  cuda::launch_step(params, state.data(), state.data(), n, dt.data(), vertex_target.data(),
                    scale_target.data(), nullptr);
  const auto after = to_host(state.data(), n);
  const auto verts = to_host(vertices.data(), n);
  for (std::uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(0, std::memcmp(&before[i], &after[i], sizeof(ParticleState))) << i;
    ASSERT_EQ(verts[i].x, after[i].px);
  }
}

// A model that sizes its sprites (the smoke) needs somewhere to write the sizes; the others
// run without. No kernel is launched for the refused call.
TEST(StageSimTargets, ASpriteSizingModelWithoutAScaleTargetIsRefused) {
  REQUIRE_CUDA_DEVICE();
  constexpr std::uint32_t n = 64;
  cuda::DeviceBuffer<ParticleState> state(n);
  cuda::DeviceBuffer<ParticleVertex> vertices(n);
  auto vertex_target = test::device_value(vertices.data());
  auto dt = test::device_value(1.0f / 60.0f);
  const ModelParams smoke = scene(Model::smoke);
  ASSERT_TRUE(model_scales_sprites(smoke.model));
  cuda::launch_init(smoke, state.data(), n, nullptr);
  EXPECT_THROW(cuda::launch_step(smoke, state.data(), state.data(), n, dt.data(),
                                 vertex_target.data(), nullptr, nullptr),
               std::invalid_argument);
  const ModelParams galaxy = scene(Model::galaxy);
  cuda::launch_init(galaxy, state.data(), n, nullptr);
  EXPECT_NO_THROW(cuda::launch_step(galaxy, state.data(), state.data(), n, dt.data(),
                                    vertex_target.data(), nullptr, nullptr));
  CUDA_CHECK(cudaDeviceSynchronize());
}

INSTANTIATE_TEST_SUITE_P(Models, StageSim, ::testing::ValuesIn(kAllModels),
                         [](const auto& p) { return std::string(to_string(p.param)); });

}  // namespace
}  // namespace particles
