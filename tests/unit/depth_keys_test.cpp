#include "core/depth_keys.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

namespace particles {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

TEST(OrderedBits, PreservesOrderAcrossSignsAndSpecials) {
  const std::vector<float> ascending = {-kInf,  -3.0e38f, -1.0f, -1e-30f, -1e-45f, 0.0f,
                                        1e-45f, 1e-30f,   1.0f,  2.0f,    3.0e38f, kInf};
  for (std::size_t i = 1; i < ascending.size(); ++i) {
    EXPECT_LT(ordered_bits(ascending[i - 1]), ordered_bits(ascending[i]))
        << ascending[i - 1] << " vs " << ascending[i];
  }
}

TEST(OrderedBits, NegativeZeroEqualsPositiveZero) {
  EXPECT_EQ(ordered_bits(-0.0f), ordered_bits(0.0f));
  EXPECT_EQ(exact_depth_key(-0.0f), exact_depth_key(0.0f));
}

TEST(OrderedBits, EveryNaNIsOneKeyAboveInfinity) {
  const float negative_nan = -kNaN;
  EXPECT_EQ(ordered_bits(kNaN), ordered_bits(negative_nan));
  EXPECT_GT(ordered_bits(kNaN), ordered_bits(kInf));
}

TEST(ExactDepthKey, FarSortsFirst) {
  std::vector<float> depths = {3.0f, -2.0f, 100.0f, 0.5f, kInf, -kInf, 0.0f};
  std::vector<std::uint32_t> keys;
  for (float d : depths) keys.push_back(exact_depth_key(d));
  std::vector<std::size_t> idx(depths.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(), [&](auto a, auto b) { return keys[a] < keys[b]; });
  for (std::size_t i = 1; i < idx.size(); ++i) {
    EXPECT_GE(depths[idx[i - 1]], depths[idx[i]]);
  }
  EXPECT_EQ(depths[idx.front()], kInf);
  EXPECT_EQ(depths[idx.back()], -kInf);
}

TEST(ExactDepthKey, NaNDrawnBeforeEverything) {
  EXPECT_LT(exact_depth_key(kNaN), exact_depth_key(kInf));
}

// The keys stage makes auto's quantized keys from the fused step's exact keys through
// depth_of_exact_key; they must equal the keys made from the depth itself, for every depth.
TEST(DepthOfExactKey, KeysMadeFromItEqualKeysMadeFromTheDepth) {
  std::vector<float> depths = {0.0f,    -0.0f,  kNaN,     -kNaN,   kInf,    -kInf, 1e-45f,
                               -1e-45f, 1e-40f, -3.0e38f, 3.0e38f, 25.125f, -7.5f};
  std::uint32_t bits = 0x2545f491u;  // a cheap stream of bit patterns: every class of float
  for (int i = 0; i < 100000; ++i) {
    bits = bits * 1664525u + 1013904223u;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    depths.push_back(f);
  }
  for (const float depth : depths) {
    const std::uint32_t exact = exact_depth_key(depth);
    const float back = depth_of_exact_key(exact);
    ASSERT_EQ(exact_depth_key(back), exact) << depth;
    if (!std::isnan(depth)) {
      ASSERT_TRUE(back == depth) << depth;  // -0.0 comes back as +0.0
    }
    for (const int b : {1, 10, 16, 32}) {
      for (const auto& [lo, hi] : {std::pair{-10.0f, 40.0f}, std::pair{3.0f, 3.0f},
                                   std::pair{-kInf, kInf}, std::pair{1e-40f, 2e-40f}}) {
        ASSERT_EQ(quantized_depth_key(back, lo, hi, b), quantized_depth_key(depth, lo, hi, b))
            << depth << " bits " << b << " range " << lo << ".." << hi;
      }
    }
  }
}

TEST(QuantizedDepthKey, EndsOfRangeMapToExtremeBuckets) {
  EXPECT_EQ(quantized_depth_key(10.0f, 2.0f, 10.0f, 16), 0u);      // farthest
  EXPECT_EQ(quantized_depth_key(2.0f, 2.0f, 10.0f, 16), 0xffffu);  // nearest
  EXPECT_EQ(quantized_depth_key(2.0f, 2.0f, 10.0f, 32), 0xffffffffu);
  EXPECT_EQ(quantized_depth_key(2.0f, 2.0f, 10.0f, 1), 1u);
}

TEST(QuantizedDepthKey, MonotoneNonIncreasingInDepth) {
  std::uint32_t previous = 0xffffffffu;
  for (int i = 0; i <= 1000; ++i) {
    const float depth = -5.0f + 0.01f * static_cast<float>(i);
    const std::uint32_t key = quantized_depth_key(depth, -5.0f, 5.0f, 16);
    EXPECT_LE(key, previous);
    previous = key;
  }
}

TEST(QuantizedDepthKey, ClampsOutOfRangeAndNaN) {
  EXPECT_EQ(quantized_depth_key(100.0f, 0.0f, 1.0f, 16), 0u);
  EXPECT_EQ(quantized_depth_key(-100.0f, 0.0f, 1.0f, 16), 0xffffu);
  EXPECT_EQ(quantized_depth_key(kNaN, 0.0f, 1.0f, 16), 0u);
  EXPECT_EQ(quantized_depth_key(kInf, 0.0f, 1.0f, 16), 0u);
  EXPECT_EQ(quantized_depth_key(-kInf, 0.0f, 1.0f, 16), 0xffffu);
}

TEST(QuantizedDepthKey, EmptyRangeGivesOneBucket) {
  EXPECT_EQ(quantized_depth_key(3.0f, 3.0f, 3.0f, 16), 0u);
}

}  // namespace
}  // namespace particles
