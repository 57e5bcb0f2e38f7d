#pragma once
// Counter-based randomness: particle i's initial state is a pure function of (i, seed), so both
// backends create bit-identical scenes without sharing a generator.
#include <cstdint>

#include "core/host_device.hpp"

namespace particles {

// A 32-bit integer finaliser (xorshift-multiply rounds); good avalanche, cheap on both sides.
PARTICLES_HD std::uint32_t hash_u32(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

PARTICLES_HD std::uint32_t hash_combine(std::uint32_t a, std::uint32_t b) {
  return hash_u32(a ^ (b * 0x9e3779b9U + 0x7f4a7c15U));
}

// Uniform in [0, 1) from the top 24 bits, exactly representable as float.
PARTICLES_HD float unit_float(std::uint32_t h) {
  return static_cast<float>(h >> 8) * (1.0f / 16777216.0f);
}

// A small stream of uniforms for one particle: draw k is hash(seed, k).
struct RandomStream {
  std::uint32_t seed;
  std::uint32_t counter = 0;
  PARTICLES_HD float next() { return unit_float(hash_combine(seed, counter++)); }
};

}  // namespace particles
