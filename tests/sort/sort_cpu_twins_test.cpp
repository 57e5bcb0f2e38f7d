// CPU twins of the sort kernels against std::stable_sort: runs everywhere, no CUDA device needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "bench/key_distributions.hpp"
#include "cuda/sort/cpu/cpu_reference.hpp"
#include "cuda/sort/cpu/odd_even_window_cpu.hpp"

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

TEST(SortCpuTwins, WindowSortIsExactWhenItsCheckHolds) {
  struct Shape {
    int tile, window, bucket_bits, bucket_limit;
  };
  // The kernel's shape (4096 / 512 / 12 / 16) and a small one with short halos.
  for (Shape s : {Shape{4096, 512, 12, 16}, Shape{64, 16, 6, 4}}) {
    for (auto d : {Distribution::random, Distribution::nearly_sorted, Distribution::sorted,
                   Distribution::reversed, Distribution::few_unique, Distribution::all_equal}) {
      for (auto [b, e] : {std::pair{0, 32}, std::pair{0, 16}, std::pair{5, 17}}) {
        for (std::size_t n : {2u, 1000u, 4097u, 20000u, 70001u}) {
          auto [keys, values, ref_k, ref_v] = make_pairs_case(d, n, b, e, n + 5);
          const auto input = keys;
          const bool done =
              cpu_window_sort(keys, values, b, e, s.tile, s.window, s.bucket_bits, s.bucket_limit);
          if (done) {
            ASSERT_EQ(keys, ref_k) << testing::name(d) << " n=" << n << " tile " << s.tile;
            ASSERT_EQ(values, ref_v);
          } else {
            ASSERT_EQ(keys, input) << "a failed check leaves the input to the exact path";
          }
          // Displacement <= 256 = window / 2: the check holds.
          if (s.window == 512 && (d == Distribution::nearly_sorted || d == Distribution::sorted ||
                                  d == Distribution::all_equal)) {
            EXPECT_TRUE(done) << testing::name(d) << " n=" << n;
          }
          if (n >= 4097 && (d == Distribution::random || d == Distribution::reversed)) {
            EXPECT_FALSE(done) << testing::name(d) << " n=" << n << " tile " << s.tile;
          }
        }
      }
    }
  }
}

TEST(SortCpuTwins, WindowSortAroundItsDisplacementLimit) {
  // Keys 4i + U[0, spread): keys more than (spread - 1) / 4 places apart cannot cross. Windows of
  // 16 keys hold displacement <= 8 (spread <= 33); past that the check may fail, but whenever it
  // holds the result must be the stable sort (the proof, exercised near its edge). Also random
  // swaps of a few keys over longer distances, and sorted keys with few distinct values (the
  // crowded-bucket path of the tile sort).
  std::mt19937 rng(21);
  int held = 0, failed = 0;
  for (std::uint32_t spread = 4; spread <= 160; spread += 3) {
    for (std::size_t n : {std::size_t{3000}, std::size_t{4099}}) {
      std::vector<std::uint32_t> keys(n), values(n);
      for (std::size_t i = 0; i < n; ++i)
        keys[i] = static_cast<std::uint32_t>(4 * i + rng() % spread);
      if (spread > 100)
        for (int swaps = 0; swaps < 3; ++swaps) std::swap(keys[rng() % n], keys[rng() % n]);
      std::iota(values.begin(), values.end(), 0u);
      auto ref_k = keys, ref_v = values;
      stable_reference(ref_k, ref_v, KeyBits{0, 32});
      const bool done = cpu_window_sort(keys, values, 0, 32, 64, 16, 6, 4);
      (done ? held : failed) += 1;
      if (spread <= 33) {
        EXPECT_TRUE(done) << "spread " << spread;
      }
      if (done) {
        ASSERT_EQ(keys, ref_k) << "spread " << spread << " n=" << n;
        ASSERT_EQ(values, ref_v);
      }
    }
  }
  EXPECT_GT(held, 0);
  EXPECT_GT(failed, 0);
  auto [keys, values, ref_k, ref_v] = make_pairs_case(Distribution::few_unique, 9000, 0, 32, 4);
  stable_reference(keys, values, KeyBits{0, 32});  // sorted, 7 distinct keys
  std::swap(keys[100], keys[101]);
  std::swap(values[100], values[101]);
  ref_k = keys;
  ref_v = values;
  stable_reference(ref_k, ref_v, KeyBits{0, 32});
  EXPECT_TRUE(cpu_window_sort(keys, values, 0, 32, 4096, 512, 12, 16));
  EXPECT_EQ(keys, ref_k);
  EXPECT_EQ(values, ref_v);
}

TEST(SortCpuTwins, WindowExtentAndChunkCheck) {
  // Tiles of 64 with halo chunks of 16 over n = 150: tiles [0,64), [64,128), [128,150).
  const WindowExtent first = window_extent(0, 150, 64, 16);
  EXPECT_EQ(first.start, 0u);
  EXPECT_EQ(first.left, 0);
  EXPECT_EQ(first.len, 64);
  EXPECT_EQ(first.right, 16);
  const WindowExtent middle = window_extent(1, 150, 64, 16);
  EXPECT_EQ(middle.left, 16);
  EXPECT_EQ(middle.right, 16);
  EXPECT_EQ(middle.size(), 96);
  const WindowExtent last = window_extent(2, 150, 64, 16);
  EXPECT_EQ(last.len, 22);
  EXPECT_EQ(last.right, 0);
  EXPECT_EQ(window_extent(1, 140, 64, 16).right, 12);  // a short head chunk of the next tile
  EXPECT_EQ(window_extent(1, 128, 64, 16).right, 0);
  // Chunk spans: 0 overlaps 1 (allowed), 0 against 2 and 3 must not overlap.
  const KeySpan ok[] = {{0, 10}, {5, 20}, {10, 30}, {25, 40}, {30, 50}};
  auto ok_span = [&](int k) { return ok[k]; };
  for (int k = 0; k < 5; ++k) EXPECT_TRUE(window_chunk_holds(ok_span, k, 5)) << k;
  const KeySpan bad2[] = {{0, 11}, {5, 20}, {10, 30}, {25, 40}};
  EXPECT_FALSE(window_chunk_holds([&](int k) { return bad2[k]; }, 0, 4));
  const KeySpan bad3[] = {{0, 26}, {5, 20}, {26, 30}, {25, 40}};
  EXPECT_FALSE(window_chunk_holds([&](int k) { return bad3[k]; }, 0, 4));
  EXPECT_TRUE(window_chunk_holds([&](int k) { return bad3[k]; }, 0, 3));  // no chunk 3
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
