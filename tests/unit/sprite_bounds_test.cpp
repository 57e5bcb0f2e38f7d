// A sprite's pixel bounds (core/composite/sprite.hpp) are exactly the pixels its disc test can
// take along each axis: every pixel the test takes lies inside them (no fragment is lost), and
// their first and last column and row pass the axis test (no tile is listed for a sprite that
// cannot reach it). Checked on sprites of every size from below a pixel to larger than the
// image, at centres on, between and near pixel centres.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "core/composite/sprite.hpp"

namespace particles {
namespace {

ProjectedSprite sprite_at(float x, float y, float size) {
  ProjectedSprite s;
  s.x = x;
  s.y = y;
  s.size = size;
  s.inv_half = 2.0f / size;
  s.alpha = 1.0f;
  s.visible = true;
  return s;
}

constexpr int kWidth = 97, kHeight = 61;  // odd sizes, so edges fall between tiles too

// Every pixel within `margin` of the bounds that the disc test takes lies inside them, and the
// bounds' edge columns and rows pass the axis test.
void expect_exact_bounds(const ProjectedSprite& s) {
  const PixelBounds b = sprite_pixel_bounds(s, kWidth, kHeight);
  const int reach = static_cast<int>(s.size) + 3;
  const int cx = static_cast<int>(s.x), cy = static_cast<int>(s.y);
  for (int y = std::max(0, cy - reach); y < std::min(kHeight, cy + reach); ++y) {
    for (int x = std::max(0, cx - reach); x < std::min(kWidth, cx + reach); ++x) {
      if (sprite_weight(s, x, y) < 0.0f) continue;
      ASSERT_TRUE(x >= b.x0 && x < b.x1 && y >= b.y0 && y < b.y1)
          << "pixel " << x << "," << y << " taken outside [" << b.x0 << "," << b.x1 << ")x[" << b.y0
          << "," << b.y1 << ") of a sprite at " << s.x << "," << s.y << " size " << s.size;
    }
  }
  if (b.empty()) return;
  // An edge inside the image is the last pixel the axis test takes; one clamped is the image's.
  EXPECT_TRUE(b.x0 == 0 || axis_covers(s.x, s.inv_half, b.x0)) << s.x << " size " << s.size;
  EXPECT_TRUE(b.x0 == 0 || !axis_covers(s.x, s.inv_half, b.x0 - 1)) << s.x << " size " << s.size;
  EXPECT_TRUE(b.x1 == kWidth || axis_covers(s.x, s.inv_half, b.x1 - 1)) << s.x;
  EXPECT_TRUE(b.x1 == kWidth || !axis_covers(s.x, s.inv_half, b.x1)) << s.x;
  EXPECT_TRUE(b.y0 == 0 || axis_covers(s.y, s.inv_half, b.y0)) << s.y;
  EXPECT_TRUE(b.y0 == 0 || !axis_covers(s.y, s.inv_half, b.y0 - 1)) << s.y;
  EXPECT_TRUE(b.y1 == kHeight || axis_covers(s.y, s.inv_half, b.y1 - 1)) << s.y;
  EXPECT_TRUE(b.y1 == kHeight || !axis_covers(s.y, s.inv_half, b.y1)) << s.y;
}

TEST(SpriteBounds, HoldExactlyThePixelsTheDiscTestCanTake) {
  std::mt19937 random(7);
  std::uniform_real_distribution<float> across(0.0f, static_cast<float>(kWidth));
  std::uniform_real_distribution<float> up(0.0f, static_cast<float>(kHeight));
  for (const float size :
       {0.3f, 0.999f, 1.0f, 1.5f, 1.81f, 2.0f, 3.0f, 7.9f, 8.0f, 33.3f, 200.0f}) {
    for (int i = 0; i < 400; ++i) expect_exact_bounds(sprite_at(across(random), up(random), size));
    // Centres on a pixel centre, on a pixel edge, and a float step either side of each.
    for (const float c : {10.5f, 10.0f, std::nextafter(10.5f, 0.0f), std::nextafter(10.5f, 20.0f),
                          std::nextafter(10.0f, 0.0f), std::nextafter(10.0f, 20.0f)}) {
      expect_exact_bounds(sprite_at(c, c + 20.0f, size));
    }
  }
}

TEST(SpriteBounds, ASpriteBetweenPixelCentresHasNone) {
  // Half a pixel across, centred on a pixel corner: no centre within a quarter pixel of it.
  const PixelBounds b = sprite_pixel_bounds(sprite_at(20.0f, 20.0f, 0.5f), kWidth, kHeight);
  EXPECT_TRUE(b.empty()) << b.x0 << "," << b.x1 << " " << b.y0 << "," << b.y1;
}

TEST(SpriteBounds, ASmallSpriteOnAPixelCentreHoldsThatPixelAlone) {
  const PixelBounds b = sprite_pixel_bounds(sprite_at(20.5f, 30.5f, 1.8f), kWidth, kHeight);
  EXPECT_EQ(b.x0, 20);
  EXPECT_EQ(b.x1, 21);
  EXPECT_EQ(b.y0, 30);
  EXPECT_EQ(b.y1, 31);
}

}  // namespace
}  // namespace particles
