// CPU twins of the sort kernels against std::stable_sort: runs everywhere, no CUDA device needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

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

TEST(SortCpuTwins, RadixMatchesStableSort) {
  for (auto d : {Distribution::random, Distribution::few_unique, Distribution::nearly_sorted,
                 Distribution::reversed}) {
    for (auto [b, e] : {std::pair{0, 32}, std::pair{0, 16}, std::pair{8, 24}, std::pair{3, 14}}) {
      for (std::size_t n : {0u, 1u, 2u, 33u, 1000u, 65537u}) {
        auto keys = testing::make_keys(d, n, b, e, n + 7);
        std::vector<std::uint32_t> values(n);
        std::iota(values.begin(), values.end(), 0u);
        auto ref_k = keys, ref_v = values;
        stable_reference(ref_k, ref_v, KeyBits{b, e});
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

TEST(SortCpuTwins, MergeSplitWindowAndFullAgreeWithStableSort) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 200; ++trial) {
    const int len_a = 64, len_b = 1 + trial % 64;
    const int spread = trial % 3 == 0 ? 1000 : 20;  // overlap small (window) or large (full)
    std::vector<std::uint32_t> ka(len_a), kb(len_b), va(len_a), vb(len_b);
    for (auto& k : ka) k = static_cast<std::uint32_t>(rng() % 1000);
    for (auto& k : kb)
      k = 1000 - static_cast<std::uint32_t>(spread) + static_cast<std::uint32_t>(rng() % 1000);
    std::sort(ka.begin(), ka.end());
    std::sort(kb.begin(), kb.end());
    std::iota(va.begin(), va.end(), 0u);
    std::iota(vb.begin(), vb.end(), 1000u);
    std::vector<std::uint32_t> all_k = ka, all_v = va;
    all_k.insert(all_k.end(), kb.begin(), kb.end());
    all_v.insert(all_v.end(), vb.begin(), vb.end());
    stable_reference(all_k, all_v, KeyBits{0, 32});
    cpu_merge_split(ka, va, kb, vb, KeyBits{0, 32}, 8);
    std::vector<std::uint32_t> got_k = ka, got_v = va;
    got_k.insert(got_k.end(), kb.begin(), kb.end());
    got_v.insert(got_v.end(), vb.begin(), vb.end());
    ASSERT_EQ(got_k, all_k) << "trial " << trial;
    ASSERT_EQ(got_v, all_v) << "trial " << trial;
  }
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
