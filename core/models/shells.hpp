#pragma once
// Nested shells (ShellsParams): concentric spheres, coloured colors.inner and colors.outer in
// turn from the centre out, each turning the other way from the one inside it about an axis
// tilted the other way. Translucent layers of contrasting colours are a test card for ordering:
// drawn out of order, the far side of every shell shows through the near side of the others.
// Longitude stripes, light and dim, make the turning visible.
//
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

PARTICLES_HD float shell_radius(const ShellsParams& p, int i) {
  if (p.shells == 1) return p.inner_radius;
  return p.inner_radius + (p.outer_radius - p.inner_radius) * static_cast<float>(i) /
                              static_cast<float>(p.shells - 1);
}

// The particle's shell, drawn with weight r^2 so every shell is covered equally densely.
PARTICLES_HD int shell_of(const ShellsParams& p, std::uint32_t seed) {
  float total = 0.0f;
  for (int i = 0; i < p.shells; ++i) total += shell_radius(p, i) * shell_radius(p, i);
  float pick = unit_float(hash_u32(seed ^ 0x3c6ef372u)) * total;
  for (int i = 0; i < p.shells - 1; ++i) {
    pick -= shell_radius(p, i) * shell_radius(p, i);
    if (pick < 0.0f) return i;
  }
  return p.shells - 1;
}

// Shell i's axis: +y leaning by +-tilt towards +z, alternately.
PARTICLES_HD Vec3 shell_axis(const ShellsParams& p, int i) {
  const float lean = (i % 2 == 0 ? 1.0f : -1.0f) * p.tilt;
  return {0.0f, exact_cos(lean), exact_sin(lean)};
}

// Angular speed of shell i: alternate directions, outer shells a little slower.
PARTICLES_HD float shell_spin(const ShellsParams& p, int i) {
  const float sign = i % 2 == 0 ? 1.0f : -1.0f;
  return sign * p.spin * p.inner_radius / shell_radius(p, i);
}

// The particle's direction from the centre at the start, a pure function of its seed.
PARTICLES_HD Vec3 shell_start_direction(std::uint32_t seed) {
  RandomStream rs{seed};
  return random_direction(rs);
}

PARTICLES_HD ParticleState shells_init(const ShellsParams& p, std::uint32_t seed) {
  ParticleState s{};
  s.seed = seed;
  const int i = shell_of(p, seed);
  const Vec3 at = shell_start_direction(seed) * shell_radius(p, i);
  const Vec3 v = cross(shell_axis(p, i), at) * shell_spin(p, i);
  set_motion(s, at, v);
  return s;
}

PARTICLES_HD void shells_step(const ShellsParams& p, ParticleState& s, float dt) {
  s.age += dt;
  const int i = shell_of(p, s.seed);
  const Vec3 k = shell_axis(p, i);
  const float w = shell_spin(p, i);
  const Vec3 at = turn_about(Vec3{s.px, s.py, s.pz}, k, small_turn(w * dt));
  const Vec3 v = cross(k, at) * w;
  set_motion(s, at, v);
}

PARTICLES_HD Color shells_color(const ModelParams& m, const ParticleState& s) {
  const ShellsParams& p = m.shells;
  const int i = shell_of(p, s.seed);
  Color c = i % 2 == 0 ? m.color_inner : m.color_outer;
  if (p.stripes > 0) {
    // The stripe is where the particle started (it turns with its shell): its longitude about
    // the shell's axis, measured from an axis-perpendicular direction.
    const Vec3 k = shell_axis(p, i);
    const Vec3 d = shell_start_direction(s.seed);
    const Vec3 e1{1.0f, 0.0f, 0.0f};
    const Vec3 e2 = cross(k, e1);
    const float turns = 0.5f + exact_atan2(dot(d, e2), dot(d, e1)) * (1.0f / kTwoPi);
    const auto stripe = static_cast<int>(floorf(turns * static_cast<float>(2 * p.stripes)));
    if (stripe % 2 != 0) {
      c.r *= 0.45f;
      c.g *= 0.45f;
      c.b *= 0.45f;
    }
  }
  return c;
}

}  // namespace particles
