#pragma once
// Per-particle data: the simulation's state, which is also what the renderer draws from. The GL
// vertex buffers hold ParticleState as it is (shaders/layout.h names the fields the vertex shader
// reads), so a frame writes each particle once; the sprite's colour is a function of the state
// that the vertex shader computes (model_color below is its CPU twin). A plain struct of 4-byte
// fields, so the CUDA side loads it as two float4 and the layout matches on every compiler.
#include <cstddef>
#include <cstdint>

namespace particles {

// 16-byte aligned so the GPU moves each one with two 16-byte loads and stores.
struct alignas(16) ParticleState {
  float px, py, pz;
  float age;  // seconds since (re)spawn; models without a lifetime ignore it
  float vx, vy, vz;
  std::uint32_t seed;  // advanced at every respawn so each life draws fresh randomness
};
static_assert(sizeof(ParticleState) == 32);
static_assert(offsetof(ParticleState, age) == 12);
static_assert(offsetof(ParticleState, seed) == 28);

}  // namespace particles
