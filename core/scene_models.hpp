#pragma once
// The scene models, written once for both backends: initial state, one time step, and the
// colour a particle is drawn with. The CUDA kernels and the CPU backend call exactly these.
#include <cstdint>

#include "core/color.hpp"
#include "core/hash.hpp"
#include "core/host_device.hpp"
#include "core/particle.hpp"
#include "core/scene_desc.hpp"
#include "core/vec3.hpp"
#include "core/view_depth.hpp"

namespace particles {

inline constexpr float kTwoPi = 6.28318530717958647692f;

// Standard normal by Box-Muller from two uniforms of the stream.
PARTICLES_HD float gaussian(RandomStream& rs) {
  const float u1 = 1.0f - rs.next();  // (0, 1]: log stays finite
  const float u2 = rs.next();
  return sqrtf(-2.0f * logf(u1)) * cosf(kTwoPi * u2);
}

// Angular speed of the galaxy at radius r: nearly flat rotation curve (v ~ const, so the inner
// disc turns faster), which winds the arms and makes the depth order change slowly but surely.
PARTICLES_HD float galaxy_angular_speed(const GalaxyParams& g, float r) {
  return g.rotation_speed * 1.25f * g.radius / (r + 0.25f * g.radius);
}

PARTICLES_HD ParticleState galaxy_init(const GalaxyParams& g, std::uint32_t seed) {
  RandomStream rs{seed};
  float r, theta, y;
  if (rs.next() < g.core_fraction) {
    r = 0.12f * g.radius * fabsf(gaussian(rs));
    theta = kTwoPi * rs.next();
    y = 0.5f * g.thickness * gaussian(rs);
  } else {
    const int arm = static_cast<int>(rs.next() * static_cast<float>(g.arms)) % g.arms;
    const float t = powf(rs.next(), 0.7f);
    r = g.radius * (0.06f + 0.94f * t);
    theta = kTwoPi * static_cast<float>(arm) / static_cast<float>(g.arms) + g.twist * r / g.radius +
            g.arm_spread * gaussian(rs);
    y = 0.25f * g.thickness * (1.0f - 0.8f * r / g.radius) * gaussian(rs);
  }
  ParticleState s{};
  s.px = r * cosf(theta);
  s.py = y;
  s.pz = r * sinf(theta);
  const float w = galaxy_angular_speed(g, r);
  s.vx = -w * s.pz;
  s.vy = 0.0f;
  s.vz = w * s.px;
  s.age = 0.0f;
  s.seed = seed;
  return s;
}

PARTICLES_HD void galaxy_step(const GalaxyParams& g, ParticleState& s, float dt) {
  const float r = sqrtf(s.px * s.px + s.pz * s.pz);
  const float w = galaxy_angular_speed(g, r);
  const float c = cosf(w * dt), sn = sinf(w * dt);
  const float x = s.px * c - s.pz * sn;
  const float z = s.px * sn + s.pz * c;
  s.px = x;
  s.pz = z;
  s.vx = -w * z;
  s.vz = w * x;
  s.age += dt;
}

PARTICLES_HD Color galaxy_color(const ModelParams& m, const ParticleState& s) {
  const float r = sqrtf(s.px * s.px + s.pz * s.pz);
  Color c = mix(m.color_inner, m.color_outer, clamp01(r / m.galaxy.radius));
  const float brightness = 0.65f + 0.35f * unit_float(hash_u32(s.seed));
  c.r *= brightness;
  c.g *= brightness;
  c.b *= brightness;
  return c;
}

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

// ---- dispatch on the model, used by both backends -------------------------------------------

PARTICLES_HD ParticleState model_init(const ModelParams& m, std::uint32_t index) {
  const std::uint32_t seed = hash_combine(m.seed, index);
  return m.model == Model::galaxy ? galaxy_init(m.galaxy, seed) : fountain_init(m.fountain, seed);
}

PARTICLES_HD void model_step(const ModelParams& m, ParticleState& s, float dt) {
  if (m.model == Model::galaxy) {
    galaxy_step(m.galaxy, s, dt);
  } else {
    fountain_step(m.fountain, s, dt);
  }
}

PARTICLES_HD ParticleVertex model_vertex(const ModelParams& m, const ParticleState& s) {
  const Color c = m.model == Model::galaxy ? galaxy_color(m, s) : fountain_color(m, s);
  return {s.px, s.py, s.pz, pack_rgba8(c)};
}

PARTICLES_HD Vec3 position_of(const ParticleState& s) {
  return {s.px, s.py, s.pz};
}
PARTICLES_HD float speed_of(const ParticleState& s) {
  return sqrtf(s.vx * s.vx + s.vy * s.vy + s.vz * s.vz);
}

}  // namespace particles
