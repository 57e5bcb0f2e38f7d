#pragma once
// A pixel of a frame's image as both renderers leave it in the float render target
// (app/gl/render_target.hpp): premultiplied RGBA in 32-bit float, rows bottom first. Files and the
// window hold 8 bits a channel; rgba8_of is the one conversion the program's own code makes
// (screenshots, recordings, the comparison views' byte arithmetic).
#include <cmath>
#include <cstdint>

#include "core/host_device.hpp"

namespace particles {

// Layout-compatible with CUDA's float4 and with a GL_RGBA32F texel.
struct alignas(16) PixelF {
  float r = 0.0f, g = 0.0f, b = 0.0f, a = 0.0f;
  friend bool operator==(const PixelF&, const PixelF&) = default;
};

// A channel in [0, 1] as a byte: round to nearest (ties to even), clamped, NaN to 0.
PARTICLES_HD std::uint32_t unorm8_of(float v) {
  const float c = v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);  // NaN fails both tests: 0
  return static_cast<std::uint32_t>(rintf((v == v ? c : 0.0f) * 255.0f));
}

// r in the lowest byte, as GL reads RGBA / UNSIGNED_BYTE.
PARTICLES_HD std::uint32_t rgba8_of(const PixelF& p) {
  return unorm8_of(p.r) | unorm8_of(p.g) << 8 | unorm8_of(p.b) << 16 | unorm8_of(p.a) << 24;
}

PARTICLES_HD float unorm8_to_float(std::uint32_t byte) {
  return static_cast<float>(byte & 0xffu) / 255.0f;
}

PARTICLES_HD PixelF pixel_of_rgba8(std::uint32_t rgba8) {
  return {unorm8_to_float(rgba8), unorm8_to_float(rgba8 >> 8), unorm8_to_float(rgba8 >> 16),
          unorm8_to_float(rgba8 >> 24)};
}

// A straight-alpha colour premultiplied, as the render target is cleared to it.
PARTICLES_HD PixelF premultiplied(float r, float g, float b, float a) {
  return {r * a, g * a, b * a, a};
}

}  // namespace particles
