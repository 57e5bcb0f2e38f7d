// The order error that follows the picture (core/pixels_off.hpp) on hand-made images whose lit
// and differing pixels are known: the thresholds are strict (8/255 apart is still the same),
// either image lights a pixel, alpha is never compared, and bytes and floats count alike.
#include "core/pixels_off.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

namespace particles {
namespace {

struct Pair {
  std::vector<std::uint8_t> a, b;  // RGBA
  void add(Rgb8 pa, Rgb8 pb, std::uint8_t alpha_a = 255, std::uint8_t alpha_b = 255) {
    for (int c = 0; c < 3; ++c) {
      a.push_back(pa[std::size_t(c)]);
      b.push_back(pb[std::size_t(c)]);
    }
    a.push_back(alpha_a);
    b.push_back(alpha_b);
  }
};

constexpr Rgb8 kBackground = {10, 20, 30};

// Seven pixels: five lit, two of them off.
Pair hand_made() {
  Pair p;
  p.add(kBackground, kBackground);              // background in both: not lit
  p.add({18, 20, 30}, kBackground);             // 8 from the background: not lit
  p.add({200, 20, 30}, {200, 20, 30});          // lit, the same
  p.add({200, 20, 30}, {191, 20, 30});          // lit, 9 apart: off
  p.add({200, 20, 30}, {192, 20, 30});          // lit, 8 apart: the same
  p.add(kBackground, {10, 20, 100});            // lit by the second image alone: off
  p.add({10, 120, 30}, {10, 120, 30}, 255, 0);  // lit, alpha alone differs: the same
  return p;
}

TEST(PixelsOff, CountsTheHandMadeCase) {
  const Pair p = hand_made();
  const PixelsOff rgba = count_pixels_off(p.a, p.b, 4, kBackground);
  EXPECT_EQ(rgba.lit, 5u);
  EXPECT_EQ(rgba.off, 2u);
  EXPECT_DOUBLE_EQ(rgba.percent(), 40.0);

  // The same pixels without alpha count the same.
  std::vector<std::uint8_t> a3, b3;
  for (std::size_t i = 0; i < p.a.size(); ++i) {
    if (i % 4 == 3) continue;  // alpha
    a3.push_back(p.a[i]);
    b3.push_back(p.b[i]);
  }
  const PixelsOff rgb = count_pixels_off(a3, b3, 3, kBackground);
  EXPECT_EQ(rgb.lit, 5u);
  EXPECT_EQ(rgb.off, 2u);
  // Swapping the images changes nothing.
  EXPECT_EQ(count_pixels_off(p.b, p.a, 4, kBackground).off, 2u);
}

TEST(PixelsOff, PsnrOverTheWholeImage) {
  // Squared differences, lit or not: 8^2 (unlit), 9^2, 8^2 and 70^2 = 5109 over 7 pixels of 3
  // channels.
  const Pair p = hand_made();
  const PixelsOff counts = count_pixels_off(p.a, p.b, 4, kBackground);
  EXPECT_EQ(counts.pixels, 7u);
  EXPECT_EQ(counts.squared_error, 5109u);
  EXPECT_NEAR(counts.psnr_db(), 10.0 * std::log10(255.0 * 255.0 * 21.0 / 5109.0), 1e-12);
  EXPECT_NEAR(counts.psnr_db(), 24.27, 0.01);
  // The same images: no error, an infinite ratio; nothing summed: no ratio at all.
  EXPECT_TRUE(std::isinf(count_pixels_off(p.a, p.a, 4, kBackground).psnr_db()));
  EXPECT_TRUE(std::isnan(PixelsOff{}.psnr_db()));
}

TEST(PixelsOff, FloatImagesCountAsTheirBytes) {
  const Pair p = hand_made();
  CompositeImage a, b;
  a.width = b.width = 7;
  a.height = b.height = 1;
  for (std::size_t i = 0; i < p.a.size(); i += 4) {
    auto word = [](const std::vector<std::uint8_t>& v, std::size_t at) {
      return std::uint32_t(v[at]) | std::uint32_t(v[at + 1]) << 8 | std::uint32_t(v[at + 2]) << 16 |
             std::uint32_t(v[at + 3]) << 24;
    };
    a.pixels.push_back(pixel_of_rgba8(word(p.a, i)));
    b.pixels.push_back(pixel_of_rgba8(word(p.b, i)));
  }
  const PixelF background = pixel_of_rgba8(10u | 20u << 8 | 30u << 16 | 255u << 24);
  const PixelsOff counts = count_pixels_off(a, b, background);
  EXPECT_EQ(counts.lit, 5u);
  EXPECT_EQ(counts.off, 2u);
  EXPECT_EQ(counts.squared_error, 5109u);
}

TEST(PixelsOff, NothingLitIsNothingOffAndMismatchedImagesThrow) {
  const std::vector<std::uint8_t> dark(12, 0);
  EXPECT_EQ(count_pixels_off(dark, dark, 3, {0, 0, 0}).lit, 0u);
  EXPECT_EQ(count_pixels_off(dark, dark, 3, {0, 0, 0}).percent(), 0.0);
  EXPECT_THROW(count_pixels_off(dark, std::vector<std::uint8_t>(9, 0), 3, {0, 0, 0}),
               std::invalid_argument);
  EXPECT_THROW(count_pixels_off(dark, dark, 5, {0, 0, 0}), std::invalid_argument);
  EXPECT_THROW(count_pixels_off(std::vector<std::uint8_t>(10, 0), std::vector<std::uint8_t>(10, 0),
                                4, {0, 0, 0}),
               std::invalid_argument);
  CompositeImage one, two;
  one.width = one.height = 1;
  one.pixels.resize(1);
  EXPECT_THROW(count_pixels_off(one, two, PixelF{}), std::invalid_argument);
  // The background as the bytes of an image cleared to it.
  EXPECT_EQ(rgb8_of(Color{1.0f, 0.0f, 0.5f, 1.0f}), (Rgb8{255, 0, 128}));
}

}  // namespace
}  // namespace particles
