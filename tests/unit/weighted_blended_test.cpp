// Weighted blended order-independent transparency (core/composite/weighted_blended.hpp and its
// CPU twin): the weight function's values; two and three sprites over a background at pixels
// whose every input is known, against the closed form; the cases it gets exactly (one sprite,
// sprites of one colour, nothing at all); the order of the sprites changing nothing but float
// rounding, and the thread count nothing at all; and its error against the exact front-to-back
// compositor growing with the sprites' opacity, the method's known weakness.
#include "core/composite/cpu_weighted_blended.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "composite_scene.hpp"
#include "core/color.hpp"

namespace particles {
namespace {

using test::covering_camera;

const PixelF kBackground = premultiplied(0.1f, 0.3f, 0.5f, 1.0f);

TEST(WeightedBlendedWeight, FallsAsTheCubeOfTheNormalizedDepthBetweenItsBounds) {
  EXPECT_FLOAT_EQ(weighted_blended_weight(0.5f, 0.0f), 0.5f * 3000.0f);
  EXPECT_FLOAT_EQ(weighted_blended_weight(0.5f, 0.5f), 0.5f * 375.0f);
  EXPECT_NEAR(weighted_blended_weight(1.0f, 0.9f), 3.0f, 1e-5f);        // 1 - 0.9f is not 0.1
  EXPECT_FLOAT_EQ(weighted_blended_weight(0.5f, 0.99f), 0.5f * 0.01f);  // 3e3 * 1e-6: floor
  EXPECT_FLOAT_EQ(weighted_blended_weight(0.25f, 1.0f), 0.25f * 0.01f);
  EXPECT_EQ(weighted_blended_weight(0.0f, 0.0f), 0.0f);
  float previous = weighted_blended_weight(0.7f, 0.0f);
  for (int i = 1; i <= 100; ++i) {
    const float w = weighted_blended_weight(0.7f, static_cast<float>(i) / 100.0f);
    EXPECT_LE(w, previous) << i;
    previous = w;
  }
}

TEST(WeightedBlendedWeight, DepthIsNormalizedOverTheRangeAndClamped) {
  const float inverse = inverse_depth_span(2.0f, 6.0f);
  EXPECT_EQ(normalized_depth(2.0f, 2.0f, inverse), 0.0f);
  EXPECT_EQ(normalized_depth(4.0f, 2.0f, inverse), 0.5f);
  EXPECT_EQ(normalized_depth(6.0f, 2.0f, inverse), 1.0f);
  EXPECT_EQ(normalized_depth(1.0f, 2.0f, inverse), 0.0f);
  EXPECT_EQ(normalized_depth(9.0f, 2.0f, inverse), 1.0f);
  EXPECT_EQ(normalized_depth(std::nanf(""), 2.0f, inverse), 1.0f);
  EXPECT_EQ(inverse_depth_span(3.0f, 3.0f), 0.0f);  // one depth: every sprite at z = 0
  EXPECT_EQ(normalized_depth(3.0f, 3.0f, 0.0f), 0.0f);
}

// The closed form of weighted blended transparency at one pixel, in double.
struct Fragment {
  double r, g, b, a, z;
};
PixelF closed_form(const std::vector<Fragment>& fragments, const PixelF& under) {
  double r = 0, g = 0, b = 0, weight = 0, revealage = 1;
  for (const Fragment& f : fragments) {
    const double w = f.a * std::max(0.01, 3000.0 * std::pow(1.0 - f.z, 3.0));
    r += f.a * w * f.r;
    g += f.a * w * f.g;
    b += f.a * w * f.b;
    weight += f.a * w;
    revealage *= 1.0 - f.a;
  }
  const double shown = 1.0 - revealage;
  return {float(r / weight * shown + revealage * under.r),
          float(g / weight * shown + revealage * under.g),
          float(b / weight * shown + revealage * under.b), float(shown + revealage * under.a)};
}

void expect_every_pixel_near(const CompositeImage& image, const PixelF& want, float tolerance) {
  for (std::size_t i = 0; i < image.pixels.size(); ++i) {
    const PixelF& p = image.pixels[i];
    ASSERT_NEAR(p.r, want.r, tolerance) << "pixel " << i;
    ASSERT_NEAR(p.g, want.g, tolerance) << "pixel " << i;
    ASSERT_NEAR(p.b, want.b, tolerance) << "pixel " << i;
    ASSERT_NEAR(p.a, want.a, tolerance) << "pixel " << i;
  }
}

// Two sprites covering the viewport at profile weight 1: the near one at the range's near end
// (z = 0, weight a * 3e3), the far one at its far end (z = 1, weight a * 1e-2); a third halfway
// (z = 0.5, weight a * 375). Every pixel is the closed form, whatever the order.
TEST(CpuWeightedBlended, TwoAndThreeSpritesGiveTheClosedForm) {
  const SpriteCamera camera = covering_camera();
  const ParticleVertex near{0.0f, 0.0f, -4.0f, pack_rgba8({1.0f, 0.2f, 0.0f, 0.5f})};
  const ParticleVertex far{0.0f, 0.0f, -6.0f, pack_rgba8({0.0f, 0.6f, 1.0f, 0.8f})};
  const ParticleVertex middle{0.0f, 0.0f, -5.0f, pack_rgba8({0.4f, 1.0f, 0.4f, 0.3f})};
  const float a_near = test::alpha_over_every_pixel(camera, near);
  const float a_far = test::alpha_over_every_pixel(camera, far);
  const float a_middle = test::alpha_over_every_pixel(camera, middle);
  const auto fragment = [](const ParticleVertex& v, float a, double z) {
    const Color c = unpack_rgba8(v.rgba8);
    return Fragment{c.r, c.g, c.b, a, z};
  };
  CpuWeightedBlended renderer(2);
  CompositeImage image;
  renderer.composite(std::vector<ParticleVertex>{near, far}, std::vector<std::uint32_t>{1, 0},
                     camera, kBackground, image);
  expect_every_pixel_near(
      image, closed_form({fragment(near, a_near, 0.0), fragment(far, a_far, 1.0)}, kBackground),
      1e-6f);
  renderer.composite(std::vector<ParticleVertex>{near, far, middle},
                     std::vector<std::uint32_t>{2, 0, 1}, camera, kBackground, image);
  expect_every_pixel_near(image,
                          closed_form({fragment(near, a_near, 0.0), fragment(far, a_far, 1.0),
                                       fragment(middle, a_middle, 0.5)},
                                      kBackground),
                          1e-6f);
}

// The total opacity is always exact; the split is exact when there is nothing to split: one
// sprite, or sprites of one colour. Nothing at all leaves the background, bit for bit.
TEST(CpuWeightedBlended, ExactForOneSpriteAndForSpritesOfOneColour) {
  const SpriteCamera camera = covering_camera();
  CpuWeightedBlended renderer(2);
  CompositeImage image;
  renderer.composite({}, {}, camera, kBackground, image);
  EXPECT_EQ(image.pixels, std::vector<PixelF>(64 * 48, kBackground));

  const std::uint32_t colour = 0x00a05020u;
  const std::vector<ParticleVertex> one{{0.0f, 0.0f, -4.0f, colour | 0x99000000u}};
  renderer.composite(one, test::in_index_order(1), camera, kBackground, image);
  EXPECT_LE(test::largest_difference(image, test::exact_image(one, camera, kBackground)), 1e-6f);

  const std::vector<ParticleVertex> alike{{0.0f, 0.0f, -4.0f, colour | 0x99000000u},
                                          {0.0f, 0.0f, -5.0f, colour | 0xff000000u},
                                          {0.0f, 0.0f, -6.0f, colour | 0x40000000u}};
  renderer.composite(alike, test::in_index_order(3), camera, kBackground, image);
  EXPECT_LE(test::largest_difference(image, test::exact_image(alike, camera, kBackground)), 1e-6f);
}

// Two opaque sprites of different colours: the exact answer is the near one's colour; weighted
// blending mixes in the far one by its weight's share, 1e-2 / (3e3 + 1e-2) here.
TEST(CpuWeightedBlended, OpaqueSpritesMixWhereTheExactAnswerShowsOnlyTheNearest) {
  const SpriteCamera camera = covering_camera();
  const std::vector<ParticleVertex> v{{0.0f, 0.0f, -4.0f, 0xff0000ffu},
                                      {0.0f, 0.0f, -6.0f, 0xffff0000u}};
  CompositeImage image;
  CpuWeightedBlended(1).composite(v, test::in_index_order(2), camera, kBackground, image);
  const double far_share = 0.01 / (3000.0 + 0.01);
  EXPECT_NEAR(image.at(5, 5).r, 1.0 - far_share, 1e-6);
  EXPECT_NEAR(image.at(5, 5).b, far_share, 1e-7);
  EXPECT_GT(image.at(5, 5).b, 0.0f);
}

TEST(CpuWeightedBlended, RefusesWhatTheExactCompositorRefuses) {
  CpuWeightedBlended renderer(1);
  CompositeImage image;
  SpriteCamera camera = covering_camera();
  const std::vector<ParticleVertex> three(3);
  const auto refused = [&](const std::vector<std::uint32_t>& order,
                           const std::vector<float>& scales, const std::string& phrase) {
    try {
      renderer.composite(three, order, camera, kBackground, image, scales);
      ADD_FAILURE() << "accepted what should name \"" << phrase << "\"";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(phrase), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("CpuWeightedBlended"), std::string::npos) << e.what();
    }
  };
  refused({0, 3, 1}, {}, "particle 3 of 3");
  refused({0, 1, 2}, {1.0f, 1.0f}, "2 sprite scales for 3 vertices");
  camera.width = 0;
  refused({0, 1, 2}, {}, "0x48");
}

// Any order of the same sprites gives the same image up to the rounding of the sums (their terms
// added in another order); any thread count gives the same bits.
TEST(CpuWeightedBlended, OrderChangesOnlyRoundingAndThreadsNothing) {
  const SpriteCamera camera = test::looking_down_z(96, 64, 0.25f);
  const auto v = test::cloud(4000, 7, 0.9f);
  CompositeImage sorted, mixed, one, many;
  CpuWeightedBlended renderer(3);
  renderer.composite(v, test::far_to_near(v, camera), camera, kBackground, sorted);
  renderer.composite(v, test::shuffled(test::far_to_near(v, camera), 5), camera, kBackground,
                     mixed);
  EXPECT_LE(test::largest_difference(sorted, mixed), 1e-5f);
  const auto order = test::shuffled(test::in_index_order(v.size()), 9);
  CpuWeightedBlended(1).composite(v, order, camera, kBackground, one);
  CpuWeightedBlended(7).composite(v, order, camera, kBackground, many);
  EXPECT_EQ(one.pixels, many.pixels);
}

// Against the exact front-to-back compositor on random clouds: faint sprites are nearly right
// whatever their order, opaque ones are not, and the error grows with the opacity.
TEST(CpuWeightedBlended, ErrorAgainstTheExactCompositorGrowsWithOpacity) {
  const SpriteCamera camera = test::looking_down_z(96, 64, 0.25f);
  CpuWeightedBlended renderer(2);
  double previous = 0.0;
  for (const float alpha_max : {0.05f, 0.3f, 0.6f, 1.0f}) {
    const auto v = test::cloud(3000, 21, alpha_max);
    CompositeImage image;
    renderer.composite(v, test::in_index_order(v.size()), camera, kBackground, image);
    const double error = test::rms_difference(image, test::exact_image(v, camera, kBackground));
    EXPECT_GT(error, previous) << "alpha up to " << alpha_max;
    previous = error;
    std::printf("weighted blended: alpha up to %.2f, rms error against exact %.4f\n", alpha_max,
                error);
  }
}

}  // namespace
}  // namespace particles
