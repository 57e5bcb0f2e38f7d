#pragma once
// Weighted blended order-independent transparency (McGuire and Bavoil, JCGT 2013), one pixel at a
// time, for the CPU twin (core/composite/cpu_weighted_blended.cpp) and a CUDA kernel alike. No
// sort: each fragment adds to three order-free sums,
//   accum.rgb = sum_i a_i w_i rgb_i   (premultiplied colour times weight)
//   accum.a   = sum_i a_i w_i
//   revealage = prod_i (1 - a_i)      (the exact share of the background that shows)
// and the pixel is accum.rgb / accum.a * (1 - revealage) + background * revealage. The total
// opacity is exact; only how it is split among the sprites is approximated, by a weighted mean
// of their colours in which nearer fragments weigh more. One sprite, or sprites of one colour,
// come out exact; two opaque sprites of different colours come out mixed, where the exact
// answer is the nearer one's colour alone, so the error grows with opacity.
//
// The weight (the paper's eq. 10 shape on a linear depth):
//   w(a, z) = a * max(1e-2, 3e3 * (1 - z)^3),  z = (depth - near) / (far - near) in [0, 1],
// with depth the sprite's view depth (core/composite/sprite_depth.hpp) and [near, far] the range
// of view depths of the frame's visible sprites. Why this one: the paper's eqs. 7-9 fix their
// falloff in scene units (distances of 5, 10 and 200), which suit one scene scale and not our
// scenes, which range from a smoke plume to a galaxy; eq. 10 takes the depth buffer's value,
// which under a perspective projection crowds every particle near 1 and puts most of them on the
// 1e-2 floor. Spreading the cubic over the frame's own depth range makes the weight free of scale
// and uses its whole 3e5 dynamic range, nearest sprite 3e3 to farthest 1e-2, on the particles
// present. The factor a keeps faint fragments from outvoting opaque ones at equal depth.
//
// Every function uses plain IEEE float operations in a fixed order (a CUDA kernel built with
// -fmad=false gets the same bits).
#include "core/composite/front_to_back.hpp"
#include "core/composite/pixel.hpp"
#include "core/host_device.hpp"

namespace particles {

// The weight's bounds: the nearest fragment (z = 0) weighs a * 3e3, the farthest (z = 1) a * 1e-2.
inline constexpr float kWeightedBlendedNear = 3e3f;
inline constexpr float kWeightedBlendedFloor = 1e-2f;

// What the resolve divides accum.a by at least. It only keeps a pixel that took no fragment from
// dividing 0 by 0 (its colour sums are 0 too, and revealage 1); a fragment of alpha a adds at
// least 1e-2 * a^2 to accum.a, which is above this for every a above 1e-9.
inline constexpr float kWeightedBlendedEpsilon = 1e-20f;

// 1 / (far - near) for normalized_depth; 0 where the range is empty or a single depth (every
// sprite then lies at z = 0 and weighs alike).
PARTICLES_HD float inverse_depth_span(float nearest, float farthest) {
  return farthest > nearest ? 1.0f / (farthest - nearest) : 0.0f;
}

// A view depth placed in [near, far] as z in [0, 1], 0 nearest; outside the range it clamps, and
// NaN goes to 1 (the least weight).
PARTICLES_HD float normalized_depth(float depth, float nearest, float inverse_span) {
  const float z = (depth - nearest) * inverse_span;
  if (!(z < 1.0f)) return 1.0f;  // also NaN
  return z > 0.0f ? z : 0.0f;
}

// w(a, z) above, for a fragment of alpha a at normalized depth z.
PARTICLES_HD float weighted_blended_weight(float a, float z) {
  const float nearness = 1.0f - z;
  const float falloff = kWeightedBlendedNear * nearness * nearness * nearness;
  return a * (falloff > kWeightedBlendedFloor ? falloff : kWeightedBlendedFloor);
}

// One pixel's sums.
struct WeightedBlended {
  float r = 0.0f, g = 0.0f, b = 0.0f;  // accum.rgb: sum of a_i w_i rgb_i
  float weight = 0.0f;                 // accum.a: sum of a_i w_i
  float revealage = 1.0f;              // prod of (1 - a_i)

  // A fragment of straight colour `c`, alpha a and weight w (weighted_blended_weight), in any
  // order.
  PARTICLES_HD void take(const SpriteColor& c, float a, float w) {
    const float aw = a * w;
    r += aw * c.r;
    g += aw * c.g;
    b += aw * c.b;
    weight += aw;
    revealage *= 1.0f - a;
  }

  // The pixel over `under` (the background, premultiplied).
  PARTICLES_HD PixelF over(const PixelF& under) const {
    const float divisor = weight > kWeightedBlendedEpsilon ? weight : kWeightedBlendedEpsilon;
    const float coverage = 1.0f - revealage;
    return {r / divisor * coverage + revealage * under.r,
            g / divisor * coverage + revealage * under.g,
            b / divisor * coverage + revealage * under.b, coverage + revealage * under.a};
  }
};

}  // namespace particles
