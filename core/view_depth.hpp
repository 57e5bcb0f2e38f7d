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

}  // namespace particles
