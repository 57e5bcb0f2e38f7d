#pragma once
// Bounding extents of one frame: feed depth-key quantization, camera framing and the HUD.
#include <cfloat>

#include "core/host_device.hpp"
#include "core/vec3.hpp"

namespace particles {

struct Extents {
  Vec3 min{FLT_MAX, FLT_MAX, FLT_MAX};
  Vec3 max{-FLT_MAX, -FLT_MAX, -FLT_MAX};
  float depth_min = FLT_MAX;
  float depth_max = -FLT_MAX;
  float max_speed = 0.0f;

  bool empty() const { return depth_min > depth_max; }
};

PARTICLES_HD float min_f(float a, float b) {
  return b < a ? b : a;
}
PARTICLES_HD float max_f(float a, float b) {
  return b > a ? b : a;
}

// Folds one particle in. NaN coordinates are ignored by the comparisons (they never win).
PARTICLES_HD void extents_add(Extents& e, Vec3 p, float depth, float speed) {
  e.min = {min_f(e.min.x, p.x), min_f(e.min.y, p.y), min_f(e.min.z, p.z)};
  e.max = {max_f(e.max.x, p.x), max_f(e.max.y, p.y), max_f(e.max.z, p.z)};
  e.depth_min = min_f(e.depth_min, depth);
  e.depth_max = max_f(e.depth_max, depth);
  e.max_speed = max_f(e.max_speed, speed);
}

PARTICLES_HD Extents extents_merge(const Extents& a, const Extents& b) {
  Extents r;
  r.min = {min_f(a.min.x, b.min.x), min_f(a.min.y, b.min.y), min_f(a.min.z, b.min.z)};
  r.max = {max_f(a.max.x, b.max.x), max_f(a.max.y, b.max.y), max_f(a.max.z, b.max.z)};
  r.depth_min = min_f(a.depth_min, b.depth_min);
  r.depth_max = max_f(a.depth_max, b.depth_max);
  r.max_speed = max_f(a.max_speed, b.max_speed);
  return r;
}

}  // namespace particles
