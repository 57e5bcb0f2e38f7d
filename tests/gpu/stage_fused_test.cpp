// The fused simulate + extents + keys kernel against its twins: the three stages launched apart
// (themselves tested against the CPU), bit for bit, on sizes across the block and grid
// boundaries, with and without keys, moving and paused; and the key floor it folds, against the
// smallest key.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "cuda/keys/depth_keys.hpp"
#include "cuda/reduce/extents_reduce.hpp"
#include "cuda/sim/simulate.hpp"
#include "cuda/sim/step_fused.hpp"
#include "tests/gpu/pipeline_test_util.hpp"

namespace particles {
namespace {

struct FusedCase {
  Model model;
  std::uint32_t count;
  float dt;
};

class StageFused : public ::testing::TestWithParam<FusedCase> {};

TEST_P(StageFused, BitwiseEqualToTheStagesApart) {
  REQUIRE_CUDA_DEVICE();
  const auto [model, n, step] = GetParam();
  const ModelParams params = test::scene(model, 11);
  cuda::DeviceBuffer<ParticleState> state_fused(n), state_apart(n);
  cuda::launch_init(params, state_fused.data(), n, nullptr);
  cuda::launch_init(params, state_apart.data(), n, nullptr);
  cuda::DeviceBuffer<ParticleVertex> vertices_fused(n), vertices_apart(n);
  auto vertices_fused_at = test::device_value(vertices_fused.data());
  auto vertices_apart_at = test::device_value(vertices_apart.data());
  auto dt = test::device_value(step);
  cuda::DeviceBuffer<std::uint32_t> keys_fused(n), values_fused(n), keys_apart(n), values_apart(n);
  cuda::DeviceBuffer<Extents> extents(2);
  cuda::DeviceBuffer<unsigned char> ws(cuda::extents_workspace_bytes());
  cuda::init_extents_workspace(ws.data(), nullptr);
  cuda::DeviceBuffer<std::uint32_t> key_floor(1 + cuda::kKeyFloorPartials);

  for (int frame = 0; frame < 3; ++frame) {  // later frames check the workspace is reusable
    auto view = test::device_value(test::orbit_view(frame));
    cuda::FusedStepArgs fused;
    fused.params = params;
    fused.state = state_fused.data();
    fused.count = n;
    fused.dt = dt.data();
    fused.vertices = vertices_fused_at.data();
    fused.view = view.data();
    fused.extents = extents.data();
    fused.extents_workspace = ws.data();
    fused.keys = frame == 1 ? nullptr : keys_fused.data();  // frame 1: no keys requested
    fused.values = values_fused.data();
    fused.key_floor = key_floor.data();
    fused.key_floor_partials = key_floor.data() + 1;
    CUDA_CHECK(cudaMemset(key_floor.data(), 0x5a, sizeof(std::uint32_t)));  // stale on purpose
    cuda::launch_step_fused(fused, nullptr);

    cuda::launch_step(params, state_apart.data(), n, dt.data(), vertices_apart_at.data(), nullptr);
    cuda::launch_extents(state_apart.data(), n, view.data(), extents.data() + 1, ws.data(),
                         nullptr);
    cuda::DepthKeyArgs keys;
    keys.state = state_apart.data();
    keys.count = n;
    keys.values = values_apart.data();
    keys.keys = keys_apart.data();
    keys.view = view.data();
    keys.extents = extents.data() + 1;
    cuda::launch_depth_keys(keys, nullptr);

    const auto sf = test::to_host(state_fused.data(), n), sa = test::to_host(state_apart.data(), n);
    ASSERT_EQ(0, std::memcmp(sf.data(), sa.data(), n * sizeof(ParticleState))) << frame;
    const auto vf = test::to_host(vertices_fused.data(), n),
               va = test::to_host(vertices_apart.data(), n);
    ASSERT_EQ(0, std::memcmp(vf.data(), va.data(), n * sizeof(ParticleVertex))) << frame;
    const auto e = test::to_host(extents.data(), 2);
    ASSERT_EQ(0, std::memcmp(&e[0], &e[1], sizeof(Extents))) << frame;
    if (frame != 1) {
      const auto keys_host = test::to_host(keys_fused.data(), n);
      EXPECT_EQ(test::to_host(key_floor.data(), 1)[0],
                *std::min_element(keys_host.begin(), keys_host.end()))
          << frame;
      ASSERT_EQ(keys_host, test::to_host(keys_apart.data(), n)) << frame;
      ASSERT_EQ(test::to_host(values_fused.data(), n), test::to_host(values_apart.data(), n))
          << frame;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, StageFused,
                         ::testing::Values(FusedCase{Model::galaxy, 1, 1.0f / 60.0f},
                                           FusedCase{Model::galaxy, 257, 1.0f / 60.0f},
                                           FusedCase{Model::fountain, 65537, 1.0f / 60.0f},
                                           FusedCase{Model::galaxy, 1000003, 1.0f / 60.0f},
                                           FusedCase{Model::fountain, 70001, 0.0f}),
                         [](const auto& p) {
                           return std::string(p.param.model == Model::galaxy ? "galaxy"
                                                                             : "fountain") +
                                  "_n" + std::to_string(p.param.count) +
                                  (p.param.dt == 0.0f ? "_paused" : "");
                         });

}  // namespace
}  // namespace particles
