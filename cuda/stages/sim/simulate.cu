#include "cuda/stages/sim/simulate.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/scene_models.hpp"
#include "cuda/common/check.hpp"
#include "cuda/common/launch_grid.hpp"

namespace particles::cuda {
namespace {

constexpr int kThreads = 256;

__global__ void init_kernel(ModelParams params, ParticleState* state, std::uint32_t count) {
  const std::uint32_t stride = gridDim.x * blockDim.x;
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
    state[i] = model_init(params, i);
  }
}

// One instantiation per model (core/scene_models.hpp, with_model).
template <Model M>
__global__ void step_kernel(ModelParams params, const ParticleState* state_in,
                            ParticleState* state_out, std::uint32_t count, const float* dt_in,
                            ParticleVertex* const* vertices_in, float* const* scales_in) {
  const float dt = *dt_in;
  ParticleVertex* vertices = *vertices_in;
  const bool in_place = state_in == state_out;
  const std::uint32_t stride = gridDim.x * blockDim.x;
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
    ParticleState s = state_in[i];
    if (dt != 0.0f) model_step_as<M>(params, s, dt);
    if (dt != 0.0f || !in_place) state_out[i] = s;
    vertices[i] = model_vertex_as<M>(params, s);
    if constexpr (model_scales_sprites(M)) (*scales_in)[i] = model_sprite_scale_as<M>(params, s);
  }
}

}  // namespace

void launch_init(const ModelParams& params, ParticleState* state, std::uint32_t count,
                 cudaStream_t stream) {
  if (count == 0) return;
  init_kernel<<<detail::grid_stride_blocks(count, kThreads, 8), kThreads, 0, stream>>>(
      params, state, count);
  CUDA_CHECK_LAUNCH("init_kernel", stream);
}

void launch_step(const ModelParams& params, const ParticleState* state_in, ParticleState* state_out,
                 std::uint32_t count, const float* dt, ParticleVertex* const* vertices,
                 float* const* sprite_scales, cudaStream_t stream) {
  if (count == 0) return;
  if (model_scales_sprites(params.model) && sprite_scales == nullptr) {
    throw std::invalid_argument(
        "launch_step: this model sizes its sprites: no sprite scale target");
  }
  const unsigned blocks = detail::grid_stride_blocks(count, kThreads, 8);
  with_model(params.model, [&](auto tag) {
    step_kernel<decltype(tag)::model><<<blocks, kThreads, 0, stream>>>(
        params, state_in, state_out, count, dt, vertices, sprite_scales);
  });
  CUDA_CHECK_LAUNCH("step_kernel", stream);
}

}  // namespace particles::cuda
