// CPU twins of the sort kernels against std::stable_sort: runs everywhere, no CUDA device needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "cuda/sort/cpu_reference.hpp"
#include "sort_test_data.hpp"

namespace particles::cuda {
namespace {

using testing::Distribution;

void stable_reference(std::vector<std::uint32_t>& keys, std::vector<std::uint32_t>& values,
                      KeyBits bits) {
  std::vector<std::size_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return bits(keys[a]) < bits(keys[b]); });
  std::vector<std::uint32_t> k(keys.size()), v(keys.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    k[i] = keys[order[i]];
    v[i] = values[order[i]];
  }
  keys.swap(k);
  values.swap(v);
}

// A test input (values = input index) and its stable sort by `bits`, the expected output.
struct PairsCase {
  std::vector<std::uint32_t> keys, values, expected_keys, expected_values;
};
PairsCase make_pairs_case(Distribution d, std::size_t n, int b, int e, std::uint64_t seed) {
  PairsCase c;
  c.keys = testing::make_keys(d, n, b, e, seed);
  c.values.resize(n);
  std::iota(c.values.begin(), c.values.end(), 0u);
  c.expected_keys = c.keys;
  c.expected_values = c.values;
  stable_reference(c.expected_keys, c.expected_values, KeyBits{b, e});
  return c;
}

TEST(SortCpuTwins, RadixMatchesStableSort) {
  for (auto d : {Distribution::random, Distribution::few_unique, Distribution::nearly_sorted,
                 Distribution::reversed}) {
    for (auto [b, e] : {std::pair{0, 32}, std::pair{0, 16}, std::pair{8, 24}, std::pair{3, 14}}) {
      for (std::size_t n : {0u, 1u, 2u, 33u, 1000u, 65537u}) {
        auto [keys, values, ref_k, ref_v] = make_pairs_case(d, n, b, e, n + 7);
        cpu_radix_sort_pairs(keys, values, b, e);
        ASSERT_EQ(keys, ref_k) << testing::name(d) << " n=" << n << " bits " << b << ".." << e;
        ASSERT_EQ(values, ref_v);
      }
    }
  }
}

TEST(SortCpuTwins, MergePathSplitsStably) {
  // A = {1,2,2,5}, B = {2,3}: stable merge 1 2a 2a 2b 3 5 -> first 3 outputs take 3 from A.
  const std::uint32_t a[] = {1, 2, 2, 5}, b[] = {2, 3};
  auto ka = [&](int i) { return a[i]; };
  auto kb = [&](int j) { return b[j]; };
  EXPECT_EQ(merge_path(ka, 4, kb, 2, 0), 0);
  EXPECT_EQ(merge_path(ka, 4, kb, 2, 3), 3);
  EXPECT_EQ(merge_path(ka, 4, kb, 2, 4), 3);
  EXPECT_EQ(merge_path(ka, 4, kb, 2, 6), 4);
}

TEST(SortCpuTwins, BucketTileSortMatchesStableSort) {
  for (auto d : {Distribution::random, Distribution::nearly_sorted, Distribution::few_unique,
                 Distribution::all_equal, Distribution::reversed}) {
    for (auto [b, e] : {std::pair{0, 32}, std::pair{0, 16}, std::pair{5, 17}}) {
      for (std::size_t n : {1u, 2u, 100u, 4096u}) {
        auto [keys, values, ref_k, ref_v] = make_pairs_case(d, n, b, e, n + 11);
        const bool buckets = cpu_bucket_tile_sort(keys, values, KeyBits{b, e}, 12, 16);
        ASSERT_EQ(keys, ref_k) << testing::name(d) << " n=" << n << " bits " << b << ".." << e;
        ASSERT_EQ(values, ref_v);
        // Evenly spread keys fill about one per bucket; 7 repeated keys crowd them.
        if (n == 4096 && e - b == 32 && d == Distribution::nearly_sorted) {
          EXPECT_TRUE(buckets);
        }
        if (n == 4096 && d == Distribution::few_unique) {
          EXPECT_FALSE(buckets);
        }
      }
    }
  }
}

TEST(SortCpuTwins, OddEvenMatchesStableSort) {
  struct Shape {
    int tile, window, bucket_bits, bucket_limit;
  };
  // The kernel's shape (4096 / 512 / 12 / 16), and small tiles that stress windows and merges.
  for (Shape s : {Shape{4096, 512, 12, 16}, Shape{64, 8, 6, 4}, Shape{1024, 512, 10, 16}}) {
    for (auto d : {Distribution::random, Distribution::nearly_sorted, Distribution::sorted,
                   Distribution::reversed, Distribution::few_unique}) {
      for (auto [b, e] : {std::pair{0, 32}, std::pair{0, 16}}) {
        for (std::size_t n : {2u, 1000u, 4097u, 20000u}) {
          auto [keys, values, ref_k, ref_v] = make_pairs_case(d, n, b, e, n + 3);
          const bool one_round = cpu_odd_even_sort(keys, values, b, e, s.tile, s.window,
                                                   s.bucket_bits, s.bucket_limit);
          ASSERT_EQ(keys, ref_k) << testing::name(d) << " n=" << n << " tile " << s.tile;
          ASSERT_EQ(values, ref_v);
          // Displacement <= 256 is within half a tile of 1024 or more: one round suffices.
          if (s.tile >= 1024 && (d == Distribution::nearly_sorted || d == Distribution::sorted)) {
            EXPECT_TRUE(one_round) << testing::name(d) << " n=" << n << " tile " << s.tile;
          }
          if (n == 20000 && (d == Distribution::random || d == Distribution::reversed)) {
            EXPECT_FALSE(one_round) << testing::name(d) << " tile " << s.tile;
          }
        }
      }
    }
  }
}

TEST(SortCpuTwins, OddEvenOneRoundWithWholeNeighbours) {
  // Displacement <= 10 in tiles of 64 (one round suffices) with windows of 8 keys, too small for
  // the exchange at some boundaries: those merges search the whole neighbouring tiles.
  std::mt19937 rng(5);
  const std::size_t n = 5000;
  std::vector<std::uint32_t> keys(n), values(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = static_cast<std::uint32_t>(4 * i + rng() % 40);
  std::iota(values.begin(), values.end(), 0u);
  auto ref_k = keys, ref_v = values;
  stable_reference(ref_k, ref_v, KeyBits{0, 32});
  EXPECT_TRUE(cpu_odd_even_sort(keys, values, 0, 32, 64, 8, 6, 4));
  EXPECT_EQ(keys, ref_k);
  EXPECT_EQ(values, ref_v);
}

TEST(SortCpuTwins, Partition3IsStable) {
  std::vector<std::uint32_t> keys{5, 1, 5, 9, 3, 5, 7, 1}, values{0, 1, 2, 3, 4, 5, 6, 7};
  const auto counts = cpu_partition3(keys, values, 5, KeyBits{0, 32});
  EXPECT_EQ(counts.lt, 3u);
  EXPECT_EQ(counts.eq, 3u);
  EXPECT_EQ(keys, (std::vector<std::uint32_t>{1, 3, 1, 5, 5, 5, 9, 7}));
  EXPECT_EQ(values, (std::vector<std::uint32_t>{1, 4, 7, 0, 2, 5, 3, 6}));
}

TEST(SortCpuTwins, SamplePivotIsAMedianOfSamples) {
  std::vector<std::uint32_t> keys(6400);
  std::iota(keys.begin(), keys.end(), 0u);
  const std::uint32_t p = cpu_sample_pivot(keys, KeyBits{0, 32});
  EXPECT_GE(p, 2800u);
  EXPECT_LE(p, 3600u);
  std::vector<std::uint32_t> equal(5000, 42u);
  EXPECT_EQ(cpu_sample_pivot(equal, KeyBits{0, 32}), 42u);
}

TEST(SortCpuTwins, Descents) {
  const std::vector<std::uint32_t> keys{1, 3, 2, 2, 5, 0};
  EXPECT_EQ(cpu_count_descents(keys, 0, 32), 2u);
  EXPECT_EQ(cpu_count_descents(keys, 1, 2), 1u);  // bit 1: 0 1 1 1 0 0
}

}  // namespace
}  // namespace particles::cuda
