#pragma once
// The fountain (FountainParams): ballistic droplets from a nozzle, placed analytically per life.
// Written with the C library's sinf/cosf/logf/powf, which differ between the backends by an
// ulp or two: the GPU tests compare this model within a tolerance. (The orbits and arcs are not
// chaotic, so the difference stays an ulp or two.)
#include <cstdint>

#include "core/color.hpp"
#include "core/hash.hpp"
#include "core/host_device.hpp"
#include "core/models/exact_math.hpp"
#include "core/models/model_params.hpp"
#include "core/particle.hpp"
#include "core/vec3.hpp"

namespace particles {

// Launch velocity of one life of a fountain particle, drawn from the life's seed.
PARTICLES_HD Vec3 fountain_launch_velocity(const FountainParams& f, std::uint32_t life_seed) {
  RandomStream rs{life_seed};
  const float phi = kTwoPi * rs.next();
  const float cos_theta = 1.0f - rs.next() * (1.0f - cosf(f.cone_angle));
  const float sin_theta = sqrtf(max_zero(1.0f - cos_theta * cos_theta));
  const float speed = f.speed * (0.8f + 0.2f * rs.next());
  return {speed * sin_theta * cosf(phi), speed * cos_theta, speed * sin_theta * sinf(phi)};
}

// Places a particle `age` seconds into the life drawn from s.seed, analytically.
PARTICLES_HD void fountain_place(const FountainParams& f, ParticleState& s, float age) {
  const Vec3 v0 = fountain_launch_velocity(f, s.seed);
  s.px = f.nozzle.x + v0.x * age;
  s.py = f.nozzle.y + v0.y * age - 0.5f * f.gravity * age * age;
  s.pz = f.nozzle.z + v0.z * age;
  s.vx = v0.x;
  s.vy = v0.y - f.gravity * age;
  s.vz = v0.z;
  s.age = age;
}

// Particles start spread over a whole lifetime so the fountain is full from the first frame.
PARTICLES_HD ParticleState fountain_init(const FountainParams& f, std::uint32_t seed) {
  ParticleState s{};
  s.seed = seed;
  fountain_place(f, s, f.lifetime * unit_float(hash_u32(seed ^ 0x5bd1e995u)));
  return s;
}

PARTICLES_HD void fountain_step(const FountainParams& f, ParticleState& s, float dt) {
  s.age += dt;
  if (s.age >= f.lifetime) {
    s.seed = hash_u32(s.seed);  // a new life: fresh direction and speed
    fountain_place(f, s, s.age - f.lifetime);
    return;
  }
  s.vy -= f.gravity * dt;  // semi-implicit Euler: velocity first
  s.px += s.vx * dt;
  s.py += s.vy * dt;
  s.pz += s.vz * dt;
}

PARTICLES_HD Color fountain_color(const ModelParams& m, const ParticleState& s) {
  const float t = clamp01(s.age / m.fountain.lifetime);
  Color c = mix(m.color_inner, m.color_outer, t);
  const float fade = t > 0.8f ? (1.0f - t) * 5.0f : 1.0f;  // dissolve over the last fifth
  c.a *= fade;
  return c;
}

}  // namespace particles
