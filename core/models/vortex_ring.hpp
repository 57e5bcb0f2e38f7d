#pragma once
// The vortex ring (VortexRingParams): a torus of particles round a core circle of radius R that
// rises along +y. In the ring's frame a particle turns about the core in its meridional plane at
// the speed of a smoothed line vortex, v(d) = 2 v_core a d / (d^2 + a^2) (fastest at d = a, the
// core radius), so the inner rolls overtake the outer and the two dyes, laid in the inner and
// outer halves of the tube, wind into a spiral; the ring also turns slowly about its axis. After
// rising `travel` units the ring fades out and starts again from its first state.
//
// s.age is the ring's clock (the same for every particle), wrapped at the travel's period.
// Exact arithmetic only (core/models/exact_math.hpp): both backends agree bit for bit.
#include <cstdint>

#include "core/color.hpp"
#include "core/hash.hpp"
#include "core/host_device.hpp"
#include "core/models/exact_math.hpp"
#include "core/models/model_params.hpp"
#include "core/particle.hpp"
#include "core/vec3.hpp"

namespace particles {

PARTICLES_HD float vortex_period(const VortexRingParams& p) {
  return p.travel / p.rise_speed;
}

// Height of the ring's centre at clock t.
PARTICLES_HD float vortex_centre_y(const VortexRingParams& p, float t) {
  return p.origin.y + p.rise_speed * t;
}

// Dye 1 (colors.outer) starts in the outer half of the tube, dye 0 in the inner.
PARTICLES_HD bool vortex_outer_dye(std::uint32_t seed) {
  return (hash_u32(seed ^ 0x1b873593u) & 1u) != 0u;
}

// The particle's place at the start of the travel, a pure function of its seed.
PARTICLES_HD Vec3 vortex_start(const VortexRingParams& p, std::uint32_t seed) {
  RandomStream rs{seed};
  const float around = kTwoPi * rs.next();  // angle about the axis
  // A point of the tube's disc (radius tube_radius) in the meridional plane: uniform, by
  // rejection; its radial side says the dye.
  float dr = 0.0f, dy = 0.0f;
  for (int i = 0; i < 8; ++i) {
    const float a = 2.0f * rs.next() - 1.0f, b = 2.0f * rs.next() - 1.0f;
    if (a * a + b * b <= 1.0f) {
      dr = a;
      dy = b;
      break;
    }
  }
  dr = abs_f(dr) * (vortex_outer_dye(seed) ? 1.0f : -1.0f);
  const float r = p.ring_radius + p.tube_radius * dr;
  return {p.origin.x + r * exact_cos(around), vortex_centre_y(p, 0.0f) + p.tube_radius * dy,
          p.origin.z + r * exact_sin(around)};
}

// Velocity at world point `at` when the ring's centre is at height cy: the swirl about the core
// plus the ring's rise and twirl.
PARTICLES_HD Vec3 vortex_velocity(const VortexRingParams& p, Vec3 at, float cy) {
  const float x = at.x - p.origin.x, z = at.z - p.origin.z;
  const float r = sqrtf(x * x + z * z);
  const float inv_r = r > 1e-6f ? 1.0f / r : 0.0f;
  const float ex = x * inv_r, ez = z * inv_r;  // unit radial direction
  const float dr = r - p.ring_radius, dy = at.y - cy;
  const float d2 = dr * dr + dy * dy;
  const float a2 = p.core_radius * p.core_radius;
  // Turning about the core: up on the inside of the ring, down outside, as a ring rising +y
  // has it. Angular speed w(d) = v(d) / d.
  const float w = 2.0f * p.core_speed * p.core_radius / (d2 + a2);
  const float vr = w * dy, vy = -w * dr;
  return {ex * vr - p.twirl * z, p.rise_speed + vy, ez * vr + p.twirl * x};
}

PARTICLES_HD ParticleState vortex_init(const VortexRingParams& p, std::uint32_t seed) {
  ParticleState s{};
  s.seed = seed;
  const Vec3 at = vortex_start(p, seed);
  const Vec3 v = vortex_velocity(p, at, vortex_centre_y(p, 0.0f));
  set_motion(s, at, v);
  return s;
}

PARTICLES_HD void vortex_step(const VortexRingParams& p, ParticleState& s, float dt) {
  const float cy = vortex_centre_y(p, s.age);
  s.age += dt;
  if (s.age >= vortex_period(p)) {
    const float age = s.age - vortex_period(p);
    s = vortex_init(p, s.seed);  // a fresh ring
    s.age = age;
    return;
  }
  // In the ring's frame the swirl turns each particle about its core point, keeping its
  // distance from the core; the rise and the twirl move that frame.
  const float x = s.px - p.origin.x, z = s.pz - p.origin.z;
  const float r = sqrtf(x * x + z * z);
  const float dr = r - p.ring_radius, dy = s.py - cy;
  const float w =
      2.0f * p.core_speed * p.core_radius / (dr * dr + dy * dy + p.core_radius * p.core_radius);
  const Turn swirl = small_turn(-w * dt);  // clockwise in (dr, dy), as vortex_velocity
  const float dr2 = dr * swirl.c - dy * swirl.s;
  const float dy2 = dr * swirl.s + dy * swirl.c;
  const float scale = r > 1e-6f ? (p.ring_radius + dr2) / r : 0.0f;
  const Turn twirl = small_turn(p.twirl * dt);
  const float x2 = x * scale, z2 = z * scale;
  s.px = p.origin.x + x2 * twirl.c - z2 * twirl.s;
  s.pz = p.origin.z + x2 * twirl.s + z2 * twirl.c;
  s.py = vortex_centre_y(p, s.age) + dy2;
  const Vec3 v = vortex_velocity(p, Vec3{s.px, s.py, s.pz}, vortex_centre_y(p, s.age));
  s.vx = v.x;
  s.vy = v.y;
  s.vz = v.z;
}

PARTICLES_HD Color vortex_color(const ModelParams& m, const ParticleState& s) {
  const VortexRingParams& p = m.vortex_ring;
  Color c = vortex_outer_dye(s.seed) ? m.color_outer : m.color_inner;
  const float shade = 0.75f + 0.25f * unit_float(hash_u32(s.seed ^ 0xcc9e2d51u));
  c.r *= shade;
  c.g *= shade;
  c.b *= shade;
  // Fade in over the first tenth of the travel and out over the last, hiding the restart.
  const float t = s.age / vortex_period(p);
  c.a *= clamp01(t * 10.0f) * clamp01((1.0f - t) * 10.0f);
  return c;
}

}  // namespace particles
