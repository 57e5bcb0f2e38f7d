// The composited comparison view: the exact order's image left of the middle, the drawn order's
// right of it, the white divider over the two middle columns, for even, odd and tiny widths.
#include "core/composite/split_view.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace particles {
namespace {

CompositeImage filled(int width, int height, std::uint32_t value) {
  CompositeImage image;
  image.width = width;
  image.height = height;
  image.rgba8.assign(static_cast<std::size_t>(width) * static_cast<std::size_t>(height), value);
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
        const std::uint32_t want = x >= half - 1 && x <= half ? kSplitDivider
                                   : x < half - 1             ? 0xff0000ffu
                                                              : 0xff00ff00u;
        EXPECT_EQ(image.at(x, y), want) << "width " << width << " at " << x << "," << y;
      }
    }
  }
}

TEST(SplitView, RefusesImagesOfDifferentSizes) {
  CompositeImage image = filled(4, 4, 0u);
  EXPECT_THROW(compose_split_view(filled(4, 3, 0u), image), std::invalid_argument);
}

}  // namespace
}  // namespace particles
