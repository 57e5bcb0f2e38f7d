// The CPU compositor's input checks: a draw order naming a particle that does not exist, sprite
// scales that do not match the vertices, or an empty viewport, are refused with what was wrong,
// before any pixel is written; and what a sprite scale does.
#include "core/composite/cpu_compositor.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace particles {
namespace {

// composite() of `vertices` in `order` through `camera` must throw std::invalid_argument naming
// `phrase`.
void expect_refused(const std::vector<ParticleVertex>& vertices,
                    const std::vector<std::uint32_t>& order, const SpriteCamera& camera,
                    const std::vector<float>& sprite_scales, const std::string& phrase) {
  CpuCompositor compositor(1);
  CompositeImage image;
  try {
    compositor.composite(vertices, order, camera, 0xff000000u, image, sprite_scales);
    FAIL() << "accepted what should name \"" << phrase << "\"";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(phrase), std::string::npos) << e.what();
  }
}

SpriteCamera camera_of(int width, int height) {
  SpriteCamera camera;
  camera.width = width;
  camera.height = height;
  return camera;
}

TEST(CpuCompositor, RefusesAnOrderNamingAMissingParticle) {
  expect_refused(std::vector<ParticleVertex>(3), {0, 3, 1}, camera_of(8, 8), {}, "particle 3 of 3");
}

TEST(CpuCompositor, RefusesAnEmptyViewport) {
  expect_refused({}, {}, camera_of(0, 720), {}, "0x720");
}

TEST(CpuCompositor, RefusesSpriteScalesThatDoNotMatchTheVertices) {
  expect_refused(std::vector<ParticleVertex>(3), {0, 1, 2}, camera_of(8, 8),
                 std::vector<float>(2, 1.0f), "2 sprite scales for 3 vertices");
}

// A particle's sprite scale multiplies the camera's sprite size: scale 2 at size s draws the
// image of scale 1 at size 2s, and scale 1 the image of no scales at all.
TEST(CpuCompositor, SpriteScaleMultipliesTheSpriteSize) {
  SpriteCamera camera;
  camera.width = 64;
  camera.height = 48;
  camera.projection[11] = -1.0f;  // w = -z: a perspective divide, view depth 4 below
  camera.projection[15] = 0.0f;
  camera.projection[10] = 0.5f;  // clip z inside the volume
  const std::vector<ParticleVertex> vertices = {{0.0f, 0.0f, -4.0f, 0xc0ff8020u},
                                                {0.5f, 0.3f, -4.0f, 0x8020a0ffu}};
  const std::vector<std::uint32_t> order = {0, 1};
  CpuCompositor compositor(2);
  CompositeImage doubled, wide, plain, ones;
  camera.sprite_size = 0.2f;
  const std::vector<float> twos(2, 2.0f), ones_scale(2, 1.0f);
  compositor.composite(vertices, order, camera, 0xff000000u, doubled, twos);
  compositor.composite(vertices, order, camera, 0xff000000u, plain);
  compositor.composite(vertices, order, camera, 0xff000000u, ones, ones_scale);
  camera.sprite_size = 0.4f;
  compositor.composite(vertices, order, camera, 0xff000000u, wide);
  EXPECT_EQ(doubled.rgba8, wide.rgba8);
  EXPECT_EQ(ones.rgba8, plain.rgba8);
  EXPECT_NE(doubled.rgba8, plain.rgba8);
}

TEST(CpuCompositor, NoParticlesGiveTheBackground) {
  SpriteCamera camera;
  camera.width = 5;
  camera.height = 3;
  CpuCompositor compositor;
  CompositeImage image;
  compositor.composite({}, {}, camera, 0xff102030u, image);
  EXPECT_EQ(image.rgba8, std::vector<std::uint32_t>(15, 0xff102030u));
}

}  // namespace
}  // namespace particles
