// The radix sort's plan, checked without a device: the tile policy and the MSD-first shortcut's
// block chosen by size, forced choices, and out-of-range indices refused
// (cuda/sort/radix/radix_plan.hpp); and the route of the passes that the histogram kernel plans on
// the device from the digit counts (cuda/sort/radix/radix_pass_route.hpp); and the options a sort
// refuses (cuda/sort/radix/radix_options.hpp).
#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda/sort/radix/radix_options.hpp"
#include "cuda/sort/radix/radix_pass_route.hpp"
#include "cuda/sort/radix/radix_plan.hpp"

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

// The run passes, in order, of a route.
std::vector<int> run_passes(const RadixPassRoute& r) {
  std::vector<int> passes;
  for (int q = 0; q < r.runs; ++q)
    for (int p = 0; p < kRadixMaxPasses; ++p)
      if (r.run_index[p] == q) passes.push_back(p);
  return passes;
}

struct RouteCase {
  std::array<std::uint32_t, kRadixMaxPasses> used;
  int passes;
  bool parity_matters;
  bool values_to_write;
  std::vector<int> expected_runs;
  bool copy_back;
};

TEST(RadixRoute, SkipsDigitsSharedByEveryKeyAndKeepsTheResultWhereItIsWanted) {
  const RouteCase cases[] = {
      // Every digit varies: every pass, even count, nothing to copy.
      {{256, 256, 256, 256}, 4, true, false, {0, 1, 2, 3}, false},
      // Depth keys above their floor: the top digit is shared. Wanted in place, a skipped pass
      // runs after all (the lowest) to keep the count even; with only a target, 3 suffice.
      {{256, 256, 16, 1}, 4, true, false, {0, 1, 2, 3}, false},
      {{256, 256, 16, 1}, 4, true, true, {0, 1, 2, 3}, false},
      {{256, 256, 16, 1}, 4, false, true, {0, 1, 2}, false},
      // Two shared digits: two passes either way.
      {{256, 256, 1, 1}, 4, true, false, {0, 1}, false},
      {{256, 256, 1, 1}, 4, false, true, {0, 1}, false},
      // A shared low digit (keys multiples of 256) is skipped as well.
      {{1, 256, 256, 256}, 4, false, true, {1, 2, 3}, false},
      {{1, 256, 256, 256}, 4, true, false, {0, 1, 2, 3}, false},
      // An odd pass count (24 bits): the copy back brings an odd run count home.
      {{256, 256, 256, 0}, 3, true, false, {0, 1, 2}, true},
      {{256, 256, 256, 0}, 3, false, true, {0, 1, 2}, false},
      {{256, 1, 256, 0}, 3, true, false, {0, 2}, false},
      // All keys equal: nothing runs, unless the values must reach a target (the top pass, an
      // identity), and then one more when the keys are wanted in place and the count is even.
      {{1, 1, 1, 1}, 4, true, false, {}, false},
      {{1, 1, 1, 1}, 4, false, true, {3}, false},
      {{1, 1, 1, 1}, 4, true, true, {0, 3}, false},
      {{1, 1, 1, 0}, 3, true, true, {2}, true},
      {{1, 0, 0, 0}, 1, true, false, {}, false},
      {{1, 0, 0, 0}, 1, false, true, {0}, false},
  };
  for (const RouteCase& c : cases) {
    const RadixPassRoute r =
        plan_radix_route(c.used.data(), c.passes, c.parity_matters, c.values_to_write);
    const std::string what = "used " + std::to_string(c.used[0]) + "," + std::to_string(c.used[1]) +
                             "," + std::to_string(c.used[2]) + "," + std::to_string(c.used[3]) +
                             " passes " + std::to_string(c.passes) +
                             (c.parity_matters ? " in place" : "") +
                             (c.values_to_write ? " target" : "");
    EXPECT_EQ(run_passes(r), c.expected_runs) << what;
    EXPECT_EQ(r.runs, static_cast<int>(c.expected_runs.size())) << what;
    EXPECT_EQ(r.copy_back != 0, c.copy_back) << what;
    EXPECT_EQ(r.final_pass, c.expected_runs.empty() ? -1 : c.expected_runs.back()) << what;
    for (int p = c.passes; p < kRadixMaxPasses; ++p) EXPECT_EQ(r.run_index[p], -1) << what;
  }
}

TEST(RadixRoute, WindowFinishOnlyForEvenTopDigitsAndShortGroups) {
  const std::uint64_t n = std::uint64_t{1} << 24;  // mean bucket 65536, mean group 256
  EXPECT_TRUE(window_finish_fits(66000, 66000, n, 1.5, 256));
  EXPECT_TRUE(window_finish_fits(98304, 98304, n, 1.5, 256));         // exactly 1.5x the mean
  EXPECT_FALSE(window_finish_fits(98305, 66000, n, 1.5, 256));        // top digit skewed
  EXPECT_FALSE(window_finish_fits(66000, 200000, n, 1.5, 256));       // second digit skewed
  EXPECT_FALSE(window_finish_fits(n, 66000, n, 1.5, 256));            // top digit shared
  EXPECT_FALSE(window_finish_fits(131072, 131072, 2 * n, 1.5, 256));  // mean group 512
}

// Every refusal of RadixSortOptions, and the combinations the library itself uses (the radix
// Sorter's window finish, the pipeline's routed frame) accepted. The pointers are never read.
TEST(RadixOptions, RefusesWhatCannotGoTogether) {
  std::int32_t word = 0;
  std::uint32_t floor_word = 0;
  std::uint32_t* target = nullptr;
  constexpr std::size_t n = 1000;
  auto refused = [](const RadixSortOptions& o, std::size_t size, int begin, int end) {
    try {
      check_radix_options(o, size, begin, end);
    } catch (const std::invalid_argument&) {
      return true;
    }
    return false;
  };
  // A key floor needs the keys from bit 0; index values need a bit range.
  EXPECT_TRUE(refused({.key_floor = &floor_word}, n, 4, 32));
  EXPECT_TRUE(refused({.key_floor = &floor_word}, 1, 4, 32));  // even with nothing to sort
  EXPECT_TRUE(refused({.values_are_indices = true}, n, 8, 8));
  EXPECT_FALSE(refused({.values_are_indices = true}, 1, 8, 8));  // one pair: its index is 0
  // A window finish: bits 0..32 only, with no final target and no routing of any kind.
  EXPECT_TRUE(refused({.window_finish = &word}, n, 0, 24));
  EXPECT_TRUE(refused({.window_finish = &word}, n, 8, 32));
  EXPECT_TRUE(refused({.final_values = &target, .window_finish = &word}, n, 0, 32));
  EXPECT_TRUE(refused({.skip_shared_digits = true, .window_finish = &word}, n, 0, 32));
  EXPECT_TRUE(refused({.key_floor = &floor_word, .window_finish = &word}, n, 0, 32));
  EXPECT_TRUE(refused({.values_are_indices = true, .window_finish = &word}, n, 0, 32));
  // An empty sort does no pass, so a window finish is not checked there.
  EXPECT_FALSE(refused({.final_values = &target, .window_finish = &word}, 1, 0, 32));
  // What the library uses.
  EXPECT_FALSE(refused({.window_finish = &word}, n, 0, 32));
  EXPECT_FALSE(refused({.final_values = &target,
                        .key_floor = &floor_word,
                        .values_are_indices = true,
                        .keys_needed = false},
                       n, 0, 32));
  EXPECT_FALSE(refused({.enable = &word, .final_values = &target}, n, 0, 16));
}

}  // namespace
}  // namespace particles::cuda
