#pragma once
// Snow (SnowParams): flakes fill a box and wrap round it (out of the floor, back in at the
// top), falling at their own speeds, swaying, drifting with the wind. A scene puts the camera
// inside the box, so flakes lie behind and beside it and pass through its near plane. Flakes
// near the lantern take colors.inner, far ones colors.outer, so a near flake and a far one
// drawn over each other differ, and only back-to-front drawing puts the near one on top.
//
// s.age is the flake's sway clock, wrapped at sway_period. Exact arithmetic only
// (core/models/exact_math.hpp): both backends agree bit for bit.
#include <cstdint>

#include "core/color.hpp"
#include "core/hash.hpp"
#include "core/host_device.hpp"
#include "core/models/exact_math.hpp"
#include "core/models/model_params.hpp"
#include "core/particle.hpp"
#include "core/vec3.hpp"

namespace particles {

// Per-flake constants, from the seed: fall speed factor, sway phase and direction.
struct Flake {
  float fall;    // times fall_speed
  float phase;   // radians
  float dx, dz;  // unit sway direction
};

PARTICLES_HD Flake flake_of(std::uint32_t seed) {
  RandomStream rs{hash_u32(seed ^ 0x4cf5ad43u)};
  Flake f;
  f.fall = 0.6f + 0.8f * rs.next();
  f.phase = kTwoPi * rs.next();
  const float a = kTwoPi * rs.next();
  f.dx = exact_cos(a);
  f.dz = exact_sin(a);
  return f;
}

PARTICLES_HD Vec3 snow_velocity(const SnowParams& p, const Flake& f, float clock) {
  const float w = kTwoPi / p.sway_period;
  const float sway = p.sway * w * exact_cos(w * clock + f.phase);  // d/dt of sway sin(...)
  return {p.wind.x + sway * f.dx, p.wind.y - p.fall_speed * f.fall, p.wind.z + sway * f.dz};
}

// v wrapped into [lo, hi): one box length at most, which is all a frame can move a flake (the
// loader keeps the box larger than a frame's travel).
PARTICLES_HD float wrap_into(float v, float lo, float hi) {
  if (v < lo) return v + (hi - lo);
  if (v >= hi) return v - (hi - lo);
  return v;
}

PARTICLES_HD ParticleState snow_init(const SnowParams& p, std::uint32_t seed) {
  RandomStream rs{seed};
  ParticleState s{};
  s.seed = seed;
  s.px = lerp(p.box_min.x, p.box_max.x, rs.next());
  s.py = lerp(p.box_min.y, p.box_max.y, rs.next());
  s.pz = lerp(p.box_min.z, p.box_max.z, rs.next());
  const Vec3 v = snow_velocity(p, flake_of(seed), 0.0f);
  s.vx = v.x;
  s.vy = v.y;
  s.vz = v.z;
  return s;
}

PARTICLES_HD void snow_step(const SnowParams& p, ParticleState& s, float dt) {
  s.age += dt;
  if (s.age >= p.sway_period) s.age -= p.sway_period;
  const Vec3 v = snow_velocity(p, flake_of(s.seed), s.age);
  s.vx = v.x;
  s.vy = v.y;
  s.vz = v.z;
  s.px = wrap_into(s.px + v.x * dt, p.box_min.x, p.box_max.x);
  s.py = wrap_into(s.py + v.y * dt, p.box_min.y, p.box_max.y);
  s.pz = wrap_into(s.pz + v.z * dt, p.box_min.z, p.box_max.z);
}

PARTICLES_HD Color snow_color(const ModelParams& m, const ParticleState& s) {
  const SnowParams& p = m.snow;
  const Vec3 d = Vec3{s.px, s.py, s.pz} - p.lantern;
  const float t = clamp01(length(d) / p.lantern_radius);
  Color c = mix(m.color_inner, m.color_outer, t * t * (3.0f - 2.0f * t));
  const float shade = 0.55f + 0.45f * unit_float(hash_u32(s.seed ^ 0x165667b1u));
  c.r *= shade;
  c.g *= shade;
  c.b *= shade;
  return c;
}

}  // namespace particles
