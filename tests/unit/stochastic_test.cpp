// Stochastic transparency (core/composite/stochastic_transparency.hpp and its CPU twin): the
// coins (pinned values a CUDA kernel must reproduce, frequencies, independence); two sprites over
// a background covering every pixel at known alphas, whose samples follow a known three-point
// distribution, so each resolve's mean and spread are known in closed form and checked within
// stated statistical tolerances for S = 1 to 16 and over accumulated frames; the exact cases
// (alphas 0 and 1); ties; the order and the thread count changing no bit; and the error against
// the exact front-to-back compositor falling as samples and frames grow.
#include "core/composite/cpu_stochastic.hpp"

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

const PixelF kBackground = premultiplied(0.1f, 0.3f, 0.5f, 1.0f);

// The coins are part of the interface: a CUDA kernel must draw these same numbers.
TEST(StochasticCoins, ArePinned) {
  const std::uint32_t key = stochastic_fragment_key(1u, 2u, 3u);
  EXPECT_EQ(key, 0xa07bef4bu);
  EXPECT_EQ(stochastic_frame_seed(7u, 1u), 0x3b4d5826u);
  EXPECT_EQ(hash_combine(key, 4u), 0xf0c3d112u);
  EXPECT_EQ(unit_float(hash_combine(key, 4u)), static_cast<float>(0xf0c3d1) / 16777216.0f);
  EXPECT_FALSE(stochastic_covers(key, 4, 0.9404f));
  EXPECT_TRUE(stochastic_covers(key, 4, 0.9405f));
}

// A coin of alpha a comes up with frequency a (to 5 standard deviations over 400,000 coins), the
// samples of one fragment independently of each other; alpha 0 never covers and 1 always does.
TEST(StochasticCoins, CoverWithProbabilityAlphaIndependently) {
  constexpr int kFragments = 100000;
  for (const float a : {0.1f, 0.5f, 0.9f}) {
    int covered = 0, both = 0;
    for (int i = 0; i < kFragments; ++i) {
      const std::uint32_t key = stochastic_fragment_key(3u, static_cast<std::uint32_t>(i),
                                                        static_cast<std::uint32_t>(i % 977));
      for (int k = 0; k < 4; ++k) covered += stochastic_covers(key, k, a) ? 1 : 0;
      both += stochastic_covers(key, 0, a) && stochastic_covers(key, 1, a) ? 1 : 0;
      ASSERT_FALSE(stochastic_covers(key, i % 16, 0.0f));
      ASSERT_TRUE(stochastic_covers(key, i % 16, 1.0f));
    }
    const double n = 4.0 * kFragments;
    EXPECT_NEAR(covered / n, a, 5.0 * std::sqrt(a * (1.0 - a) / n)) << a;
    const double a2 = double(a) * a;
    EXPECT_NEAR(both / double(kFragments), a2, 5.0 * std::sqrt(a2 * (1.0 - a2) / kFragments)) << a;
  }
}

TEST(StochasticSamples, KeepTheNearestCoveringFragmentAndBreakTiesByIndex) {
  StochasticSample samples[3];
  const std::uint32_t key = stochastic_fragment_key(0u, 5u, 0u);
  stochastic_take(samples, 3, key, 1.0f, 4.0f, 5u);
  stochastic_take(samples, 3, key, 1.0f, 6.0f, 1u);  // behind
  stochastic_take(samples, 3, key, 0.0f, 1.0f, 2u);  // in front, never covers
  stochastic_take(samples, 3, key, 1.0f, 4.0f, 9u);  // a tie, higher index
  for (const StochasticSample& s : samples) EXPECT_EQ(s.sprite, 5u);
  stochastic_take(samples, 3, key, 1.0f, 4.0f, 3u);  // a tie, lower index
  for (const StochasticSample& s : samples) EXPECT_EQ(s.sprite, 3u);
}

TEST(StochasticAccumulation, IsTheRunningMeanOfTheFrames) {
  const PixelF frames[3] = {
      {0.3f, 0.0f, 1.0f, 1.0f}, {0.6f, 0.5f, 0.0f, 1.0f}, {0.0f, 1.0f, 0.5f, 0.5f}};
  PixelF average{9.0f, 9.0f, 9.0f, 9.0f};  // whatever frame 0 replaces
  for (std::uint32_t f = 0; f < 3; ++f) average = running_average(average, frames[f], f);
  EXPECT_NEAR(average.r, 0.3f, 1e-6f);
  EXPECT_NEAR(average.g, 0.5f, 1e-6f);
  EXPECT_NEAR(average.b, 0.5f, 1e-6f);
  EXPECT_NEAR(average.a, 2.5f / 3.0f, 1e-6f);

  CompositeImage image{2, 1, {frames[0], frames[1]}};
  CompositeImage small{1, 1, {frames[2]}};
  accumulate_frame(image, small, 0);  // frame 0 replaces, whatever its size
  EXPECT_EQ(image.pixels, small.pixels);
  const CompositeImage wide{2, 1, {frames[0], frames[1]}};
  EXPECT_THROW(accumulate_frame(image, wide, 1), std::invalid_argument);
}

// The closed-form scene: a near sprite (colour c1, alpha a1) and a far one (c2, a2) over every
// pixel at profile weight 1. A sample shows c1 with probability a1, c2 with (1 - a1) a2 and the
// background with R = (1 - a1)(1 - a2), independently for every sample and pixel.
struct TwoSprites {
  SpriteCamera camera = test::covering_camera();
  std::vector<ParticleVertex> v{{0.0f, 0.0f, -4.0f, pack_rgba8({1.0f, 0.2f, 0.0f, 0.5f})},
                                {0.0f, 0.0f, -6.0f, pack_rgba8({0.0f, 0.6f, 1.0f, 0.6f})}};
  double a1 = test::alpha_over_every_pixel(camera, v[0]);
  double a2 = test::alpha_over_every_pixel(camera, v[1]);
  double revealage = (1.0 - a1) * (1.0 - a2);

  double channel(const ParticleVertex& p, int c) const {
    const Color colour = unpack_rgba8(p.rgba8);
    return c == 0 ? colour.r : (c == 1 ? colour.g : colour.b);
  }
  static double background(int c) {
    return c == 0 ? kBackground.r : (c == 1 ? kBackground.g : kBackground.b);
  }
  static float of(const PixelF& p, int c) { return c == 0 ? p.r : (c == 1 ? p.g : p.b); }

  // The exact answer: a sample's mean.
  double exact(int c) const {
    return a1 * channel(v[0], c) + (1.0 - a1) * a2 * channel(v[1], c) + revealage * background(c);
  }
  // The variance of one sample.
  double sample_variance(int c) const {
    const double m = exact(c);
    const auto sq = [](double d) { return d * d; };
    return a1 * sq(channel(v[0], c) - m) + (1.0 - a1) * a2 * sq(channel(v[1], c) - m) +
           revealage * sq(background(c) - m);
  }
  // Alpha-corrected with S samples: k ~ Binomial(S, 1 - R) samples covered; given k > 0 the pixel
  // is R * background + (1 - R) * the mean of k colours drawn from the covered distribution,
  // whose expectation is the exact answer; given k = 0 it is the background.
  double corrected_mean(int c, int s) const {
    const double none = std::pow(revealage, s);
    return (1.0 - none) * exact(c) + none * background(c);
  }
  double corrected_variance(int c, int s) const {
    const double q1 = a1 / (1.0 - revealage), q2 = (1.0 - a1) * a2 / (1.0 - revealage);
    const double m = q1 * channel(v[0], c) + q2 * channel(v[1], c);
    const double colour_variance =
        q1 * std::pow(channel(v[0], c) - m, 2) + q2 * std::pow(channel(v[1], c) - m, 2);
    double within = 0.0, binomial = std::pow(revealage, s);  // P(k = 0)
    for (int k = 1; k <= s; ++k) {
      binomial *= (1.0 - revealage) / revealage * double(s - k + 1) / double(k);
      within += binomial * std::pow(1.0 - revealage, 2) * colour_variance / k;
    }
    const double none = std::pow(revealage, s);
    return within + none * (1.0 - none) * std::pow(exact(c) - background(c), 2);
  }
};

struct ImageStats {
  double mean = 0.0, rms_from = 0.0;
};
ImageStats channel_stats(const CompositeImage& image, int c, double centre) {
  ImageStats s;
  for (const PixelF& p : image.pixels) {
    const double x = TwoSprites::of(p, c);
    s.mean += x;
    s.rms_from += (x - centre) * (x - centre);
  }
  const double n = static_cast<double>(image.pixels.size());
  s.mean /= n;
  s.rms_from = std::sqrt(s.rms_from / n);
  return s;
}

// Over the 3,072 pixels, for S = 1 to 16 and both resolves: the image's mean within 5 standard
// errors of the closed-form expectation, and the pixels' spread about it within 15% of the
// closed-form standard deviation (the estimate's own scatter is 1-3% at this pixel count).
// (Alpha correction does not always spread less: here the background's green and blue lie near
// the sprites' mean, and its spread in them is a few percent above the plain one's.)
TEST(CpuStochastic, TwoSpritesFollowTheClosedFormForEverySampleCount) {
  const TwoSprites scene;
  const double pixels = 64.0 * 48.0;
  CpuStochastic renderer(2);
  for (const int s : {1, 2, 4, 16}) {
    CompositeImage plain, corrected;
    renderer.composite(scene.v, std::vector<std::uint32_t>{1, 0}, scene.camera, kBackground,
                       {s, 17u, false}, plain);
    renderer.composite(scene.v, std::vector<std::uint32_t>{1, 0}, scene.camera, kBackground,
                       {s, 17u, true}, corrected);
    for (int c = 0; c < 3; ++c) {
      const double plain_sd = std::sqrt(scene.sample_variance(c) / s);
      const ImageStats p = channel_stats(plain, c, scene.exact(c));
      EXPECT_NEAR(p.mean, scene.exact(c), 5.0 * plain_sd / std::sqrt(pixels)) << s << " " << c;
      EXPECT_NEAR(p.rms_from / plain_sd, 1.0, 0.15) << s << " " << c;

      const double corrected_sd = std::sqrt(scene.corrected_variance(c, s));
      const ImageStats q = channel_stats(corrected, c, scene.corrected_mean(c, s));
      EXPECT_NEAR(q.mean, scene.corrected_mean(c, s), 5.0 * corrected_sd / std::sqrt(pixels))
          << s << " " << c;
      EXPECT_NEAR(q.rms_from / corrected_sd, 1.0, 0.15) << s << " " << c;
    }
    for (const PixelF& p : plain.pixels) ASSERT_EQ(p.a, 1.0f);  // an opaque background
  }
}

// Accumulated still frames, each with its own seed: F frames of S samples spread as F * S
// samples do, within the same 15%.
TEST(CpuStochastic, AccumulatedFramesConvergeAsMoreSamples) {
  const TwoSprites scene;
  CpuStochastic renderer(2);
  CompositeImage frame, average;
  double previous = 1e9;
  for (std::uint32_t f = 0; f < 8; ++f) {
    renderer.composite(scene.v, std::vector<std::uint32_t>{0, 1}, scene.camera, kBackground,
                       {2, stochastic_frame_seed(11u, f), false}, frame);
    accumulate_frame(average, frame, f);
    const ImageStats s = channel_stats(average, 1, scene.exact(1));
    const double want = std::sqrt(scene.sample_variance(1) / (2.0 * (f + 1)));
    EXPECT_NEAR(s.rms_from / want, 1.0, 0.15) << "frames " << f + 1;
    EXPECT_LT(s.rms_from, previous) << "frames " << f + 1;
    previous = s.rms_from;
  }
}

// Alphas of 0 and 1 leave nothing to chance: opaque sprites show the nearest one's colour at
// every sample, as the exact compositor does (to the rounding of the samples' mean), and
// transparent ones leave the background bit for bit.
TEST(CpuStochastic, ExactWhenAlphasAreZeroOrOne) {
  const SpriteCamera camera = test::covering_camera();
  const std::vector<ParticleVertex> opaque{{0.0f, 0.0f, -6.0f, 0xffff8000u},
                                           {0.0f, 0.0f, -4.0f, 0xff2040ffu},
                                           {0.0f, 0.0f, -5.0f, 0x8000ff00u}};
  const std::vector<ParticleVertex> clear{{0.0f, 0.0f, -6.0f, 0x00ff8000u},
                                          {0.0f, 0.0f, -4.0f, 0x002040ffu}};
  const CompositeImage exact = test::exact_image(opaque, camera, kBackground);
  CpuStochastic renderer(2);
  CompositeImage image;
  for (const int s : {1, 3, 16}) {
    for (const bool correct : {false, true}) {
      renderer.composite(opaque, test::in_index_order(3), camera, kBackground, {s, 5u, correct},
                         image);
      EXPECT_LE(test::largest_difference(image, exact), 1e-6f) << s << " " << correct;
      EXPECT_EQ(rgba8_of(image.at(7, 9)), 0xff2040ffu);
      renderer.composite(clear, test::in_index_order(2), camera, kBackground, {s, 5u, correct},
                         image);
      EXPECT_EQ(image.pixels, std::vector<PixelF>(64 * 48, kBackground)) << s << " " << correct;
    }
  }
}

// Sprites at one depth: the lower particle index wins every sample, in either order.
TEST(CpuStochastic, TiesGoToTheLowerParticleIndex) {
  const SpriteCamera camera = test::covering_camera();
  const std::vector<ParticleVertex> v{{0.0f, 0.0f, -5.0f, 0xff0000ffu},
                                      {0.0f, 0.0f, -5.0f, 0xffff0000u}};
  CpuStochastic renderer(1);
  CompositeImage forward, backward;
  renderer.composite(v, std::vector<std::uint32_t>{0, 1}, camera, kBackground, {4, 1u, false},
                     forward);
  renderer.composite(v, std::vector<std::uint32_t>{1, 0}, camera, kBackground, {4, 1u, false},
                     backward);
  EXPECT_EQ(forward.pixels, backward.pixels);
  EXPECT_EQ(rgba8_of(forward.at(0, 0)), 0xff0000ffu);
}

// The coins hash the particle's index, never its place in the order: any order gives the same
// samples. The plain resolve reads nothing else, so its image is the same bit for bit; the
// alpha-corrected one also multiplies the pixel's revealage, a float product whose rounding
// follows the order (1e-5 bounds it here, far below an 8-bit step). Any thread count gives the
// same bits for one order.
TEST(CpuStochastic, OrderChangesNoSampleAndThreadsNoBit) {
  const SpriteCamera camera = test::looking_down_z(96, 64, 0.25f);
  const auto v = test::cloud(4000, 7, 0.9f);
  const auto sorted_order = test::far_to_near(v, camera);
  const auto mixed_order = test::shuffled(sorted_order, 2);
  for (const bool correct : {false, true}) {
    const StochasticSettings settings{8, 23u, correct};
    CompositeImage sorted, mixed, one, many;
    CpuStochastic(3).composite(v, sorted_order, camera, kBackground, settings, sorted);
    CpuStochastic(3).composite(v, mixed_order, camera, kBackground, settings, mixed);
    if (correct) {
      EXPECT_LE(test::largest_difference(sorted, mixed), 1e-5f);
    } else {
      EXPECT_EQ(sorted.pixels, mixed.pixels);
    }
    CpuStochastic(1).composite(v, mixed_order, camera, kBackground, settings, one);
    CpuStochastic(7).composite(v, mixed_order, camera, kBackground, settings, many);
    EXPECT_EQ(one.pixels, many.pixels) << correct;
    EXPECT_EQ(one.pixels, mixed.pixels) << correct;
  }
}

// Against the exact front-to-back compositor on a random cloud: the error falls as S grows (as
// 1 / sqrt(S) for the noise: 16 samples at least halve one sample's error) and as still frames
// accumulate (8 frames of 4 samples at least halve one frame's).
TEST(CpuStochastic, ErrorAgainstTheExactCompositorFallsWithSamplesAndFrames) {
  const SpriteCamera camera = test::looking_down_z(96, 64, 0.25f);
  const auto v = test::cloud(3000, 21, 0.8f);
  const CompositeImage exact = test::exact_image(v, camera, kBackground);
  const auto order = test::in_index_order(v.size());
  CpuStochastic renderer(2);
  CompositeImage image, average;
  double one_sample[2] = {};
  for (const bool correct : {false, true}) {
    double errors[3] = {};
    const int counts[3] = {1, 4, 16};
    for (int i = 0; i < 3; ++i) {
      renderer.composite(v, order, camera, kBackground, {counts[i], 3u, correct}, image);
      errors[i] = test::rms_difference(image, exact);
      std::printf("stochastic (%s): S = %d, rms error against exact %.4f\n",
                  correct ? "alpha-corrected" : "plain", counts[i], errors[i]);
    }
    EXPECT_LT(errors[1], errors[0]) << correct;
    EXPECT_LT(errors[2], errors[1]) << correct;
    EXPECT_LT(errors[2], errors[0] / 2.0) << correct;
    for (std::uint32_t f = 0; f < 8; ++f) {
      renderer.composite(v, order, camera, kBackground, {4, stochastic_frame_seed(3u, f), correct},
                         image);
      accumulate_frame(average, image, f);
    }
    const double accumulated = test::rms_difference(average, exact);
    std::printf("stochastic (%s): 8 frames of S = 4, rms error against exact %.4f\n",
                correct ? "alpha-corrected" : "plain", accumulated);
    EXPECT_LT(accumulated, errors[1] / 2.0) << correct;
    one_sample[correct ? 1 : 0] = errors[0];
  }
  // One sample a pixel: alpha correction takes the background's share exactly, where the plain
  // resolve shows either a sprite or the background whole.
  EXPECT_LT(one_sample[1], one_sample[0]);
}

TEST(CpuStochastic, RefusesSampleCountsOutsideOneToSixteenAndWhatTheCompositorRefuses) {
  CpuStochastic renderer(1);
  CompositeImage image;
  const SpriteCamera camera = test::covering_camera();
  const std::vector<ParticleVertex> three(3);
  const auto refused = [&](const std::vector<std::uint32_t>& order, int samples,
                           const std::string& phrase) {
    try {
      renderer.composite(three, order, camera, kBackground, {samples, 0u, true}, image);
      ADD_FAILURE() << "accepted what should name \"" << phrase << "\"";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(phrase), std::string::npos) << e.what();
    }
  };
  refused({0, 1, 2}, 0, "0 samples a pixel; expected 1 to 16");
  refused({0, 1, 2}, 17, "17 samples a pixel; expected 1 to 16");
  refused({0, 3, 1}, 4, "CpuStochastic: draw order names particle 3 of 3");
}

}  // namespace
}  // namespace particles
