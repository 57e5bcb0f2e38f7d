#pragma once
// A minimal 3-vector usable in device code (glm is host-only in this project).
#include <cmath>

#include "core/host_device.hpp"

namespace particles {

struct Vec3 {
  float x = 0.0f, y = 0.0f, z = 0.0f;
};

PARTICLES_HD Vec3 operator+(Vec3 a, Vec3 b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
PARTICLES_HD Vec3 operator-(Vec3 a, Vec3 b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
PARTICLES_HD Vec3 operator*(Vec3 a, float s) {
  return {a.x * s, a.y * s, a.z * s};
}
PARTICLES_HD float dot(Vec3 a, Vec3 b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
PARTICLES_HD float length(Vec3 a) {
  return sqrtf(dot(a, a));
}
PARTICLES_HD float lerp(float a, float b, float t) {
  return a + (b - a) * t;
}
PARTICLES_HD float max_zero(float v) {
  return v > 0.0f ? v : 0.0f;
}
PARTICLES_HD float clamp01(float v) {
  return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
}

}  // namespace particles
