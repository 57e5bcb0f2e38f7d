#pragma once
// Stage 1 of the frame: the scene models on the GPU. Host API only; kernels are in simulate.cu,
// which calls exactly core/scene_models.hpp (the CPU twins are cpu_simulate and
// cpu_write_vertices). Launches are asynchronous on `stream` and capturable into a graph.
#include <cuda_runtime.h>

#include <cstdint>

#include "core/particle.hpp"
#include "core/scene_desc.hpp"

namespace particles::cuda {

// state[i] = model_init(params, i) for i < count.
void launch_init(const ModelParams& params, ParticleState* state, std::uint32_t count,
                 cudaStream_t stream);

// Advances every particle of state_in by *dt (not at all when *dt == 0, as on the CPU) into
// state_out and writes its vertex, and for a model that sizes its sprites (model_scales_sprites)
// its sprite scale. state_out may be state_in (in place). dt and the vertex and scale targets
// are read from device memory at run time, not baked in at launch: a captured graph stays valid
// while the time step changes and the GL buffers map elsewhere. `sprite_scales` may be null for
// the other models.
void launch_step(const ModelParams& params, const ParticleState* state_in, ParticleState* state_out,
                 std::uint32_t count, const float* dt, ParticleVertex* const* vertices,
                 float* const* sprite_scales, cudaStream_t stream);

}  // namespace particles::cuda
