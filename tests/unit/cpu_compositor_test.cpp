// The CPU compositor: its input checks (a draw order naming a particle that does not exist,
// sprite scales that do not match the vertices, or an empty viewport, are refused with what was
// wrong, before any pixel is written); what a sprite scale does; and its float picture against
// the plainest statement of it: every sprite's fragments blended "over" in draw order, in float,
// as GL blends into the float render target.
#include "core/composite/cpu_compositor.hpp"

#include <gtest/gtest.h>

#include "composite_scene.hpp"
#include "core/color.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace particles {
namespace {

const PixelF kBlack = premultiplied(0.0f, 0.0f, 0.0f, 1.0f);

// composite() of `vertices` in `order` through `camera` must throw std::invalid_argument naming
// `phrase`.
void expect_refused(const std::vector<ParticleVertex>& vertices,
                    const std::vector<std::uint32_t>& order, const SpriteCamera& camera,
                    const std::vector<float>& sprite_scales, const std::string& phrase) {
  CpuCompositor compositor(1);
  CompositeImage image;
  try {
    compositor.composite(vertices, order, camera, kBlack, image, sprite_scales);
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
  compositor.composite(vertices, order, camera, kBlack, doubled, twos);
  compositor.composite(vertices, order, camera, kBlack, plain);
  compositor.composite(vertices, order, camera, kBlack, ones, ones_scale);
  camera.sprite_size = 0.4f;
  compositor.composite(vertices, order, camera, kBlack, wide);
  EXPECT_EQ(doubled.pixels, wide.pixels);
  EXPECT_EQ(ones.pixels, plain.pixels);
  EXPECT_NE(doubled.pixels, plain.pixels);
}

TEST(CpuCompositor, NoParticlesGiveTheBackground) {
  SpriteCamera camera;
  camera.width = 5;
  camera.height = 3;
  CpuCompositor compositor;
  CompositeImage image;
  const PixelF background = premultiplied(0.2f, 0.4f, 0.6f, 0.5f);
  compositor.composite({}, {}, camera, background, image);
  EXPECT_EQ(image.pixels, std::vector<PixelF>(15, background));
}

// The compositor tests' camera: sprites up to 256 pixels across.
SpriteCamera looking_down_z(int width, int height, float sprite_size) {
  return test::looking_down_z(width, height, sprite_size, 256.0f);
}

// The reference: each sprite's fragments "over" the image in draw order, in float, no stop.
CompositeImage blended_over(const std::vector<ParticleVertex>& vertices,
                            const std::vector<std::uint32_t>& order, const SpriteCamera& camera,
                            const PixelF& background) {
  CompositeImage image{
      camera.width, camera.height,
      std::vector<PixelF>(static_cast<std::size_t>(camera.width) * camera.height, background)};
  for (const std::uint32_t p : order) {
    const ProjectedSprite s = project_sprite(camera, vertices[p]);
    const PixelBounds b = sprite_pixel_bounds(s, camera.width, camera.height);
    for (int y = b.y0; y < b.y1; ++y) {
      for (int x = b.x0; x < b.x1; ++x) {
        const float w = sprite_weight(s, x, y);
        if (w < 0.0f) continue;
        const float a = s.alpha * w;
        PixelF& d = image.pixels[static_cast<std::size_t>(y) * camera.width + x];
        d = {unorm8_to_float(s.rgba8) * a + d.r * (1.0f - a),
             unorm8_to_float(s.rgba8 >> 8) * a + d.g * (1.0f - a),
             unorm8_to_float(s.rgba8 >> 16) * a + d.b * (1.0f - a), a + d.a * (1.0f - a)};
      }
    }
  }
  return image;
}

// Nearest first with the stop is "over" far to near: the same sum, so within float rounding
// where no pixel stops (faint sprites), and within the stop's bound, 1/1024, where pixels do.
TEST(CpuCompositor, TakingNearestFirstIsBlendingOverFarToNear) {
  const SpriteCamera camera = looking_down_z(96, 64, 0.25f);
  const PixelF background = premultiplied(0.1f, 0.2f, 0.3f, 1.0f);
  CpuCompositor compositor(3);
  for (const float alpha_max : {0.05f, 0.6f, 1.0f}) {
    const auto v = test::cloud(4000, 7, alpha_max);
    const auto order = test::far_to_near(v, camera);
    CompositeImage got;
    compositor.composite(v, order, camera, background, got);
    const CompositeImage want = blended_over(v, order, camera, background);
    EXPECT_LE(test::largest_difference(got, want), alpha_max < 0.1f ? 2e-5f : kTransmittanceFloor)
        << "alpha up to " << alpha_max;
    // Unsorted: the order is whatever it is given, not the depths'.
    const std::vector<std::uint32_t> shuffled = test::shuffled(order, 3);
    compositor.composite(v, shuffled, camera, background, got);
    EXPECT_LE(test::largest_difference(got, blended_over(v, shuffled, camera, background)),
              alpha_max < 0.1f ? 2e-5f : kTransmittanceFloor);
    if (alpha_max > 0.5f) {  // faint sprites hardly care about their order
      EXPECT_GT(test::largest_difference(got, want), 10.0f / 255.0f)
          << "the order made no difference";
    }
  }
}

// Where the nearest sprite's core is opaque, the pixel is that sprite's colour, however many
// sprites lie behind it: the pixel stopped taking them.
TEST(CpuCompositor, AnOpaqueNearSpriteHidesEverythingBehindIt) {
  const SpriteCamera camera = looking_down_z(64, 48, 1.0f);
  std::vector<ParticleVertex> v;
  for (int i = 0; i < 5000; ++i) v.push_back({0.0f, 0.0f, -4.0f - 0.001f * float(i), 0xff00ff00u});
  v.push_back({0.0f, 0.0f, -3.0f, 0xff2040ffu});  // nearest, drawn last
  std::vector<std::uint32_t> order = test::in_index_order(v.size());
  std::reverse(order.begin(), order.end() - 1);  // far to near
  CompositeImage image;
  CpuCompositor(2).composite(v, order, camera, kBlack, image);
  EXPECT_EQ(rgba8_of(image.at(32, 24)), 0xff2040ffu);
}

// Thousands of faint sprites converge on their colour in float; an 8-bit framebuffer stalls far
// short of it, once each sprite's change rounds below half a step.
TEST(CpuCompositor, FaintSpritesAccumulateInFloat) {
  const SpriteCamera camera = looking_down_z(64, 48, 1.0f);
  const std::vector<ParticleVertex> v(3000, ParticleVertex{0.0f, 0.0f, -4.0f, 0x01c0c0c0u});
  const std::vector<std::uint32_t> order = test::in_index_order(v.size());
  CompositeImage image;
  CpuCompositor(2).composite(v, order, camera, kBlack, image);
  EXPECT_NEAR(image.at(32, 24).r, 192.0f / 255.0f, 1.0f / 255.0f);
}

// Threads split the work, never the result: one thread and many give the same bits.
TEST(CpuCompositor, EveryThreadCountGivesTheSameImage) {
  const SpriteCamera camera = looking_down_z(200, 120, 0.15f);
  const auto v = test::cloud(20000, 11, 0.8f);
  const auto order = test::far_to_near(v, camera);
  CompositeImage one, many;
  CpuCompositor(1).composite(v, order, camera, kBlack, one);
  CpuCompositor(7).composite(v, order, camera, kBlack, many);
  EXPECT_EQ(one.pixels, many.pixels);
}

}  // namespace
}  // namespace particles
