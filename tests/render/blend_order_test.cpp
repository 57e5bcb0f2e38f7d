// The renderer draws in element-buffer order with premultiplied "over" blending into the float
// render target: the draw order decides the picture. These tests predict pixels on the CPU from
// that rule.
#include <glad/gl.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <random>
#include <vector>

#include "app/gl/particle_renderer.hpp"
#include "core/color.hpp"
#include "core/composite/pixel.hpp"
#include "tests/support/gl_test_fixture.hpp"

namespace particles::gl::test {
namespace {

using BlendOrderTest = GlTest;

using Rgb = std::array<float, 3>;

// Straight-alpha bytes as the vertex shader reads them (normalized).
Color unpack(std::uint32_t rgba8) {
  auto ch = [&](int i) { return static_cast<float>((rgba8 >> (8 * i)) & 0xffu) / 255.0f; };
  return {ch(0), ch(1), ch(2), ch(3)};
}

// One sprite's centre (full weight in the shader) drawn "over" an opaque destination, in float
// as the render target blends: premultiplied source plus destination times one minus alpha.
Rgb over(Rgb dst, Color src) {
  Rgb out;
  const float s[3] = {src.r, src.g, src.b};
  for (int i = 0; i < 3; ++i) out[i] = s[i] * src.a + dst[i] * (1.0f - src.a);
  return out;
}

// Pixel (x, y) of a float image, y counted from the bottom row as GL stores it.
const PixelF& at(const std::vector<PixelF>& image, int x, int y) {
  return image[static_cast<std::size_t>(y) * GlTest::kSize + static_cast<std::size_t>(x)];
}

// GL's float blend against the same float products here: apart by a few ulps at most (its
// normalized-byte conversion and blend unit round on their own), far below 1e-5.
void expect_pixel_near(const std::vector<PixelF>& image, int x, int y, Rgb want, const char* what) {
  const PixelF& p = at(image, x, y);
  const float got[3] = {p.r, p.g, p.b};
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(got[i], want[i], 1e-5f) << what << ", channel " << i;
  EXPECT_NEAR(p.a, 1.0f, 1e-6f) << what << ": over an opaque background stays opaque";
}

DrawParams params_for(float sprite_size) {
  DrawParams p;
  p.camera = GlTest::test_camera();
  p.viewport = {GlTest::kSize, GlTest::kSize};
  p.sprite_size = sprite_size;
  p.background = {0.0f, 0.0f, 0.0f, 1.0f};
  return p;
}

TEST_F(BlendOrderTest, CentrePixelIsTheOverCompositeInDrawOrder) {
  const Color red{1.0f, 0.0f, 0.0f, 0.5f};
  const Color blue{0.0f, 0.0f, 1.0f, 0.5f};
  // Index 0 is far (view depth 5), index 1 near (depth 3), both on the view axis.
  const std::vector<ParticleVertex> v = {{0.0f, 0.0f, -5.0f, pack_rgba8(red)},
                                         {0.0f, 0.0f, -3.0f, pack_rgba8(blue)}};
  ParticleBuffers buffers;
  ParticleRenderer renderer;
  RenderTarget target({kSize, kSize});
  const Rgb black{0.0f, 0.0f, 0.0f};
  const Color r = unpack(v[0].rgba8), b = unpack(v[1].rgba8);

  const std::vector<std::uint32_t> far_first = {0, 1};
  buffers.upload(v, far_first);
  renderer.draw(target, buffers, params_for(2.0f));
  const std::vector<PixelF> sorted = target.read_float_pixels();
  const Rgb want_sorted = over(over(black, r), b);  // ~(0.25, 0, 0.5): blue in front
  expect_pixel_near(sorted, kSize / 2, kSize / 2, want_sorted, "far then near");

  const std::vector<std::uint32_t> near_first = {1, 0};
  buffers.upload(v, near_first);
  renderer.draw(target, buffers, params_for(2.0f));
  const std::vector<PixelF> unsorted = target.read_float_pixels();
  const Rgb want_unsorted = over(over(black, b), r);  // ~(0.5, 0, 0.25): red wrongly in front
  expect_pixel_near(unsorted, kSize / 2, kSize / 2, want_unsorted, "near then far");

  // The two predictions are far apart, so passing both proves the order was followed.
  EXPECT_GT(std::abs(want_sorted[0] - want_unsorted[0]), 0.2f);
}

TEST_F(BlendOrderTest, ImageRowsStartAtTheTop) {
  // One opaque white sprite above the view axis must land in the upper half of the image.
  const std::vector<ParticleVertex> v = {{0.0f, 1.5f, -5.0f, pack_rgba8({1, 1, 1, 1})}};
  const std::vector<std::uint32_t> order = {0};
  ParticleBuffers buffers;
  buffers.upload(v, order);
  ParticleRenderer renderer;
  RenderTarget target({kSize, kSize});
  renderer.draw(target, buffers, params_for(1.0f));
  const Image image = target.read_pixels();
  auto brightness = [&](int y0, int y1) {
    long sum = 0;
    for (int y = y0; y < y1; ++y) {
      for (int x = 0; x < kSize; ++x) sum += image.pixel(x, y)[0];
    }
    return sum;
  };
  EXPECT_GT(brightness(0, kSize / 2), 1000);
  EXPECT_EQ(brightness(kSize / 2, kSize), 0);
}

TEST_F(BlendOrderTest, SortedAndUnsortedFramesDiffer) {
  // Many translucent, strongly coloured particles in a slab in front of the camera.
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> xy(-2.0f, 2.0f), z(-9.0f, -3.0f), c(0.0f, 1.0f);
  std::vector<ParticleVertex> v(3000);
  for (ParticleVertex& p : v) {
    p = {xy(rng), xy(rng), z(rng), pack_rgba8({c(rng), c(rng), c(rng), 0.6f})};
  }
  std::vector<std::uint32_t> identity(v.size());
  std::iota(identity.begin(), identity.end(), 0u);
  std::vector<std::uint32_t> sorted = identity;  // far (most negative z) first
  std::stable_sort(sorted.begin(), sorted.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return v[a].z < v[b].z; });

  ParticleBuffers buffers;
  ParticleRenderer renderer;
  RenderTarget target({kSize, kSize});
  buffers.upload(v, sorted);
  renderer.draw(target, buffers, params_for(0.4f));
  const Image a = target.read_pixels();
  buffers.upload(v, identity);
  renderer.draw(target, buffers, params_for(0.4f));
  const Image b = target.read_pixels();

  int differing = 0;
  for (std::size_t i = 0; i < a.rgba.size(); i += 4) {
    int d = 0;
    for (std::size_t k = 0; k < 3; ++k) d = std::max(d, std::abs(a.rgba[i + k] - b.rgba[i + k]));
    differing += d > 8 ? 1 : 0;
  }
  // Most covered pixels see several overlapping sprites, so the order shows almost everywhere.
  EXPECT_GT(differing, kSize * kSize / 4) << differing << " of " << kSize * kSize << " differ";

  // And the same order twice gives the same picture: the difference is the order, not noise.
  buffers.upload(v, sorted);
  renderer.draw(target, buffers, params_for(0.4f));
  EXPECT_EQ(target.read_pixels().rgba, a.rgba);
}

TEST_F(BlendOrderTest, FaintSpritesPileUpToTheirColour) {
  // 2000 sprites of alpha 3/255 at one spot: each moves the centre pixel a share a of the way to
  // the sprite's colour, so after all of them (1 - a)^2000 ~ 5e-11 of the black background is
  // left. An 8-bit target stops a channel once a step would be under half a byte (here 42/255
  // short of the colour), the reason the target is float.
  const std::uint32_t faint =
      204u | 128u << 8 | 51u << 16 | 3u << 24;  // (0.8, 0.5, 0.2), a = 3/255
  const std::vector<ParticleVertex> v(2000, ParticleVertex{0.0f, 0.0f, -4.0f, faint});
  std::vector<std::uint32_t> order(v.size());
  std::iota(order.begin(), order.end(), 0u);
  ParticleBuffers buffers;
  buffers.upload(v, order);
  ParticleRenderer renderer;
  RenderTarget target({kSize, kSize});
  renderer.draw(target, buffers, params_for(1.0f));  // ~14 px: the centre pixel has full weight
  const std::vector<PixelF> image = target.read_float_pixels();
  const PixelF& p = at(image, kSize / 2, kSize / 2);
  const Color c = unpack(faint);
  // In 32-bit float a sprite stops moving a channel only within ulp / (2a) ~ 3e-6 of the colour.
  EXPECT_NEAR(p.r, c.r, 1e-4f);
  EXPECT_NEAR(p.g, c.g, 1e-4f);
  EXPECT_NEAR(p.b, c.b, 1e-4f);
  EXPECT_EQ(rgba8_of(p), faint | 0xff000000u) << "a screenshot shows the sprite's own bytes";

  // The same pile in 8 bits, rounded after every blend, ends far from it: the test would see it.
  float stalled = 0.0f;
  for (std::size_t i = 0; i < v.size(); ++i) {
    stalled = std::round((c.r * c.a + stalled * (1.0f - c.a)) * 255.0f) / 255.0f;
  }
  EXPECT_GT(c.r - stalled, 16.0f / 255.0f);
}

}  // namespace
}  // namespace particles::gl::test
