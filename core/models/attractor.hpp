#pragma once
// The Lorenz attractor (AttractorParams): particles stream along the flow
//   x' = sigma (y - x),  y' = x (rho - z) - y,  z' = x y - beta z,
// drawn with the attractor's z up (+y), scaled by `scale` about `centre`, and coloured by wing:
// colors.inner where x < 0, colors.outer where x > 0, so the two wings, which cross in depth
// from most views, show which is in front only when drawn back to front.
//
// The flow is chaotic: any difference between the backends would grow until the particles are
// elsewhere. Classic RK4 in exact arithmetic (core/models/exact_math.hpp) keeps them equal bit
// for bit. The state holds world coordinates; attractor coordinates are recomputed from them
// each step, the same way on both backends.
#include <cstdint>

#include "core/color.hpp"
#include "core/hash.hpp"
#include "core/host_device.hpp"
#include "core/models/exact_math.hpp"
#include "core/models/model_params.hpp"
#include "core/particle.hpp"
#include "core/vec3.hpp"

namespace particles {

// Largest RK4 step in attractor time; a frame takes as many equal steps as it needs.
inline constexpr float kAttractorMaxStep = 0.004f;

PARTICLES_HD Vec3 lorenz_rate(const AttractorParams& p, Vec3 q) {
  return {p.sigma * (q.y - q.x), q.x * (p.rho - q.z) - q.y, q.x * q.y - p.beta * q.z};
}

PARTICLES_HD Vec3 lorenz_rk4(const AttractorParams& p, Vec3 q, float h) {
  const Vec3 k1 = lorenz_rate(p, q);
  const Vec3 k2 = lorenz_rate(p, q + k1 * (0.5f * h));
  const Vec3 k3 = lorenz_rate(p, q + k2 * (0.5f * h));
  const Vec3 k4 = lorenz_rate(p, q + k3 * h);
  return q + (k1 + (k2 + k3) * 2.0f + k4) * (h / 6.0f);
}

// Attractor coordinates <-> world: the attractor's (x, y, z) is drawn at (x, z - (rho - 1), y).
PARTICLES_HD Vec3 attractor_to_world(const AttractorParams& p, Vec3 q) {
  return p.centre + Vec3{q.x, q.z - (p.rho - 1.0f), q.y} * p.scale;
}
PARTICLES_HD Vec3 attractor_from_world(const AttractorParams& p, Vec3 w) {
  const Vec3 d = (w - p.centre) * (1.0f / p.scale);
  return {d.x, d.z, d.y + (p.rho - 1.0f)};
}

PARTICLES_HD void attractor_store(const AttractorParams& p, ParticleState& s, Vec3 q) {
  const Vec3 w = attractor_to_world(p, q);
  const Vec3 r = lorenz_rate(p, q);
  s.px = w.x;
  s.py = w.y;
  s.pz = w.z;
  const float k = p.scale * p.speed;  // world units per second per attractor unit
  s.vx = r.x * k;
  s.vy = r.z * k;
  s.vz = r.y * k;
}

// A random start near the attractor, then 150 to 650 steps along the flow: chaos spreads the
// particles over the whole attractor and leaves none on the way in.
PARTICLES_HD ParticleState attractor_init(const AttractorParams& p, std::uint32_t seed) {
  RandomStream rs{seed};
  Vec3 q{20.0f * rs.next() - 10.0f, 20.0f * rs.next() - 10.0f, p.rho - 8.0f + 16.0f * rs.next()};
  const int steps = 150 + static_cast<int>(500.0f * rs.next());
  for (int i = 0; i < steps; ++i) q = lorenz_rk4(p, q, 0.01f);
  ParticleState s{};
  s.seed = seed;
  attractor_store(p, s, q);
  return s;
}

PARTICLES_HD void attractor_step(const AttractorParams& p, ParticleState& s, float dt) {
  s.age += dt;
  const float span = p.speed * dt;
  const float n = floorf(abs_f(span) / kAttractorMaxStep) + 1.0f;
  const float h = span / n;
  Vec3 q = attractor_from_world(p, Vec3{s.px, s.py, s.pz});
  for (int i = 0; i < static_cast<int>(n); ++i) q = lorenz_rk4(p, q, h);
  attractor_store(p, s, q);
}

PARTICLES_HD Color attractor_color(const ModelParams& m, const ParticleState& s) {
  const AttractorParams& p = m.attractor;
  const float x = (s.px - p.centre.x) / p.scale;
  const float t = 0.5f + 0.5f * x / (abs_f(x) + 3.0f);  // 0 deep in the x < 0 wing, 1 in the other
  Color c = mix(m.color_inner, m.color_outer, t);
  const float shade = 0.5f + 0.5f * unit_float(hash_u32(s.seed ^ 0x7f4a7c15u));
  c.r *= shade;
  c.g *= shade;
  c.b *= shade;
  return c;
}

}  // namespace particles
