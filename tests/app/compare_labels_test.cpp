// The comparison view's words and numbers (compare_labels.hpp): which half is which order, the
// heat map's colour bar, and the share of differing pixels decoded from the heat image itself.
#include "app/main/compare_labels.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "core/composite/difference_heat.hpp"

namespace particles {
namespace {

// The choices of a drawn order: `order` every `period` frames, of `key_bits`-bit keys (exact
// keys where 0).
FrameChoices order_choices(DrawOrder order, int period = 8, int key_bits = 0) {
  FrameChoices c;
  c.order = order;
  c.order_period = period;
  if (key_bits > 0) {
    c.key_mode = KeyMode::quantized;
    c.key_bits = key_bits;
  }
  return c;
}

TEST(CompareLabels, SplitViewNamesEachHalfsOrder) {
  const SplitLabels stale = split_labels(order_choices(DrawOrder::stale));
  EXPECT_EQ(stale.left, "exact order");
  EXPECT_EQ(stale.right, "stale: sorted every 8 frames");
  EXPECT_EQ(split_labels(order_choices(DrawOrder::unsorted)).right, "unsorted: index order");
  EXPECT_EQ(split_labels(order_choices(DrawOrder::eye_distance)).right,
            "eye: by distance to the eye");
  EXPECT_EQ(split_labels(order_choices(DrawOrder::coarse)).right, "coarse: 8-bit depth keys");
  EXPECT_EQ(split_labels(order_choices(DrawOrder::exact)).right, "exact");
  // Quantized keys make even the exact order's half approximate: it says so.
  EXPECT_EQ(split_labels(order_choices(DrawOrder::exact, 8, 12)).right, "exact, 12-bit keys");
  EXPECT_EQ(order_description(order_choices(DrawOrder::stale, 1)), "stale: sorted every frame");
}

// The decode is exact: for every difference 0-255 in each channel and exact images of every
// brightness, the heat pixel says "differs" exactly when the images differ.
TEST(CompareLabels, HeatPixelDiffersExactlyWhereTheImagesDiffer) {
  for (const std::uint32_t base : {0x00u, 0x01u, 0x3fu, 0x40u, 0x80u, 0xfeu, 0xffu}) {
    const std::uint32_t exact = 0xff000000u | base | (base << 8) | (base << 16);
    for (int channel = 0; channel < 3; ++channel) {
      for (std::uint32_t v = 0; v < 256; ++v) {
        const std::uint32_t shift = 8u * static_cast<std::uint32_t>(channel);
        const std::uint32_t drawn = (exact & ~(0xffu << shift)) | (v << shift);
        EXPECT_EQ(heat_pixel_differs(difference_heat_rgba8(exact, drawn)), v != base)
            << "base " << base << " channel " << channel << " value " << v;
      }
    }
  }
}

// The background is the most common agreeing colour, whatever it is (the galaxy's is dark blue,
// not black); a frame where every pixel differs has none.
TEST(CompareLabels, HeatBackgroundIsTheMostCommonAgreeingColour) {
  std::vector<std::uint8_t> rgba;
  auto push = [&](std::uint32_t word, int n) {
    for (int i = 0; i < n; ++i) {
      for (int c = 0; c < 4; ++c) rgba.push_back(static_cast<std::uint8_t>(word >> (8 * c)));
    }
  };
  const std::uint32_t blue = 0xff301008u;
  push(difference_heat_rgba8(blue, blue), 50);
  push(difference_heat_rgba8(0xffffffffu, 0xffffffffu), 20);
  push(difference_heat_rgba8(0xff000000u, 0xffffffffu), 80);  // more, but differing
  EXPECT_EQ(heat_background(rgba), difference_heat_rgba8(blue, blue));
  const HeatCount c = count_heat_differences(rgba);
  EXPECT_EQ(c.pixels, 150u);
  EXPECT_EQ(c.lit, 100u);
  EXPECT_EQ(c.differing, 80u);
  std::vector<std::uint8_t> all_differ;
  for (int c2 = 0; c2 < 4; ++c2) {
    all_differ.push_back(static_cast<std::uint8_t>(heat_bar_rgba8(9) >> (8 * c2)));
  }
  EXPECT_EQ(heat_background(all_differ), 0u);
}

TEST(CompareLabels, CountsDifferingPixelsOfAHeatImage) {
  std::vector<std::uint8_t> rgba;
  auto push = [&](std::uint32_t word) {
    for (int c = 0; c < 4; ++c) rgba.push_back(static_cast<std::uint8_t>(word >> (8 * c)));
  };
  push(difference_heat_rgba8(0xffffffffu, 0xffffffffu));  // white agrees: dimmed to 63
  push(difference_heat_rgba8(0xff000000u, 0xff000001u));  // differs by 1/255
  push(difference_heat_rgba8(0xff808080u, 0xff808080u));
  push(difference_heat_rgba8(0xff000000u, 0xffffffffu));  // differs by everything
  push(difference_heat_rgba8(0xff000000u, 0xff000000u));  // the background (two agree on it)
  push(difference_heat_rgba8(0xff030303u, 0xff030303u));  // a quarter of 3 is 0: background too
  const HeatCount c = count_heat_differences(rgba);
  EXPECT_EQ(c.pixels, 6u);
  EXPECT_EQ(c.lit, 4u);
  EXPECT_EQ(c.differing, 2u);
  EXPECT_EQ(c.off, 1u);  // the 1/255 difference is not off
  EXPECT_DOUBLE_EQ(c.share(), 2.0 / 6.0);
  EXPECT_DOUBLE_EQ(c.lit_share(), 0.5);
  EXPECT_EQ(count_heat_differences({}).share(), 0.0);
  EXPECT_EQ(count_heat_differences({}).lit_share(), 0.0);
}

TEST(CompareLabels, AHeatPixelIsOffExactlyWhenTheOrderErrorWouldCountIt) {
  for (int base : {0, 17, 128, 250}) {
    for (int v = 0; v < 256; ++v) {
      const auto exact = 0xff000000u | static_cast<std::uint32_t>(base) << 8;
      const auto drawn = 0xff000000u | static_cast<std::uint32_t>(v) << 8;  // green differs
      const int difference = v > base ? v - base : base - v;
      EXPECT_EQ(heat_pixel_off(difference_heat_rgba8(exact, drawn)),
                difference > kPixelsOffThreshold)
          << base << " against " << v;
    }
  }
}

TEST(CompareLabels, ShareTextKeepsTheDigitsThatMatter) {
  EXPECT_EQ(share_text(0.0), "0%");
  EXPECT_EQ(share_text(1e-7), "<0.01%");
  EXPECT_EQ(share_text(0.0037), "0.37%");
  EXPECT_EQ(share_text(0.123), "12.3%");
  EXPECT_EQ(share_text(0.99999), ">99.9%");
  EXPECT_EQ(share_text(1.0), "100%");
  EXPECT_EQ(share_text(-0.5), "0%");
  HeatCount count;
  EXPECT_EQ(heat_caption(count), "differing pixels: counting");
  count.pixels = 1000;
  count.lit = 100;
  count.differing = 41;
  count.off = 7;
  EXPECT_EQ(heat_caption(count), "7.0% of lit pixels off by more than 8/255; 41.0% differ at all");
}

TEST(CompareLabels, ColourBarRunsTheHeatRampFromDarkRedToWhite) {
  const std::uint32_t first = heat_bar_rgba8(1);
  EXPECT_TRUE(heat_pixel_differs(first));
  EXPECT_EQ(first & 0x00ffff00u, 0u) << "the smallest difference is red alone";
  EXPECT_EQ(heat_bar_rgba8(kHeatBarFull), 0xffffffffu);
  EXPECT_NE(heat_bar_rgba8(kHeatBarFull - 1), 0xffffffffu);
  EXPECT_EQ(heat_bar_rgba8(0), 0xff000000u);  // no difference on black: black
  for (int d = 1; d < kHeatBarFull; ++d) {    // brighter with every step
    auto sum = [](std::uint32_t w) {
      return (w & 0xffu) + ((w >> 8) & 0xffu) + ((w >> 16) & 0xffu);
    };
    EXPECT_LT(sum(heat_bar_rgba8(d)), sum(heat_bar_rgba8(d + 1))) << d;
  }
}

}  // namespace
}  // namespace particles
