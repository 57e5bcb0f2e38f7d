// The one pixel test that the CPU count (core/pixels_off.hpp) and the CUDA kernel
// (cuda/composite/pixels_off.hpp) share: strict thresholds in every colour channel, either image
// lights a pixel, alpha never counts, and a float pixel is judged as its bytes.
#include "core/pixel_verdict.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace particles {
namespace {

constexpr std::uint32_t rgb(std::uint32_t r, std::uint32_t g, std::uint32_t b,
                            std::uint32_t a = 255) {
  return r | g << 8 | b << 16 | a << 24;
}

constexpr std::uint32_t kBackground = rgb(10, 20, 30);

TEST(PixelVerdict, TheBackgroundIsNotLit) {
  const PixelVerdict v = pixel_verdict(kBackground, kBackground, kBackground);
  EXPECT_FALSE(v.lit);
  EXPECT_FALSE(v.off);
}

TEST(PixelVerdict, LitOnlyPastTheThresholdInSomeChannel) {
  for (int shift = 0; shift < 24; shift += 8) {
    const std::uint32_t at = kBackground + (std::uint32_t{kPixelsOffThreshold} << shift);
    const std::uint32_t past = kBackground + (std::uint32_t{kPixelsOffThreshold + 1} << shift);
    EXPECT_FALSE(pixel_verdict(at, at, kBackground).lit) << shift;
    EXPECT_TRUE(pixel_verdict(past, past, kBackground).lit) << shift;
    // Either image lights it, and the two then differ visibly.
    EXPECT_TRUE(pixel_verdict(kBackground, past, kBackground).lit) << shift;
    EXPECT_TRUE(pixel_verdict(past, kBackground, kBackground).off) << shift;
  }
  // Below the background too.
  EXPECT_TRUE(pixel_verdict(rgb(1, 20, 30), rgb(1, 20, 30), kBackground).lit);
}

TEST(PixelVerdict, OffOnlyPastTheThresholdAndOnlyWhenLit) {
  const std::uint32_t lit = rgb(200, 20, 30);
  EXPECT_FALSE(pixel_verdict(lit, rgb(192, 20, 30), kBackground).off);  // 8 apart
  EXPECT_TRUE(pixel_verdict(lit, rgb(191, 20, 30), kBackground).off);   // 9 apart
  EXPECT_TRUE(pixel_verdict(rgb(191, 20, 30), lit, kBackground).off);   // either way round
  EXPECT_TRUE(pixel_verdict(lit, rgb(200, 20, 39), kBackground).off);   // in blue
  // Unlit pixels are never off, however they differ within the threshold of the background.
  const PixelVerdict dim = pixel_verdict(rgb(18, 20, 30), rgb(2, 20, 30), kBackground);
  EXPECT_FALSE(dim.lit);
  EXPECT_FALSE(dim.off);
}

TEST(PixelVerdict, AlphaIsNeverCompared) {
  const PixelVerdict v = pixel_verdict(rgb(10, 120, 30, 255), rgb(10, 120, 30, 0), kBackground);
  EXPECT_TRUE(v.lit);
  EXPECT_FALSE(v.off);
  EXPECT_FALSE(pixel_verdict(rgb(10, 20, 30, 0), kBackground, kBackground).lit);
}

TEST(PixelVerdict, FloatPixelsAreJudgedAsTheirBytes) {
  const PixelF a = pixel_of_rgba8(rgb(200, 20, 30));
  EXPECT_FALSE(pixel_verdict(a, pixel_of_rgba8(rgb(192, 20, 30)), kBackground).off);
  EXPECT_TRUE(pixel_verdict(a, pixel_of_rgba8(rgb(191, 20, 30)), kBackground).off);
  // Out of range and NaN channels clamp as rgba8_of clamps them.
  const PixelF over{2.0f, 20.0f / 255.0f, 30.0f / 255.0f, 1.0f};
  EXPECT_FALSE(pixel_verdict(over, pixel_of_rgba8(rgb(255, 20, 30)), kBackground).off);
  const PixelF nan{std::numeric_limits<float>::quiet_NaN(), 20.0f / 255.0f, 30.0f / 255.0f, 1.0f};
  EXPECT_FALSE(pixel_verdict(nan, pixel_of_rgba8(rgb(0, 20, 30)), kBackground).off);
}

}  // namespace
}  // namespace particles
