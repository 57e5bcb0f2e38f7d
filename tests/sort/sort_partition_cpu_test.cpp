// The splitter partition sort's CPU twin: when it sorts, the result is the stable sort; when the
// splitters do not fit (a bucket over a block's capacity), it says so and leaves the input as it
// was. And the bucket search both share.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "cuda/auto/splitter_partition_cpu.hpp"
#include "cuda/sort/cpu/cpu_reference.hpp"
#include "tests/sort/sort_partition_data.hpp"

namespace particles::cuda {
namespace {

using testing::PartitionCase;

void expect_sorted_stably(PartitionCase c) {
  auto keys = c.keys, values = c.values;
  cpu_radix_sort_pairs(keys, values, 0, 32);  // stable: the expected result
  ASSERT_TRUE(cpu_splitter_partition_sort(c.keys, c.values, c.splitters));
  EXPECT_EQ(c.keys, keys);
  EXPECT_EQ(c.values, values);
}

void expect_refused(PartitionCase c) {
  const PartitionCase before = c;
  EXPECT_FALSE(cpu_splitter_partition_sort(c.keys, c.values, c.splitters));
  EXPECT_EQ(c.keys, before.keys);
  EXPECT_EQ(c.values, before.values);
}

TEST(SplitterPartitionCpu, SortsMovedKeysStably) {
  const std::uint32_t bucket = kPartitionBucket;
  for (const std::uint32_t n : {1u, 2u, bucket - 1, bucket, bucket + 1, 100000u}) {
    SCOPED_TRACE(n);
    expect_sorted_stably(testing::moved_keys(n, 1u << 30, 0, 0, 1, 1));  // unmoved
    expect_sorted_stably(testing::moved_keys(n, 1u << 30, (1u << 30) / n * 3000, 0, 1, 2));
    expect_sorted_stably(testing::moved_keys(n, 1u << 30, 1000, 1 << 20, 1, 3));  // drift
    expect_sorted_stably(testing::moved_keys(n, 1u << 20, 50, 0, 7, 4));          // ties
  }
}

TEST(SplitterPartitionCpu, SortsKeysFarFromTheirPlace) {
  // A key may land in any bucket, however far from its place: keys shuffled within 40K places,
  // and keys in reverse order, whose buckets hold the same keys as the splitters' did.
  const std::uint32_t n = 100000;
  expect_sorted_stably(
      testing::shuffled_within(testing::moved_keys(n, 1u << 30, 0, 0, 1, 5), 40000, 5));
  PartitionCase reversed = testing::moved_keys(n, 1u << 30, 0, 0, 1, 8);
  std::reverse(reversed.keys.begin(), reversed.keys.end());
  expect_sorted_stably(reversed);
  // Runs of 40 equal keys (the GPU ranks such buckets by LSD passes).
  expect_sorted_stably(testing::moved_keys(n, 1u << 30, 0, 0, 40, 9));
}

TEST(SplitterPartitionCpu, RefusesWhatTheSplittersCannotCut) {
  const std::uint32_t n = 100000;
  // Every key shifted past all splitters: the last bucket would take them all.
  expect_refused(testing::moved_keys(n, 1u << 30, 0, std::int64_t{1} << 31, 1, 6));
  // Runs of equal keys longer than a block holds: one bucket over its capacity.
  expect_refused(testing::moved_keys(n, 1u << 30, 0, 0, kPartitionBucketCapacity + 1000, 7));
}

// The search against std::upper_bound over the splitters, from every guess.
TEST(SplitterPartitionCpu, BucketIsTheSplittersAtOrBelowTheKey) {
  for (const std::uint32_t buckets : {1u, 2u, 3u, 7u, 40u}) {
    SCOPED_TRACE(buckets);
    std::vector<std::uint32_t> splitters(buckets, 0u);
    for (std::uint32_t j = 1; j < buckets; ++j) splitters[j] = 10 * (j / 2) + 10;  // pairs tie
    auto splitter = [&](std::uint32_t j) { return splitters[j]; };
    for (std::uint32_t key : {0u, 9u, 10u, 11u, 19u, 20u, 25u, 200u, 399u, 0xffffffffu}) {
      const auto expected = static_cast<std::uint32_t>(
          std::upper_bound(splitters.begin() + 1, splitters.end(), key) - splitters.begin() - 1);
      for (std::uint32_t guess = 0; guess < buckets + 3; ++guess) {
        ASSERT_EQ(partition_bucket_of(key, guess, buckets, splitter), expected)
            << "key " << key << " guess " << guess;
      }
    }
  }
}

}  // namespace
}  // namespace particles::cuda
