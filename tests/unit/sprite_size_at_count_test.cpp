// The sprite size a scene gets at a count other than the one it was tuned for
// (core/sprite_size_at_count.hpp): the count times the sprite's area stays the same, so a pixel's
// expected optical depth does too.
#include "core/sprite_size_at_count.hpp"

#include <gtest/gtest.h>

namespace particles {
namespace {

SceneDesc tuned_at(float sprite_size, std::uint32_t sprite_size_count) {
  SceneDesc scene;
  scene.sprite_size = sprite_size;
  scene.sprite_size_count = sprite_size_count;
  return scene;
}

TEST(SpriteSizeAtCount, UntunedScenesKeepTheirSpriteSize) {
  const SceneDesc scene = tuned_at(0.06f, 0);
  EXPECT_EQ(sprite_size_at_count(scene, 1), 0.06f);
  EXPECT_EQ(sprite_size_at_count(scene, 1u << 24), 0.06f);
}

TEST(SpriteSizeAtCount, TheTunedCountGetsTheSceneSpriteSize) {
  EXPECT_EQ(sprite_size_at_count(tuned_at(0.025f, 1u << 24), 1u << 24), 0.025f);
}

TEST(SpriteSizeAtCount, CountTimesAreaStaysTheSame) {
  const SceneDesc scene = tuned_at(0.025f, 1u << 24);
  for (std::uint32_t count : {1u, 1000u, 1u << 16, 131072u, 1u << 20, 3000000u, 1u << 24}) {
    const double size = sprite_size_at_count(scene, count);
    const double reference = 0.025 * 0.025 * double(1u << 24);
    EXPECT_NEAR(size * size * count / reference, 1.0, 1e-6) << count;
  }
  // A quarter of the particles: sprites twice as wide.
  EXPECT_FLOAT_EQ(sprite_size_at_count(scene, 1u << 22), 0.05f);
  // More particles than the tuned count: smaller sprites.
  EXPECT_FLOAT_EQ(sprite_size_at_count(tuned_at(0.2f, 1000), 4000), 0.1f);
}

TEST(SpriteSizeAtCount, NoParticlesLeaveTheSizeAlone) {
  EXPECT_EQ(sprite_size_at_count(tuned_at(0.025f, 1u << 24), 0), 0.025f);
}

}  // namespace
}  // namespace particles
