#pragma once
// Point clouds (PointsParams): each particle is one point of the scene's cloud (a PLY file, read
// by app/scene/ply_reader.hpp), drawn in the file's colours or the scene's, still or moving
// gently as a whole. A scan of translucent points is all overlap, so drawing order shows at once.
//
// s.seed is the particle's point, an index into records: the fused auto step moves particles to
// other places of the state array, so each carries its point with it. s.age is the motion's
// clock, wrapped at its period. A position is a function of the point and the clock alone, never
// accumulated, so the cloud keeps its shape however long it turns. Exact arithmetic only
// (core/models/exact_math.hpp): both backends agree bit for bit.
#include <cstdint>

#include "core/color.hpp"
#include "core/host_device.hpp"
#include "core/models/exact_math.hpp"
#include "core/models/model_params.hpp"
#include "core/particle.hpp"
#include "core/vec3.hpp"

namespace particles {

// Seconds after which the motion repeats; 0 for none.
PARTICLES_HD float points_period(const PointsParams& p) {
  switch (p.motion) {
    case PointMotion::turntable:
      return p.speed == 0.0f ? 0.0f : kTwoPi / abs_f(p.speed);
    case PointMotion::breathing:
      return p.period;
    case PointMotion::still:
      break;
  }
  return 0.0f;
}

// Puts the particle where its point is at clock s.age, with that motion's velocity.
PARTICLES_HD void points_place(const PointsParams& p, const PointRecord& point, ParticleState& s) {
  const Vec3 rest{point.x, point.y, point.z};
  const Vec3 d = rest - p.centre;
  switch (p.motion) {
    case PointMotion::still:
      set_motion(s, rest, Vec3{});
      return;
    case PointMotion::turntable: {
      // Turned by speed * age about +y through the centre; d/dt of the turned offset t is
      // speed * (t.z, 0, -t.x).
      const float a = p.speed * s.age;
      const float c = exact_cos(a), sn = exact_sin(a);
      const Vec3 t{c * d.x + sn * d.z, d.y, c * d.z - sn * d.x};
      set_motion(s, p.centre + t, Vec3{p.speed * t.z, 0.0f, -p.speed * t.x});
      return;
    }
    case PointMotion::breathing: {
      const float w = kTwoPi / p.period;
      const float phase = w * s.age;
      set_motion(s, p.centre + d * (1.0f + p.amplitude * exact_sin(phase)),
                 d * (p.amplitude * w * exact_cos(phase)));
      return;
    }
  }
}

PARTICLES_HD ParticleState points_init(const PointsParams& p, std::uint32_t index) {
  ParticleState s{};
  if (p.record_count == 0) return s;  // the pipelines refuse a cloud without points
  s.seed = index % p.record_count;
  points_place(p, p.records[s.seed], s);
  return s;
}

PARTICLES_HD void points_step(const PointsParams& p, ParticleState& s, float dt) {
  s.age += dt;
  const float period = points_period(p);
  if (period > 0.0f && s.age >= period) s.age -= period;  // a step is shorter than any period
  points_place(p, p.records[s.seed], s);
}

PARTICLES_HD std::uint32_t points_rgba8(const PointsParams& p, const ParticleState& s) {
  return p.records[s.seed].rgba8;
}

PARTICLES_HD Color points_color(const ModelParams& m, const ParticleState& s) {
  return unpack_rgba8(points_rgba8(m.points, s));
}

}  // namespace particles
