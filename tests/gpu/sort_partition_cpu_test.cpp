// The splitter partition sort's CPU twin: when it sorts, the result is the stable sort; when the
// splitters do not fit (keys out of a tile's reach, a bucket over a block's capacity), it says so
// and leaves the input as it was.
#include <gtest/gtest.h>

#include "cuda/sort/cpu_reference.hpp"
#include "cuda/sort/splitter_partition_cpu.hpp"
#include "tests/gpu/sort_partition_data.hpp"

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
  for (const std::uint32_t n : {1u, 2u, 2047u, 2048u, 2049u, 100000u}) {
    SCOPED_TRACE(n);
    expect_sorted_stably(testing::moved_keys(n, 1u << 30, 0, 0, 1, 1));  // unmoved
    expect_sorted_stably(testing::moved_keys(n, 1u << 30, (1u << 30) / n * 3000, 0, 1, 2));
    expect_sorted_stably(testing::moved_keys(n, 1u << 30, 1000, 1 << 20, 1, 3));  // drift
    expect_sorted_stably(testing::moved_keys(n, 1u << 20, 50, 0, 7, 4));          // ties
  }
}

TEST(SplitterPartitionCpu, RefusesWhatTheSplittersCannotCut) {
  const std::uint32_t n = 100000;
  // Keys moved by about 40K places: beyond a tile's reach of 15 buckets (30K places).
  expect_refused(testing::moved_keys(n, 1u << 30, (1u << 30) / n * 40000, 0, 1, 5));
  // Every key shifted past all splitters: the last bucket would take them all.
  expect_refused(testing::moved_keys(n, 1u << 30, 0, std::int64_t{1} << 31, 1, 6));
  // 5000 equal keys: one bucket over a block's capacity.
  expect_refused(testing::moved_keys(n, 1u << 30, 0, 0, 5000, 7));
  // Splitters of unsorted keys are no splitters; in reverse order nothing is within reach.
  PartitionCase c = testing::moved_keys(n, 1u << 30, 0, 0, 1, 8);
  std::reverse(c.keys.begin(), c.keys.end());
  expect_refused(c);
}

TEST(SplitterPartitionCpu, DigitIsTheBucketRelativeToTheTile) {
  // Three buckets split at 100 and 200; tile 1 sees bucket 0 as digit reach - 1.
  const std::uint32_t splitters[] = {0, 100, 200};
  auto splitter = [&](std::uint32_t j) { return splitters[j]; };
  EXPECT_EQ(partition_digit(99, 1, 3, splitter), kPartitionReach - 1);
  EXPECT_EQ(partition_digit(100, 1, 3, splitter), kPartitionReach);
  EXPECT_EQ(partition_digit(200, 1, 3, splitter), kPartitionReach + 1);
  EXPECT_EQ(partition_digit(0xffffffffu, 0, 3, splitter), kPartitionReach + 2);
  // Far tiles: bucket 0 is out of reach of tile 20, and the last bucket of tile 0 when it is
  // more than reach buckets away.
  std::vector<std::uint32_t> many(40);
  for (std::uint32_t j = 0; j < 40; ++j) many[j] = j * 10;
  auto far = [&](std::uint32_t j) { return many[j]; };
  EXPECT_EQ(partition_digit(5, 20, 40, far), -1);
  EXPECT_EQ(partition_digit(395, 0, 40, far), -1);
  EXPECT_EQ(partition_digit(395, 39, 40, far), kPartitionReach);
}

}  // namespace
}  // namespace particles::cuda
