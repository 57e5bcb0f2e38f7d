#pragma once
#include "core/host_device.hpp"
#include "core/vec3.hpp"

namespace particles {

// View-space depth along the camera's forward axis; larger is farther.
struct DepthFrame {
  Vec3 eye;
  Vec3 forward;  // unit length
};

PARTICLES_HD float view_depth(const DepthFrame& f, Vec3 p) {
  return dot(p - f.eye, f.forward);
}

// Distance to the eye, what some viewers sort by: it orders two particles as their view depths
// do only when both lie on the view axis, so off-axis neighbours can swap
// (DrawOrder::eye_distance).
PARTICLES_HD float eye_distance(const DepthFrame& f, Vec3 p) {
  return length(p - f.eye);
}

// What the depth keys are made from; larger is farther either way.
enum class DepthMetric { view_depth, eye_distance };

PARTICLES_HD float sort_depth(const DepthFrame& f, Vec3 p, DepthMetric metric) {
  return metric == DepthMetric::eye_distance ? eye_distance(f, p) : view_depth(f, p);
}

}  // namespace particles
