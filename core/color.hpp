#pragma once
#include <cstdint>

#include "core/host_device.hpp"
#include "core/vec3.hpp"

namespace particles {

// Straight (not premultiplied) RGBA in [0, 1]; the fragment shader premultiplies.
struct Color {
  float r = 1.0f, g = 1.0f, b = 1.0f, a = 1.0f;
};

PARTICLES_HD Color mix(Color a, Color b, float t) {
  return {lerp(a.r, b.r, t), lerp(a.g, b.g, t), lerp(a.b, b.b, t), lerp(a.a, b.a, t)};
}

// Packs to the byte order GL reads for a GL_UNSIGNED_BYTE x4 normalized attribute
// (r in the lowest byte on little-endian machines).
PARTICLES_HD std::uint32_t pack_rgba8(Color c) {
  auto byte = [](float v) { return static_cast<std::uint32_t>(clamp01(v) * 255.0f + 0.5f); };
  return byte(c.r) | (byte(c.g) << 8) | (byte(c.b) << 16) | (byte(c.a) << 24);
}

// The inverse of pack_rgba8 for its 256 levels: pack_rgba8(unpack_rgba8(v)) == v.
PARTICLES_HD Color unpack_rgba8(std::uint32_t v) {
  auto channel = [](std::uint32_t byte) { return static_cast<float>(byte & 0xffu) / 255.0f; };
  return {channel(v), channel(v >> 8), channel(v >> 16), channel(v >> 24)};
}

}  // namespace particles
