#pragma once
// Per-particle data. ParticleState is the simulation's own storage; ParticleVertex is what the
// renderer reads from the GL vertex buffer. Both are plain structs of 4-byte fields so the CUDA
// side can load them as float4 and the layouts match on every compiler.
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

struct alignas(16) ParticleVertex {
  float x, y, z;
  std::uint32_t rgba8;  // straight alpha, packed by pack_rgba8
};
static_assert(sizeof(ParticleVertex) == 16);
static_assert(offsetof(ParticleVertex, rgba8) == 12);

}  // namespace particles
