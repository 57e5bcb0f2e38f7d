// The radix sort's host-side plan (cuda/sort/radix_plan.hpp), checked without a device: the tile
// policy and the MSD-first shortcut's block chosen by size, forced choices, and out-of-range
// indices refused.
#include <gtest/gtest.h>

#include <cstddef>
#include <iterator>
#include <stdexcept>

#include "cuda/sort/radix_plan.hpp"

namespace particles::cuda {
namespace {

constexpr std::size_t pow2(int k) {
  return std::size_t{1} << k;
}

TEST(RadixPlan, TilePolicyFollowsTheSizeRules) {
  EXPECT_EQ(radix_tile_policy_for(0, -1), 0u);
  EXPECT_EQ(radix_tile_policy_for(pow2(18), -1), 0u);
  EXPECT_EQ(radix_tile_policy_for(pow2(19), -1), 1u);
  EXPECT_EQ(radix_tile_policy_for(pow2(21), -1), 6u);
  EXPECT_EQ(radix_tile_policy_for(pow2(24), -1), 5u);
  EXPECT_EQ(radix_tile_policy_for(pow2(24), 3), 3u);  // forced
}

TEST(RadixPlan, ShortcutBlockBySize) {
  const auto plan = [](std::size_t n, int passes) {
    return radix_bucket_policy_for(n, passes, RadixShortcut::by_size, -1);
  };
  EXPECT_EQ(plan(pow2(15), 4), -1);  // below kRadixBucketMinPairs
  EXPECT_EQ(plan(pow2(16), 4), 0);
  EXPECT_EQ(plan(pow2(17), 4), 0);
  EXPECT_EQ(plan(pow2(20), 4), 0);  // buckets of ~4096 in a 6144-pair block
  EXPECT_EQ(plan(pow2(21), 4), 1);
  EXPECT_EQ(plan(pow2(22), 4), 1);   // ~16384 in a 20480-pair block
  EXPECT_EQ(plan(pow2(23), 4), -1);  // no block holds ~32768
  EXPECT_EQ(plan(pow2(20), 2), 0);   // 2 passes: the smallest block only
  EXPECT_EQ(plan(pow2(21), 2), -1);
  EXPECT_EQ(plan(pow2(20), 1), -1);  // one pass: nothing to shortcut
}

TEST(RadixPlan, ShortcutNeverAlwaysAndForced) {
  EXPECT_EQ(radix_bucket_policy_for(pow2(20), 4, RadixShortcut::never, -1), -1);
  EXPECT_EQ(radix_bucket_policy_for(pow2(20), 4, RadixShortcut::never, 1), -1);
  EXPECT_EQ(radix_bucket_policy_for(100, 4, RadixShortcut::always, -1), 0);
  const int largest = static_cast<int>(std::size(kRadixBucketPolicies)) - 1;
  EXPECT_EQ(radix_bucket_policy_for(pow2(24), 4, RadixShortcut::always, -1), largest);
  EXPECT_EQ(radix_bucket_policy_for(pow2(24), 4, RadixShortcut::by_size, 1), 1);  // forced
}

TEST(RadixPlan, OutOfRangeIndicesAreRefused) {
  EXPECT_THROW(radix_tile_policy_for(pow2(20), static_cast<int>(std::size(kRadixPolicies))),
               std::invalid_argument);
  EXPECT_THROW(radix_bucket_policy_for(pow2(20), 4, RadixShortcut::by_size,
                                       static_cast<int>(std::size(kRadixBucketPolicies))),
               std::invalid_argument);
}

}  // namespace
}  // namespace particles::cuda
