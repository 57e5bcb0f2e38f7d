// The fused simulate + extents + keys kernel against its twins: the three stages launched apart
// (themselves tested against the CPU), bit for bit, on sizes across the block and grid
// boundaries, with and without keys, moving and paused; the key floor it folds, against the
// smallest key; and its extents left as partials and folded apart, against its own combine.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "core/scene_models.hpp"
#include "cuda/stages/keys/depth_keys.hpp"
#include "cuda/stages/reduce/extents_fold.hpp"
#include "cuda/stages/reduce/extents_reduce.hpp"
#include "cuda/stages/sim/simulate.hpp"
#include "cuda/stages/sim/step_fused.hpp"
#include "tests/gpu/pipeline_test_util.hpp"

namespace particles {
namespace {

// What the fused step and the stages apart read and write besides the particles and their
// outputs: dt, the view, two extents (fused, apart), the extents workspace and the key floor.
struct FrameBuffers {
  FrameBuffers(float step, const DepthFrame& view_value)
      : dt(test::device_value(step)),
        view(test::device_value(view_value)),
        extents(2),
        ws(cuda::extents_workspace_bytes()),
        key_floor(1) {
    cuda::init_extents_workspace(ws.data(), nullptr);
  }

  // The fused step from `in` to `out`, extents into extents[0]; no gather, keys, values or key
  // floor until the caller names them.
  cuda::FusedStepArgs fused(const ModelParams& params, const ParticleState* in, ParticleState* out,
                            std::uint32_t n, ParticleVertex* const* vertices_at,
                            float* const* scales_at) {
    cuda::FusedStepArgs a;
    a.params = params;
    a.state_in = in;
    a.state_out = out;
    a.count = n;
    a.dt = dt.data();
    a.vertices = vertices_at;
    a.sprite_scales = scales_at;
    a.view = view.data();
    a.extents = extents.data();
    a.extents_workspace = ws.data();
    return a;
  }

  // The three stages apart, in place on `state`, extents into extents[1], exact keys with the
  // identity values.
  void run_apart(const ModelParams& params, ParticleState* state, std::uint32_t n,
                 ParticleVertex* const* vertices_at, float* const* scales_at, std::uint32_t* keys,
                 std::uint32_t* values) {
    cuda::launch_step(params, state, state, n, dt.data(), vertices_at, scales_at, nullptr);
    cuda::launch_extents(state, n, view.data(), extents.data() + 1, ws.data(), nullptr);
    cuda::DepthKeyArgs k;
    k.state = state;
    k.count = n;
    k.values = values;
    k.keys = keys;
    k.view = view.data();
    k.extents = extents.data() + 1;
    cuda::launch_depth_keys(k, nullptr);
  }

  cuda::DeviceBuffer<float> dt;
  cuda::DeviceBuffer<DepthFrame> view;
  cuda::DeviceBuffer<Extents> extents;
  cuda::DeviceBuffer<unsigned char> ws;
  cuda::DeviceBuffer<std::uint32_t> key_floor;
};

// One run's particles, from the scene's first frame, and the vertices it writes, with the device
// word that names them (as the pipeline's frame constants do).
struct StepRun {
  StepRun(const ModelParams& params, std::uint32_t n)
      : state(n),
        vertices(n),
        vertices_at(test::device_value(vertices.data())),
        scales(n),
        scales_at(test::device_value(scales.data())) {
    cuda::launch_init(params, state.data(), n, nullptr);
  }
  cuda::DeviceBuffer<ParticleState> state;
  cuda::DeviceBuffer<ParticleVertex> vertices;
  cuda::DeviceBuffer<ParticleVertex*> vertices_at;
  cuda::DeviceBuffer<float> scales;  // written by the models that size their sprites
  cuda::DeviceBuffer<float*> scales_at;
};

struct FusedCase {
  Model model;
  std::uint32_t count;
  float dt;
};

class StageFused : public ::testing::TestWithParam<FusedCase> {};

TEST_P(StageFused, BitwiseEqualToTheStagesApart) {
  REQUIRE_CUDA_DEVICE();
  const auto [model, n, step] = GetParam();
  const test::DeviceScene on_device(model, 11);
  const ModelParams& params = on_device.params;
  StepRun fused_run(params, n), apart_run(params, n);
  auto& [state_fused, vertices_fused, vertices_fused_at, scales_fused, scales_fused_at] = fused_run;
  auto& [state_apart, vertices_apart, vertices_apart_at, scales_apart, scales_apart_at] = apart_run;
  cuda::DeviceBuffer<std::uint32_t> keys_fused(n), values_fused(n), keys_apart(n), values_apart(n);
  FrameBuffers frame_buffers(step, test::orbit_view(0));
  auto& extents = frame_buffers.extents;
  auto& key_floor = frame_buffers.key_floor;

  for (int frame = 0; frame < 3; ++frame) {  // later frames check the workspace is reusable
    const DepthFrame view = test::orbit_view(frame);
    CUDA_CHECK(cudaMemcpy(frame_buffers.view.data(), &view, sizeof view, cudaMemcpyHostToDevice));
    cuda::FusedStepArgs fused =
        frame_buffers.fused(params, state_fused.data(), state_fused.data(), n,
                            vertices_fused_at.data(), scales_fused_at.data());
    fused.keys = frame == 1 ? nullptr : keys_fused.data();  // frame 1: no keys requested
    fused.values = values_fused.data();
    fused.key_floor = key_floor.data();
    CUDA_CHECK(cudaMemset(key_floor.data(), 0x5a, sizeof(std::uint32_t)));  // stale on purpose
    cuda::launch_step_fused(fused, nullptr);
    frame_buffers.run_apart(params, state_apart.data(), n, vertices_apart_at.data(),
                            scales_apart_at.data(), keys_apart.data(), values_apart.data());

    if (model_scales_sprites(model)) {
      ASSERT_EQ(test::to_host(scales_fused.data(), n), test::to_host(scales_apart.data(), n))
          << frame;
    }
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
                                           FusedCase{Model::fountain, 70001, 0.0f},
                                           FusedCase{Model::smoke, 65537, 1.0f / 60.0f},
                                           FusedCase{Model::vortex_ring, 65537, 1.0f / 60.0f},
                                           FusedCase{Model::fireworks, 65537, 1.0f / 60.0f},
                                           FusedCase{Model::attractor, 65537, 1.0f / 60.0f},
                                           FusedCase{Model::shells, 65537, 1.0f / 60.0f},
                                           FusedCase{Model::snow, 65537, 1.0f / 60.0f},
                                           FusedCase{Model::snow, 4097, 0.0f},
                                           FusedCase{Model::points, 65537, 1.0f / 60.0f},
                                           FusedCase{Model::points, 4097, 0.0f}),
                         [](const auto& p) {
                           return std::string(to_string(p.param.model)) + "_n" +
                                  std::to_string(p.param.count) +
                                  (p.param.dt == 0.0f ? "_paused" : "");
                         });

// The extents left as a combine's words per block (a partition stint's step) and folded in a
// launch of their own equal, bit for bit, the grid combine's on the same frame; the rest of the
// step is untouched by where its extents go.
TEST_P(StageFused, ExtentsFoldedFromPartialsEqualTheCombine) {
  REQUIRE_CUDA_DEVICE();
  const auto [model, n, step] = GetParam();
  const test::DeviceScene on_device(model, 12);
  const ModelParams& params = on_device.params;
  StepRun combined_run(params, n), folded_run(params, n);
  auto& [state_combined, vertices_combined, vertices_combined_at, scales_combined,
         scales_combined_at] = combined_run;
  auto& [state_folded, vertices_folded, vertices_folded_at, scales_folded, scales_folded_at] =
      folded_run;
  cuda::DeviceBuffer<std::uint32_t> partials(std::size_t{cuda::fused_step_blocks(params.model, n)} *
                                             10);
  FrameBuffers frame_buffers(step, test::orbit_view(0));
  auto& extents = frame_buffers.extents;
  for (int frame = 0; frame < 3; ++frame) {  // later frames: the partials are overwritten
    const DepthFrame view = test::orbit_view(frame + 5);
    CUDA_CHECK(cudaMemcpy(frame_buffers.view.data(), &view, sizeof view, cudaMemcpyHostToDevice));
    // Stale extents on purpose: the fold must write every field.
    CUDA_CHECK(cudaMemset(extents.data(), 0x5a, 2 * sizeof(Extents)));
    const cuda::FusedStepArgs combined =
        frame_buffers.fused(params, state_combined.data(), state_combined.data(), n,
                            vertices_combined_at.data(), scales_combined_at.data());
    cuda::launch_step_fused(combined, nullptr);
    cuda::FusedStepArgs folded =
        frame_buffers.fused(params, state_folded.data(), state_folded.data(), n,
                            vertices_folded_at.data(), scales_folded_at.data());
    folded.extents = nullptr;
    folded.extents_partials = partials.data();
    cuda::launch_step_fused(folded, nullptr);
    cuda::launch_extents_fold(partials.data(), cuda::fused_step_blocks(params.model, n),
                              extents.data() + 1, nullptr);

    const auto e = test::to_host(extents.data(), 2);
    ASSERT_EQ(0, std::memcmp(&e[0], &e[1], sizeof(Extents))) << frame;
    const auto sc = test::to_host(state_combined.data(), n),
               sf = test::to_host(state_folded.data(), n);
    ASSERT_EQ(0, std::memcmp(sc.data(), sf.data(), n * sizeof(ParticleState))) << frame;
    const auto vc = test::to_host(vertices_combined.data(), n),
               vf = test::to_host(vertices_folded.data(), n);
    ASSERT_EQ(0, std::memcmp(vc.data(), vf.data(), n * sizeof(ParticleVertex))) << frame;
  }
}

TEST(StageFusedPartials, RefusesAKeyFloorWithoutTheCombine) {
  REQUIRE_CUDA_DEVICE();
  cuda::DeviceBuffer<ParticleState> state(4);
  cuda::DeviceBuffer<std::uint32_t> keys(4), key_floor(1), partials(10);
  cuda::FusedStepArgs fused;
  fused.state_in = state.data();
  fused.state_out = state.data();
  fused.count = 4;
  fused.keys = keys.data();
  fused.key_floor = key_floor.data();
  fused.extents_partials = partials.data();
  EXPECT_THROW(cuda::launch_step_fused(fused, nullptr), std::invalid_argument);
}

TEST(StageFusedTargets, ASpriteSizingModelWithoutAScaleTargetIsRefused) {
  REQUIRE_CUDA_DEVICE();
  cuda::DeviceBuffer<ParticleState> state(4);
  cuda::FusedStepArgs fused;
  fused.params = test::scene(Model::smoke);
  fused.state_in = state.data();
  fused.state_out = state.data();
  fused.count = 4;
  EXPECT_THROW(cuda::launch_step_fused(fused, nullptr), std::invalid_argument);
}

// Auto's layout: with a gather, particle i of the output is particle gather[i] of the input,
// stepped; every output (state, vertex, key, extents) equals the stages apart, applied in place
// by index and then permuted on the host. The gather is the values buffer itself, as in the
// pipeline: each place is read before the identity overwrites it.
struct GatherCase {
  std::uint32_t count;
  float dt;
};
class StageFusedGather : public ::testing::TestWithParam<GatherCase> {};

TEST_P(StageFusedGather, EachPlaceGetsTheGatheredParticleStepped) {
  REQUIRE_CUDA_DEVICE();
  const auto [n, step] = GetParam();
  const ModelParams params = test::scene(Model::fountain, 5);
  StepRun gathered_run(params, n), apart_run(params, n);
  auto& [state_in, vertices, vertices_at, scales, scales_at] = gathered_run;
  auto& [state_apart, vertices_apart, vertices_apart_at, scales_apart, scales_apart_at] = apart_run;
  cuda::DeviceBuffer<ParticleState> state_out(n);
  // A permutation that moves every place, some far: reversed blocks of 1000, then swapped halves.
  std::vector<std::uint32_t> gather(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t block = i / 1000 * 1000, end = std::min(n, block + 1000);
    gather[i] = block + (end - 1 - i);
  }
  std::rotate(gather.begin(), gather.begin() + n / 2, gather.end());
  cuda::DeviceBuffer<std::uint32_t> values(n), keys(n), keys_apart(n), values_apart(n);
  CUDA_CHECK(cudaMemcpy(values.data(), gather.data(), n * 4, cudaMemcpyHostToDevice));
  FrameBuffers frame_buffers(step, test::orbit_view(3));
  auto& extents = frame_buffers.extents;

  cuda::FusedStepArgs fused = frame_buffers.fused(params, state_in.data(), state_out.data(), n,
                                                  vertices_at.data(), scales_at.data());
  fused.gather = values.data();
  fused.keys = keys.data();
  fused.values = values.data();
  cuda::launch_step_fused(fused, nullptr);
  frame_buffers.run_apart(params, state_apart.data(), n, vertices_apart_at.data(),
                          scales_apart_at.data(), keys_apart.data(), values_apart.data());

  const auto got_state = test::to_host(state_out.data(), n);
  const auto want_state = test::to_host(state_apart.data(), n);
  const auto got_vertices = test::to_host(vertices.data(), n);
  const auto want_vertices = test::to_host(vertices_apart.data(), n);
  const auto got_keys = test::to_host(keys.data(), n),
             want_keys = test::to_host(keys_apart.data(), n);
  const auto got_values = test::to_host(values.data(), n);
  for (std::uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(0, std::memcmp(&got_state[i], &want_state[gather[i]], sizeof(ParticleState))) << i;
    ASSERT_EQ(0, std::memcmp(&got_vertices[i], &want_vertices[gather[i]], sizeof(ParticleVertex)))
        << i;
    ASSERT_EQ(got_keys[i], want_keys[gather[i]]) << i;
    ASSERT_EQ(got_values[i], i);
  }
  const auto e = test::to_host(extents.data(), 2);
  EXPECT_EQ(0, std::memcmp(&e[0], &e[1], sizeof(Extents)));  // a permutation folds the same
  // The input is left as it was: the pipeline reads it no more, but a gather must not write it.
  cuda::DeviceBuffer<ParticleState> fresh(n);
  cuda::launch_init(params, fresh.data(), n, nullptr);
  const auto in = test::to_host(state_in.data(), n), init = test::to_host(fresh.data(), n);
  EXPECT_EQ(0, std::memcmp(in.data(), init.data(), n * sizeof(ParticleState)));
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, StageFusedGather,
    ::testing::Values(GatherCase{1, 1.0f / 60.0f}, GatherCase{4099, 1.0f / 60.0f},
                      GatherCase{300007, 1.0f / 60.0f}, GatherCase{70001, 0.0f}),
    [](const auto& p) {
      return "n" + std::to_string(p.param.count) + (p.param.dt == 0.0f ? "_paused" : "");
    });

TEST(StageFusedGather, RefusesToGatherInPlace) {
  REQUIRE_CUDA_DEVICE();
  cuda::DeviceBuffer<ParticleState> state(4);
  cuda::DeviceBuffer<std::uint32_t> order(4);
  cuda::FusedStepArgs fused;
  fused.state_in = state.data();
  fused.state_out = state.data();
  fused.gather = order.data();
  fused.count = 4;
  EXPECT_THROW(cuda::launch_step_fused(fused, nullptr), std::invalid_argument);
}

}  // namespace
}  // namespace particles
