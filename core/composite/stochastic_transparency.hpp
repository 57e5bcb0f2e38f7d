#pragma once
// Stochastic transparency (Enderton, Sintorn, Shirley and Luebke, I3D 2010), one pixel at a time,
// for the CPU twin (core/composite/cpu_stochastic.cpp) and a CUDA kernel alike. No sort: a pixel
// holds S samples (1 to kStochasticMaxSamples); a fragment of alpha a covers each sample on its
// own with probability a, and a covered sample keeps the nearest fragment that covered it (a
// depth test). Sample k then shows sprite i exactly when i covers it and no nearer sprite does,
// with probability a_i * prod_{j nearer} (1 - a_j): the exact compositor's weight of sprite i.
// So the pixel's mean over its samples (background where none covered) is the exact answer in
// expectation, with noise that falls as 1 / sqrt(S) and, across still frames averaged with fresh
// seeds, as 1 / sqrt(S * frames).
//
// The coin: sample k of pixel p is covered by sprite i in the frame of seed f when
//   unit_float(hash_combine(hash_combine(hash_combine(f, i), p), k)) < a,
// with core/hash.hpp's integer hash, i the particle's index (its place in the vertex buffer,
// never its place in the draw order, so any order of the same sprites keeps the same samples)
// and p = y * width + x. unit_float keeps the hash's top 24 bits, so the probability is
// a rounded up to a multiple of 2^-24: 0 exactly for a = 0 and 1 exactly for a = 1.
//
// Two resolves are offered:
//  - plain: the mean of the S samples, background for the uncovered ones. Unbiased, and it reads
//    nothing but the samples, so any order of the sprites gives the same image bit for bit;
//  - alpha-corrected (the paper's alpha correction, what the twin ships by default): the pixel's
//    total opacity is taken exactly from revealage = prod (1 - a_i), as weighted blended
//    transparency does, and the covered samples only split it among their sprites:
//      pixel = mean colour of the covered samples * (1 - revealage) + background * revealage.
//    The background's share, the largest source of speckle over a plain background, is then
//    free of noise, for one more float a pixel. Given at least one covered sample its
//    expectation is the exact answer; a pixel with none (probability revealage^S) falls back to
//    the plain resolve, the background, so the whole is biased towards the background by
//    revealage^S * (exact - background), which vanishes quickly as S grows. Its revealage is a
//    float product, so another order of the sprites changes it by rounding (as in weighted
//    blended transparency), never which sprite a sample keeps.
// Why corrected by default: on random clouds against the exact compositor it has the smaller
// error at every S tried (tests/unit/stochastic_test.cpp prints them); it is not smaller in
// every case (a channel in which the background lies near the sprites' mean colour gains
// nothing from an exact background share and can spread a few percent more).
//
// Ties: two fragments at one depth keep the lower particle index, so the depth test too is free
// of order.
#include <cfloat>
#include <cstdint>

#include "core/composite/front_to_back.hpp"
#include "core/composite/pixel.hpp"
#include "core/hash.hpp"
#include "core/host_device.hpp"

namespace particles {

inline constexpr int kStochasticMaxSamples = 16;
inline constexpr std::uint32_t kNoSprite = 0xffffffffu;

// One sample: the nearest fragment that has covered it so far.
struct StochasticSample {
  float depth = FLT_MAX;
  std::uint32_t sprite = kNoSprite;  // particle index; kNoSprite: not covered
};

// The seed of frame `frame` of a still sequence started from `seed`, so that accumulated frames
// draw fresh coins.
PARTICLES_HD std::uint32_t stochastic_frame_seed(std::uint32_t seed, std::uint32_t frame) {
  return hash_combine(seed, frame);
}

// What a fragment's coins are drawn from: one hash per (frame seed, particle, pixel).
PARTICLES_HD std::uint32_t stochastic_fragment_key(std::uint32_t frame_seed, std::uint32_t sprite,
                                                   std::uint32_t pixel) {
  return hash_combine(hash_combine(frame_seed, sprite), pixel);
}

// Whether sample `sample` is covered by a fragment of alpha a whose key is `fragment_key`.
PARTICLES_HD bool stochastic_covers(std::uint32_t fragment_key, int sample, float a) {
  return unit_float(hash_combine(fragment_key, static_cast<std::uint32_t>(sample))) < a;
}

// Whether a fragment at `depth` of particle `sprite` lies in front of what sample `s` keeps.
PARTICLES_HD bool stochastic_nearer(float depth, std::uint32_t sprite, const StochasticSample& s) {
  return depth < s.depth || (depth == s.depth && sprite < s.sprite);
}

// A fragment of particle `sprite` at view depth `depth` and alpha a, in any order, against the
// pixel's `count` samples. The depth test goes first: it decides nothing the coin would not,
// and saves the hash where a nearer fragment already holds the sample.
PARTICLES_HD void stochastic_take(StochasticSample* samples, int count, std::uint32_t fragment_key,
                                  float a, float depth, std::uint32_t sprite) {
  for (int k = 0; k < count; ++k) {
    if (stochastic_nearer(depth, sprite, samples[k]) && stochastic_covers(fragment_key, k, a)) {
      samples[k] = {depth, sprite};
    }
  }
}

// A pixel's resolve: add() the straight colour of each covered sample's sprite, then over().
struct StochasticResolve {
  float r = 0.0f, g = 0.0f, b = 0.0f;  // sum of the covered samples' colours
  int covered = 0;

  PARTICLES_HD void add(const SpriteColor& c) {
    r += c.r;
    g += c.g;
    b += c.b;
    ++covered;
  }

  // Plain: the mean of `samples` samples, `under` (premultiplied) where uncovered.
  PARTICLES_HD PixelF over(const PixelF& under, int samples) const {
    const float n = static_cast<float>(samples);
    const float shown = static_cast<float>(covered) / n;
    const float rest = 1.0f - shown;
    return {r / n + rest * under.r, g / n + rest * under.g, b / n + rest * under.b,
            shown + rest * under.a};
  }

  // Alpha-corrected: the covered samples' mean colour over the exact opacity 1 - revealage
  // (revealage: the product of 1 - a over every fragment the pixel took); plain where no sample
  // was covered.
  PARTICLES_HD PixelF over_alpha_corrected(const PixelF& under, int samples,
                                           float revealage) const {
    if (covered == 0) return over(under, samples);
    const float n = static_cast<float>(covered);
    const float coverage = 1.0f - revealage;
    return {r / n * coverage + revealage * under.r, g / n * coverage + revealage * under.g,
            b / n * coverage + revealage * under.b, coverage + revealage * under.a};
  }
};

// Still frames accumulated: the running mean of frames 0..frame_index, given the mean of frames
// 0..frame_index - 1 and frame `frame_index` (frame 0 replaces whatever `average` held).
PARTICLES_HD PixelF running_average(const PixelF& average, const PixelF& frame,
                                    std::uint32_t frame_index) {
  if (frame_index == 0) return frame;
  const float share = 1.0f / (static_cast<float>(frame_index) + 1.0f);
  return {average.r + (frame.r - average.r) * share, average.g + (frame.g - average.g) * share,
          average.b + (frame.b - average.b) * share, average.a + (frame.a - average.a) * share};
}

}  // namespace particles
