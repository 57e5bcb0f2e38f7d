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

// One channel as an 8-bit normalized byte: clamped to [0, 1] (NaN to 0), rounded to nearest.
// Written as two selects and a conversion through int32 (the value is at most 255.5) so that a
// host loop over many colours compiles to vector min, max and conversion; the GPU computes the
// same bits.
PARTICLES_HD std::uint32_t unorm8_byte(float v) {
  const float at_least_zero = v > 0.0f ? v : 0.0f;
  const float clamped = at_least_zero < 1.0f ? at_least_zero : 1.0f;
  return static_cast<std::uint32_t>(static_cast<std::int32_t>(clamped * 255.0f + 0.5f));
}

// Packs to the byte order GL reads for a GL_UNSIGNED_BYTE x4 normalized attribute
// (r in the lowest byte on little-endian machines).
PARTICLES_HD std::uint32_t pack_rgba8(Color c) {
  return unorm8_byte(c.r) | (unorm8_byte(c.g) << 8) | (unorm8_byte(c.b) << 16) |
         (unorm8_byte(c.a) << 24);
}

// The inverse of pack_rgba8 for its 256 levels: pack_rgba8(unpack_rgba8(v)) == v.
PARTICLES_HD Color unpack_rgba8(std::uint32_t v) {
  auto channel = [](std::uint32_t byte) { return static_cast<float>(byte & 0xffu) / 255.0f; };
  return {channel(v), channel(v >> 8), channel(v >> 16), channel(v >> 24)};
}

}  // namespace particles
