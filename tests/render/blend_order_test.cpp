// The renderer draws in element-buffer order with premultiplied "over" blending: the draw order
// decides the picture. These tests predict pixels on the CPU from that rule.
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
#include "gl_test_fixture.hpp"
#include "particle_looks.hpp"

namespace particles::gl::test {
namespace {

using BlendOrderTest = GlTest;

using Rgb = std::array<float, 3>;

// One sprite's centre (full weight in the shader) drawn "over" an opaque destination, with the
// framebuffer's 8-bit rounding after each draw.
Rgb over(Rgb dst, Color src) {
  Rgb out;
  const float s[3] = {src.r, src.g, src.b};
  for (int i = 0; i < 3; ++i) {
    out[i] = std::round((s[i] * src.a + dst[i] * (1.0f - src.a)) * 255.0f) / 255.0f;
  }
  return out;
}

void expect_pixel_near(const Image& image, int x, int y, Rgb want, const char* what) {
  const std::uint8_t* p = image.pixel(x, y);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(p[i], want[i] * 255.0f, 2.0f) << what << ", channel " << i;
  }
  EXPECT_EQ(p[3], 255) << what << ": over an opaque background stays opaque";
}

DrawParams params_for(float sprite_size, const ModelParams& look) {
  DrawParams p;
  p.model = look;
  p.camera = GlTest::test_camera();
  p.viewport = {GlTest::kSize, GlTest::kSize};
  p.sprite_size = sprite_size;
  p.background = {0.0f, 0.0f, 0.0f, 1.0f};
  return p;
}

TEST_F(BlendOrderTest, CentrePixelIsTheOverCompositeInDrawOrder) {
  // Red at birth, blue at death: index 0, just born, is red and far (view depth 5); index 1,
  // three quarters through its life, is mostly blue and near (depth 3); both on the view axis.
  const ModelParams look = fountain_look({1.0f, 0.0f, 0.0f, 0.5f}, {0.0f, 0.0f, 1.0f, 0.5f});
  const std::vector<ParticleState> v = {particle_at(0.0f, 0.0f, -5.0f, 0.0f),
                                        particle_at(0.0f, 0.0f, -3.0f, 0.75f)};
  ParticleBuffers buffers;
  ParticleRenderer renderer;
  RenderTarget target({kSize, kSize});
  const Rgb black{0.0f, 0.0f, 0.0f};
  const Color r = drawn_color(look, v[0]), b = drawn_color(look, v[1]);
  ASSERT_EQ(r.r, 1.0f);
  ASSERT_EQ(b.b, 191.0f / 255.0f);  // 0.75 of the way to blue

  const std::vector<std::uint32_t> far_first = {0, 1};
  buffers.upload(v, far_first);
  renderer.draw(target, buffers, params_for(2.0f, look));
  const Image sorted = target.read_pixels();
  const Rgb want_sorted = over(over(black, r), b);  // ~(0.38, 0, 0.38): blue in front
  expect_pixel_near(sorted, kSize / 2, kSize / 2, want_sorted, "far then near");

  const std::vector<std::uint32_t> near_first = {1, 0};
  buffers.upload(v, near_first);
  renderer.draw(target, buffers, params_for(2.0f, look));
  const Image unsorted = target.read_pixels();
  const Rgb want_unsorted = over(over(black, b), r);  // ~(0.56, 0, 0.19): red wrongly in front
  expect_pixel_near(unsorted, kSize / 2, kSize / 2, want_unsorted, "near then far");

  // The two predictions are far apart, so passing both proves the order was followed.
  EXPECT_GT(std::abs(want_sorted[0] - want_unsorted[0]), 0.15f);
  EXPECT_GT(std::abs(want_sorted[2] - want_unsorted[2]), 0.15f);
}

// The vertex shader's colour is model_color's, byte for byte within the framebuffer's rounding:
// galaxy colours by the distance from the axis and the seed's brightness, fountain colours by
// age, with the fade of a life's last fifth.
TEST_F(BlendOrderTest, ShaderColoursAreTheModelsColours) {
  ModelParams galaxy;
  galaxy.model = Model::galaxy;
  galaxy.galaxy.radius = 10.0f;
  galaxy.color_inner = {1.0f, 0.5f, 0.2f, 1.0f};
  galaxy.color_outer = {0.2f, 0.4f, 1.0f, 1.0f};
  const ModelParams fountain = fountain_look({0.9f, 0.3f, 0.1f, 1.0f}, {0.1f, 0.6f, 0.9f, 1.0f});
  struct Probe {
    const ModelParams* look;
    ParticleState state;
  };
  // On the view axis at depth 5: 5 from the galaxy's axis, half its radius.
  const Probe probes[] = {
      {&galaxy, particle_at(0.0f, 0.0f, -5.0f, 0.0f, 1u)},
      {&galaxy, particle_at(0.0f, 0.0f, -5.0f, 0.0f, 0xdeadbeefu)},
      {&galaxy, particle_at(0.0f, 0.0f, -5.0f, 0.0f, 77777u)},
      {&fountain, particle_at(0.0f, 0.0f, -5.0f, 0.0f)},
      {&fountain, particle_at(0.0f, 0.0f, -5.0f, 0.5f)},
      {&fountain, particle_at(0.0f, 0.0f, -5.0f, 0.9f)},  // half faded
  };
  ParticleBuffers buffers;
  ParticleRenderer renderer;
  RenderTarget target({kSize, kSize});
  const std::vector<std::uint32_t> order = {0};
  std::vector<Rgb> drawn;
  for (const Probe& probe : probes) {
    const std::vector<ParticleState> v = {probe.state};
    buffers.upload(v, order);
    renderer.draw(target, buffers, params_for(2.0f, *probe.look));
    const Rgb want = over({0.0f, 0.0f, 0.0f}, drawn_color(*probe.look, probe.state));
    expect_pixel_near(target.read_pixels(), kSize / 2, kSize / 2, want, "the model's colour");
    drawn.push_back(want);
  }
  // The probes are told apart by what the shader computes, not all one colour.
  EXPECT_NE(drawn[0], drawn[1]);
  EXPECT_NE(drawn[3], drawn[4]);
  EXPECT_NEAR(drawn_color(fountain, probes[5].state).a, 0.5f, 1.0f / 255.0f);  // half faded
}

TEST_F(BlendOrderTest, ImageRowsStartAtTheTop) {
  // One opaque white sprite above the view axis must land in the upper half of the image.
  const ModelParams look = fountain_look({1.0f, 1.0f, 1.0f, 1.0f});
  const std::vector<ParticleState> v = {particle_at(0.0f, 1.5f, -5.0f)};
  const std::vector<std::uint32_t> order = {0};
  ParticleBuffers buffers;
  buffers.upload(v, order);
  ParticleRenderer renderer;
  RenderTarget target({kSize, kSize});
  renderer.draw(target, buffers, params_for(1.0f, look));
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
  // A galaxy look: the colour runs from red to blue with the distance from the y axis (3 to 9
  // here, of a radius of 10), its brightness drawn from the seed.
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> xy(-2.0f, 2.0f), z(-9.0f, -3.0f);
  ModelParams look;
  look.model = Model::galaxy;
  look.galaxy.radius = 10.0f;
  look.color_inner = {1.0f, 0.1f, 0.0f, 0.6f};
  look.color_outer = {0.0f, 0.3f, 1.0f, 0.6f};
  std::vector<ParticleState> v(3000);
  for (ParticleState& p : v)
    p = particle_at(xy(rng), xy(rng), z(rng), 0.0f, static_cast<std::uint32_t>(rng()));
  std::vector<std::uint32_t> identity(v.size());
  std::iota(identity.begin(), identity.end(), 0u);
  std::vector<std::uint32_t> sorted = identity;  // far (most negative z) first
  std::stable_sort(sorted.begin(), sorted.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return v[a].pz < v[b].pz; });

  ParticleBuffers buffers;
  ParticleRenderer renderer;
  RenderTarget target({kSize, kSize});
  buffers.upload(v, sorted);
  renderer.draw(target, buffers, params_for(0.4f, look));
  const Image a = target.read_pixels();
  buffers.upload(v, identity);
  renderer.draw(target, buffers, params_for(0.4f, look));
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
  renderer.draw(target, buffers, params_for(0.4f, look));
  EXPECT_EQ(target.read_pixels().rgba, a.rgba);
}

}  // namespace
}  // namespace particles::gl::test
