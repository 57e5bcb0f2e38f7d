// The compositor's 8-bit "over" blend (two channels per 16-bit lane) against the per-channel
// arithmetic it stands for, dst = src + round(dst * (255 - a) / 255) saturated, for every
// (dst, src, alpha) of each channel while the other channels hold other values: no lane may
// carry into its neighbour.
#include <gtest/gtest.h>

#include <cstdint>

#include "core/composite/sprite.hpp"

namespace particles {
namespace {

// d * k / 255 has no ties (255 is odd), so rounding half up is rounding to nearest.
std::uint32_t blend_channel(std::uint32_t d, std::uint32_t s, std::uint32_t alpha) {
  const std::uint32_t kept = (2u * d * (255u - alpha) + 255u) / 510u;
  return s + kept > 255u ? 255u : s + kept;
}

std::uint32_t channel(std::uint32_t word, int c) {
  return (word >> (8 * c)) & 0xffu;
}

TEST(BlendUnorm8, EveryColourChannelMatchesItsArithmetic) {
  long wrong = 0;
  for (int c = 0; c < 3; ++c) {
    for (std::uint32_t alpha = 0; alpha < 256; ++alpha) {
      for (std::uint32_t d = 0; d < 256; ++d) {
        for (std::uint32_t s = 0; s < 256; ++s) {
          const int other = (c + 1) % 3;
          const std::uint32_t dst =
              (d << (8 * c)) | (((d * 37u + 11u) & 0xffu) << (8 * other)) | ((255u - d) << 24);
          const std::uint32_t src =
              (s << (8 * c)) | (((s * 91u) & 0xffu) << (8 * other)) | (alpha << 24);
          const std::uint32_t out = blend_premultiplied_unorm8(dst, src);
          for (int k = 0; k < 4; ++k) {
            const std::uint32_t want = blend_channel(channel(dst, k), channel(src, k), alpha);
            wrong += channel(out, k) != want;
          }
        }
      }
    }
  }
  EXPECT_EQ(wrong, 0);
}

TEST(BlendUnorm8, AlphaChannelMatchesItsArithmetic) {
  for (std::uint32_t alpha = 0; alpha < 256; ++alpha) {
    for (std::uint32_t d = 0; d < 256; ++d) {
      const std::uint32_t out = blend_premultiplied_unorm8(d << 24 | 0x00ffffffu, alpha << 24);
      ASSERT_EQ(channel(out, 3), blend_channel(d, alpha, alpha)) << d << " " << alpha;
    }
  }
}

}  // namespace
}  // namespace particles
