// The composited comparison views. Split: the exact order's image left of the middle, the drawn
// order's right of it, the white divider over the two middle columns, for even, odd and tiny
// widths. Heat: the exact image dimmed where the two agree, the ramp where they differ.
#include "core/composite/split_view.hpp"

#include "core/composite/difference_heat.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace particles {
namespace {

// An image of one colour, given as its 8-bit word (r in the lowest byte).
CompositeImage filled(int width, int height, std::uint32_t rgba8) {
  CompositeImage image;
  image.width = width;
  image.height = height;
  image.pixels.assign(static_cast<std::size_t>(width) * static_cast<std::size_t>(height),
                      pixel_of_rgba8(rgba8));
  return image;
}

TEST(SplitView, LeftFromTheExactImageRightFromTheDrawnOneDividerBetween) {
  for (const int width : {1, 2, 3, 8, 9}) {
    const CompositeImage exact = filled(width, 3, 0xff0000ffu);
    CompositeImage image = filled(width, 3, 0xff00ff00u);
    compose_split_view(exact, image);
    const int half = width / 2;
    for (int y = 0; y < 3; ++y) {
      for (int x = 0; x < width; ++x) {
        const std::uint32_t want = x >= half - 1 && x <= half ? 0xffffffffu
                                   : x < half - 1             ? 0xff0000ffu
                                                              : 0xff00ff00u;
        EXPECT_EQ(rgba8_of(image.at(x, y)), want) << "width " << width << " at " << x << "," << y;
      }
    }
  }
}

TEST(SplitView, RefusesImagesOfDifferentSizes) {
  CompositeImage image = filled(4, 4, 0u);
  EXPECT_THROW(compose_split_view(filled(4, 3, 0u), image), std::invalid_argument);
}

TEST(HeatView, AgreementShowsTheExactImageDimmed) {
  EXPECT_EQ(difference_heat_rgba8(0x80c0ff40u, 0x80c0ff40u), 0xff303f10u);  // each channel / 4
  EXPECT_EQ(difference_heat_rgba8(0x00000000u, 0x00000000u), 0xff000000u);
  // Alpha is not compared: the images are opaque where the view shows them.
  EXPECT_EQ(difference_heat_rgba8(0x00102030u, 0xff102030u), 0xff04080cu);
}

TEST(HeatView, TheRampRisesWithTheLargestChannelDifference) {
  // Difference 1: level 52, a dark red; 13: level 100, red with some green; 53 and up: white.
  EXPECT_EQ(difference_heat_rgba8(0xff000000u, 0xff000001u), 0xff00009cu);
  EXPECT_EQ(difference_heat_rgba8(0xff000000u, 0xff0d0000u), 0xff002dffu);
  EXPECT_EQ(difference_heat_rgba8(0xff000000u, 0xff350000u), 0xffffffffu);
  EXPECT_EQ(difference_heat_rgba8(0xffffffffu, 0xff000000u), 0xffffffffu);
  // Symmetric in its arguments' colour, and driven by the largest channel alone.
  EXPECT_EQ(difference_heat_rgba8(0xff000005u, 0xff000000u),
            difference_heat_rgba8(0xff000000u, 0xff000005u));
  EXPECT_EQ(difference_heat_rgba8(0xff010203u, 0xff010208u),
            difference_heat_rgba8(0xff000000u, 0xff000005u));
  std::uint32_t last_level = 0;
  for (std::uint32_t d = 1; d < 256; ++d) {
    const std::uint32_t h = difference_heat_rgba8(0xff000000u, 0xff000000u | d);
    const std::uint32_t level = (h & 0xffu) + ((h >> 8) & 0xffu) + ((h >> 16) & 0xffu);
    EXPECT_GE(level, last_level) << d;
    EXPECT_GT(level, 0u) << d;
    last_level = level;
  }
}

TEST(HeatView, ComposesEveryPixel) {
  const CompositeImage exact = filled(3, 2, 0xff000000u);
  CompositeImage image = filled(3, 2, 0xff000001u);
  image.pixels[4] = pixel_of_rgba8(0xff000000u);
  // A float difference below half a step is no difference: both pixels are the same bytes.
  image.pixels[5] = PixelF{0.4f / 255.0f, 0.0f, 0.0f, 1.0f};
  compose_heat_view(exact, image);
  for (std::size_t i = 0; i < image.pixels.size(); ++i) {
    EXPECT_EQ(rgba8_of(image.pixels[i]), i >= 4 ? 0xff000000u : 0xff00009cu) << i;
  }
  EXPECT_THROW(compose_heat_view(filled(2, 2, 0u), image), std::invalid_argument);
}

}  // namespace
}  // namespace particles
