#pragma once
// The spiral galaxy (GalaxyParams): stars on circular orbits, flat rotation curve.
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

}  // namespace particles
