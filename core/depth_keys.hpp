#pragma once
// Depth -> sort key. Sorters sort ascending, and blending needs far first, so every key here is
// "smaller = farther".
#include <cstdint>
#include <cstring>

#include "core/host_device.hpp"

namespace particles {

enum class KeyMode { exact, quantized };

PARTICLES_HD std::uint32_t float_bits(float f) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(f);
#else
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
#endif
}

PARTICLES_HD float float_of_bits(std::uint32_t u) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(u);
#else
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
#endif
}

// Order-preserving map float -> uint32: a < b (as floats) implies ordered(a) < ordered(b).
// Negative floats have their bits reversed (larger magnitude = smaller), positives get the sign
// bit set so they land above all negatives. -0.0 is folded into +0.0 so the two compare equal;
// every NaN is folded into the canonical positive quiet NaN, which lands above +inf.
PARTICLES_HD std::uint32_t ordered_bits(float f) {
  std::uint32_t bits = float_bits(f);
  if (f == 0.0f) bits = 0u;        // -0.0 == +0.0
  if (f != f) bits = 0x7fc00000u;  // any NaN -> +qNaN
  const std::uint32_t mask = (bits & 0x80000000u) ? 0xffffffffu : 0x80000000u;
  return bits ^ mask;
}

// Exact mode: all 32 bits, far (large depth) first. A NaN depth sorts before +inf, i.e. is
// drawn first, underneath everything, where a broken particle does the least harm.
PARTICLES_HD std::uint32_t exact_depth_key(float depth) {
  return ~ordered_bits(depth);
}

// The depth an exact key was made from, up to the folds above: -0.0 comes back as +0.0 and every
// NaN as the canonical one, which every key here treats alike. So a key derived from it equals
// the key derived from the depth itself (quantized keys from the fused step's exact ones).
PARTICLES_HD float depth_of_exact_key(std::uint32_t key) {
  const std::uint32_t ordered = ~key;
  return float_of_bits((ordered & 0x80000000u) ? ordered ^ 0x80000000u : ~ordered);
}

// Quantized mode: `bits` bits over [depth_min, depth_max], far first, so a radix sort needs
// only ceil(bits / 8) passes. Depths outside the range clamp; NaN maps to the farthest bucket.
PARTICLES_HD std::uint32_t quantized_depth_key(float depth, float depth_min, float depth_max,
                                               int bits) {
  const std::uint32_t top = (bits >= 32) ? 0xffffffffu : ((1u << bits) - 1u);
  const float range = depth_max - depth_min;
  float t = range > 0.0f ? (depth_max - depth) / range : 0.0f;  // 0 = farthest
  if (!(t > 0.0f)) t = 0.0f;                                    // also catches NaN
  if (t > 1.0f) t = 1.0f;
  // Double keeps 32-bit buckets exact; float is plenty for the default 16.
  return static_cast<std::uint32_t>(static_cast<double>(t) * static_cast<double>(top) + 0.5);
}

}  // namespace particles
