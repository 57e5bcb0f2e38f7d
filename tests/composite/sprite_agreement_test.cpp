// The sprite math the compositors share (core/composite/sprite.hpp, front_to_back.hpp) against
// the GL shaders it mirrors (shaders/particle.vert, particle.frag), drawn by this machine's GL:
// Mesa on CI, NVIDIA's driver on the H200. Each case draws vertices in an order with the raster
// renderer into the float render target and computes the header's image of the same draw
// (sprite_reference.hpp), and compares the floats. If the shaders change and the header does not
// (or the reverse), these fail.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <limits>
#include <memory>
#include <numeric>
#include <random>
#include <vector>

#include "app/gl/gl_context.hpp"
#include "app/gl/particle_buffers.hpp"
#include "app/gl/particle_renderer.hpp"
#include "app/gl/render_target.hpp"
#include "core/color.hpp"
#include "core/composite/pixel.hpp"
#include "sprite_reference.hpp"
#include "tests/support/gl_test_fixture.hpp"

namespace particles::test {
namespace {

// How far GL's float image may part from the header's, in any channel of any pixel. Both place
// every fragment alike (particle.vert holds points on a grid both rasterizers reproduce), so what
// remains is arithmetic. GL blends far to near with "over" and the header takes the same fragments
// near to far: an ulp or so a layer (6e-8 at 0.5). More comes from gl_PointCoord, which each GL
// computes its own way, and the disc's steepest slope (the core's edge) multiplies its error by
// about five in the weight: the worst channel seen is 6.7e-5 on Mesa's llvmpipe and 1.96e-3 on
// NVIDIA's driver (580.159.04, H100, 2026-12-07). 3e-3 is under an 8-bit step and below what a
// change to the disc's profile or the sprite's size or place moves (5e-3 and up).
constexpr float kAgreement = 3e-3f;

class SpriteAgreement : public gl::test::GlTest {
 protected:
  void SetUp() override {
    GlTest::SetUp();
    if (IsSkipped()) return;
    renderer_ = std::make_unique<gl::ParticleRenderer>();
  }

  // A camera at the origin looking down -z.
  static CameraMatrices camera(int width, int height, float near_plane = 0.1f,
                               float far_plane = 100.0f) {
    CameraMatrices m;
    m.projection =
        glm::perspective(glm::radians(60.0f), float(width) / float(height), near_plane, far_plane);
    return m;
  }

  struct Pair {
    std::vector<PixelF> raster, header;  // rows bottom first
    PixelF background;                   // premultiplied
    FloatDifference difference;
  };

  Pair draw_both(const std::vector<ParticleVertex>& vertices,
                 const std::vector<std::uint32_t>& order, const CameraMatrices& cam, int width,
                 int height, float sprite_size, Color background = {0.0f, 0.0f, 0.0f, 1.0f},
                 const std::vector<float>& sprite_scales = {}) {
    gl::ParticleBuffers buffers;
    buffers.upload(vertices, order, sprite_scales);
    gl::RenderTarget target({width, height});
    gl::DrawParams draw;
    draw.camera = cam;
    draw.viewport = {width, height};
    draw.sprite_size = sprite_size;
    draw.background = background;
    renderer_->draw(target, buffers, draw);
    Pair p;
    p.raster = target.read_float_pixels();
    p.background = premultiplied(background.r, background.g, background.b, background.a);
    p.header = header_image(vertices, order, sprite_camera(draw, renderer_->point_size_range()),
                            p.background, sprite_scales);
    p.difference = compare(p.raster, p.header, p.background);
    return p;
  }

  std::unique_ptr<gl::ParticleRenderer> renderer_;
};

std::vector<std::uint32_t> identity(std::size_t n) {
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  return order;
}

TEST_F(SpriteAgreement, OneSpriteOfEverySizeAndPlacement) {
  // One sprite a draw, so each case is one blend over the background: sizes from far below a
  // pixel (coverage dimming) through one tile and many tiles to the clamp at GL's largest point,
  // at whole, half and odd sub-pixel positions.
  const int w = 160, h = 120;
  const CameraMatrices cam = camera(w, h);
  const float p11 = cam.projection[1][1];
  const float max_point = renderer_->point_size_range().y;
  for (float pixels : {0.3f, 0.8f, 1.0f, 1.5f, 2.5f, 3.0f, 5.2f, 7.9f, 8.0f, 9.5f, 17.3f, 40.0f,
                       90.0f, 10.0f * max_point}) {
    for (float offset : {0.0f, 0.5f, 0.37f}) {
      const float depth = 5.0f;
      const float sprite_size = pixels * depth / (p11 * 0.5f * float(h));
      // Window x = w/2 + offset pixels at depth 5: x_ndc * depth / P[0][0].
      const float x = (offset * 2.0f / float(w)) * depth / cam.projection[0][0];
      const float y = (offset * 1.3f * 2.0f / float(h)) * depth / p11;
      const std::vector<ParticleVertex> v = {{x, y, -depth, pack_rgba8({1.0f, 0.6f, 0.2f, 0.9f})}};
      const Pair p = draw_both(v, identity(1), cam, w, h, sprite_size);
      EXPECT_LE(p.difference.max, kAgreement)
          << pixels << " px at offset " << offset << ": " << p.difference;
      // Centred on a pixel, every sprite of a pixel or more lights it (at a pixel corner a
      // one-pixel disc reaches no pixel centre, in GL as here).
      if (pixels >= 1.0f && offset == 0.5f) {
        EXPECT_GT(p.difference.lit, 0u) << pixels << " px drew nothing";
      }
    }
  }
}

TEST_F(SpriteAgreement, PerParticleSpriteScales) {
  // A model that sizes its sprites (the smoke's puffs) gives each particle a scale of the scene's
  // sprite size: GL reads it as an attribute, the compositor from the same buffer. Sprites from a
  // tenth of the size to eight times it, overlapping, in one draw; then the same vertices without
  // scales must draw as scale 1 (the disabled attribute reads 1, even after a scaled draw).
  const int w = 192, h = 128;
  const CameraMatrices cam = camera(w, h);
  std::vector<ParticleVertex> v;
  std::vector<float> scales;
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  for (int i = 0; i < 60; ++i) {
    const float depth = 3.0f + 6.0f * unit(rng);
    const float x = (unit(rng) * 2.0f - 1.0f) * 0.8f * depth / cam.projection[0][0];
    const float y = (unit(rng) * 2.0f - 1.0f) * 0.8f * depth / cam.projection[1][1];
    v.push_back(
        {x, y, -depth, pack_rgba8({unit(rng), unit(rng), unit(rng), 0.3f + 0.5f * unit(rng)})});
    scales.push_back(0.1f + 7.9f * unit(rng) * unit(rng));
  }
  const Pair scaled =
      draw_both(v, identity(v.size()), cam, w, h, 0.15f, {0.0f, 0.0f, 0.0f, 1.0f}, scales);
  EXPECT_LE(scaled.difference.max, kAgreement) << scaled.difference;
  EXPECT_GT(scaled.difference.lit, 1000u);
  const Pair plain = draw_both(v, identity(v.size()), cam, w, h, 0.15f);
  EXPECT_LE(plain.difference.max, kAgreement) << plain.difference;
  const Pair ones = draw_both(v, identity(v.size()), cam, w, h, 0.15f, {0.0f, 0.0f, 0.0f, 1.0f},
                              std::vector<float>(v.size(), 1.0f));
  // Scale 1 is the scene's size, bit for bit.
  EXPECT_EQ(pixels_apart(ones.raster, plain.raster, 0.0f), 0u);
  EXPECT_GT(pixels_apart(scaled.raster, plain.raster, 8.0f / 255.0f), 1000u);
}

TEST_F(SpriteAgreement, ClippedBehindNearOffScreenAndNonFinite) {
  // What GL clips, the compositor drops: vertices behind the eye, in front of the near plane,
  // beyond the far plane, with the centre just off screen (a big sprite's edge would reach in),
  // NaN and infinite positions; and what GL keeps just inside each of those limits.
  const int w = 200, h = 150;
  const CameraMatrices cam = camera(w, h, 0.5f, 50.0f);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const std::uint32_t c = pack_rgba8({0.2f, 0.9f, 0.4f, 0.8f});
  const float edge_x = 4.0f / cam.projection[0][0];  // the right edge of the view at depth 4
  const std::vector<ParticleVertex> v = {
      {0.0f, 0.0f, 2.0f, c},             // behind the eye
      {0.3f, 0.2f, -0.49f, c},           // in front of the near plane
      {0.3f, 0.2f, -0.52f, c},           // just behind it: drawn, and huge
      {0.0f, 0.0f, -50.5f, c},           // beyond the far plane
      {0.1f, 0.1f, -49.0f, c},           // just inside it
      {edge_x * 1.02f, 0.0f, -4.0f, c},  // centre just off the right edge
      {edge_x * 0.98f, 0.5f, -4.0f, c},  // centre just on screen: half its sprite drawn
      {nan, 0.0f, -3.0f, c},             // NaN
      {0.0f, inf, -3.0f, c},             // infinite
      {-inf, -inf, -inf, c},             // all infinite
      {-0.5f, -0.4f, -3.0f, c},          // an ordinary sprite
  };
  const Pair p = draw_both(v, identity(v.size()), cam, w, h, 0.6f);
  EXPECT_LE(p.difference.max, kAgreement) << p.difference;
  EXPECT_GT(p.difference.lit, 1000u) << "the near sprite fills much of the view";
}

TEST_F(SpriteAgreement, OverlappingTranslucentSpritesInAnyOrder) {
  // Thousands of strongly coloured translucent sprites: the order decides every pixel. Both
  // renderers follow it, sorted or not, and the unsorted image differs from the sorted one as
  // much under the compositor as under GL.
  const int w = 256, h = 192;
  const CameraMatrices cam = camera(w, h);
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> xy(-2.5f, 2.5f), z(-9.0f, -3.0f), c(0.0f, 1.0f);
  std::vector<ParticleVertex> v(6000);
  for (ParticleVertex& p : v) {
    p = {xy(rng), xy(rng), z(rng), pack_rgba8({c(rng), c(rng), c(rng), 0.35f + 0.6f * c(rng)})};
  }
  std::vector<std::uint32_t> sorted = identity(v.size());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return v[a].z < v[b].z; });
  const Pair s = draw_both(v, sorted, cam, w, h, 0.3f, {0.05f, 0.02f, 0.1f, 1.0f});
  const Pair u = draw_both(v, identity(v.size()), cam, w, h, 0.3f, {0.05f, 0.02f, 0.1f, 1.0f});
  EXPECT_LE(s.difference.max, kAgreement) << "sorted: " << s.difference;
  EXPECT_LE(u.difference.max, kAgreement) << "unsorted: " << u.difference;
  // Pixels where the order shows by more than 8/255: as many in the header's images as in GL's.
  const std::size_t gl_order = pixels_apart(s.raster, u.raster, 8.0f / 255.0f);
  const std::size_t header_order = pixels_apart(s.header, u.header, 8.0f / 255.0f);
  EXPECT_GT(gl_order, std::size_t(w * h / 4));
  EXPECT_NEAR(double(header_order) / double(gl_order), 1.0, 0.002)
      << "GL: " << gl_order << "; header: " << header_order;
}

TEST_F(SpriteAgreement, ImagesOfEveryShapeAndSize) {
  // Tiny, odd and tall viewports: tiles cut by the image edge, a viewport narrower than a tile.
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> xy(-1.5f, 1.5f), z(-6.0f, -2.0f), c(0.0f, 1.0f);
  std::vector<ParticleVertex> v(800);
  for (ParticleVertex& p : v) {
    p = {xy(rng), xy(rng), z(rng), pack_rgba8({c(rng), c(rng), c(rng), 0.7f})};
  }
  for (auto [w, h] : {std::pair{1, 1}, {5, 3}, {7, 33}, {9, 8}, {333, 17}, {640, 360}}) {
    // Sprites of about three pixels whatever the height, so they overlap a little.
    const CameraMatrices cam = camera(w, h);
    const float sprite_size = 3.0f * 4.0f / (cam.projection[1][1] * 0.5f * float(h));
    const Pair p = draw_both(v, identity(v.size()), cam, w, h, sprite_size);
    EXPECT_LE(p.difference.max, kAgreement) << w << "x" << h << ": " << p.difference;
  }
}

}  // namespace
}  // namespace particles::test
