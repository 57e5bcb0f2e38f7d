// The radix sort's pass route on the device (cuda/sort/radix/radix_pass_route.hpp): passes whose
// digit every key shares are skipped, with and without a key floor, and the result still lands
// where the caller wants it: keys and values in place, or the values in a target with the keys in
// place or left in scratch (keys_needed = false). Every case is compared with std::stable_sort, and
// the number of passes that ran with the route the CPU tests expect.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda/common/check.hpp"
#include "cuda/common/device_buffer.hpp"
#include "cuda/sort/policy.hpp"
#include "cuda/sort/radix/radix_engine.hpp"
#include "cuda/sort/sorter.hpp"
#include "sort_test_device.hpp"

namespace particles::cuda {
namespace {

// n keys base + (random below span) * step: a narrow range above base, with the low digit shared
// when step is a multiple of 256.
std::vector<std::uint32_t> spread_keys(std::size_t n, std::uint32_t base, std::uint32_t span,
                                       std::uint32_t step, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::uint32_t> keys(n);
  for (auto& k : keys) k = base + (span > 1 ? rng() % span : 0u) * step;
  return keys;
}

enum class Target { in_place, values_to_target, values_to_target_keys_dropped };

struct Placement {
  Target target;
  const char* name;
};
constexpr Placement kPlacements[] = {
    {Target::in_place, "in place"},
    {Target::values_to_target, "values to target"},
    {Target::values_to_target_keys_dropped, "values to target, keys dropped"},
};

class RadixRouteFixture : public ::testing::Test {
 protected:
  static constexpr std::size_t kCapacity = (std::size_t{1} << 18) + 77;

  // Sorts keys (values: their indices) by bits [0, end_bit) with the given floor (none when
  // use_floor is false) and placement; checks the result and returns how many passes ran.
  // make_values: the values are not uploaded (the buffer holds garbage) and the sort is told
  // they are the indices.
  int sort_and_check(const std::vector<std::uint32_t>& keys, int end_bit, bool use_floor,
                     std::uint32_t floor, Target target, const std::string& what,
                     bool make_values = false) {
    const std::size_t n = keys.size();
    std::vector<std::uint32_t> values(n), order(n);
    std::iota(values.begin(), values.end(), 0u);
    std::iota(order.begin(), order.end(), 0u);
    const std::uint32_t mask = end_bit >= 32 ? 0xffffffffu : (1u << end_bit) - 1u;
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) {
      return (keys[x] & mask) < (keys[y] & mask);
    });
    CUDA_CHECK(cudaMemcpy(buffers_->keys.data(), keys.data(), n * 4, cudaMemcpyHostToDevice));
    if (make_values)
      CUDA_CHECK(cudaMemset(buffers_->values.data(), 0xab, n * 4));
    else
      CUDA_CHECK(cudaMemcpy(buffers_->values.data(), values.data(), n * 4, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(buffers_->floor.data(), &floor, 4, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(buffers_->target.data(), 0xff, n * 4));

    RadixSortOptions options;
    options.skip_shared_digits = true;
    options.key_floor = use_floor ? buffers_->floor.data() : nullptr;
    if (target != Target::in_place) options.final_values = buffers_->target_at.data();
    options.keys_needed = target != Target::values_to_target_keys_dropped;
    options.values_are_indices = make_values;
    engine().sort(buffers_->keys.data(), buffers_->values.data(), n, 0, end_bit, nullptr, options);

    std::vector<std::uint32_t> got_keys(n), got_values(n);
    CUDA_CHECK(cudaMemcpy(got_keys.data(), buffers_->keys.data(), n * 4, cudaMemcpyDeviceToHost));
    CUDA_CHECK(
        cudaMemcpy(got_values.data(),
                   target == Target::in_place ? buffers_->values.data() : buffers_->target.data(),
                   n * 4, cudaMemcpyDeviceToHost));
    EXPECT_EQ(got_values, order) << what;
    if (target != Target::values_to_target_keys_dropped) {
      for (std::size_t i = 0; i < n; ++i) {
        if (got_keys[i] != keys[order[i]]) {
          ADD_FAILURE() << what << ": key at " << i;
          break;
        }
      }
    }
    return engine().last_run_passes();
  }

  // Made in SetUp, and only with a device: without one the tests skip.
  struct Buffers {
    RadixSortEngine engine{kCapacity};
    DeviceBuffer<std::uint32_t> keys{kCapacity}, values{kCapacity}, target{kCapacity};
    DeviceBuffer<std::uint32_t> floor{1};
    DeviceBuffer<std::uint32_t*> target_at{1};
  };
  std::unique_ptr<Buffers> buffers_;

  void SetUp() override {
    if (!testing::device_present()) return;
    buffers_ = std::make_unique<Buffers>();
    std::uint32_t* t = buffers_->target.data();
    CUDA_CHECK(cudaMemcpy(buffers_->target_at.data(), &t, sizeof t, cudaMemcpyHostToDevice));
  }
  RadixSortEngine& engine() { return buffers_->engine; }
};

// Keys like a frame's depth keys: a range narrower than 2^24 high in the 32-bit space. Above a
// floor the top digit is shared and its pass skipped: 3 passes when the keys may be dropped, 4
// (one skipped pass run after all) when the result must come back in place.
TEST_F(RadixRouteFixture, mid_FloorSkipsTheSharedTopDigit) {
  SKIP_WITHOUT_DEVICE();
  for (std::size_t n : {std::size_t{1000}, std::size_t{40000}, kCapacity}) {
    const std::uint32_t base = 0xc1a37e55u;  // the top digit would vary without the floor
    const auto keys = spread_keys(n, base, 0x00b00000u, 1, static_cast<unsigned>(n));
    const std::uint32_t lowest = *std::min_element(keys.begin(), keys.end());
    for (std::uint32_t floor : {lowest, lowest - 12345u}) {
      for (const Placement& p : kPlacements) {
        const std::string what =
            "n=" + std::to_string(n) + " floor " + std::to_string(floor) + " " + p.name;
        const int runs = sort_and_check(keys, 32, true, floor, p.target, what);
        EXPECT_EQ(runs, p.target == Target::values_to_target_keys_dropped ? 3 : 4) << what;
      }
    }
    // Without the floor the top digit takes two values: every pass runs.
    EXPECT_EQ(sort_and_check(keys, 32, false, 0, Target::values_to_target_keys_dropped, "no floor"),
              4);
  }
}

// Shared digits without a floor: high digits of small keys, a low digit of multiples of 256, and
// two shared digits; a 24-bit sort whose odd pass count needs the copy back.
TEST_F(RadixRouteFixture, mid_SharedDigitsAreSkippedWithoutAFloor) {
  SKIP_WITHOUT_DEVICE();
  struct Case {
    const char* name;
    std::uint32_t base, span, step;
    int end_bit;
    int runs_dropped, runs_in_place;  // passes run with keys dropped / result in place
  };
  const Case cases[] = {
      {"top digit shared", 0x3e000000u, 1u << 24, 1, 32, 3, 4},
      {"low digit shared", 0u, 1u << 24, 256, 32, 3, 4},
      {"three digits shared", 0x77000000u, 1u << 8, 1u << 16, 32, 1, 2},
      {"24 bits, all vary", 0u, 1u << 24, 1, 24, 3, 3},
      {"24 bits, middle shared", 0x00110000u, 1u << 8, 1, 24, 1, 1},
  };
  for (const Case& c : cases) {
    const auto keys = spread_keys(50001, c.base, c.span, c.step, 7);
    for (const Placement& p : kPlacements) {
      const std::string what = std::string(c.name) + ", " + p.name;
      const int runs = sort_and_check(keys, c.end_bit, false, 0, p.target, what);
      EXPECT_EQ(runs, p.target == Target::values_to_target_keys_dropped ? c.runs_dropped
                                                                        : c.runs_in_place)
          << what;
    }
  }
}

// All keys equal: no pass has anything to order. In place nothing needs to run; values bound for
// a target still get there (the top pass runs as an identity, plus one to keep keys in place).
TEST_F(RadixRouteFixture, small_AllKeysEqual) {
  SKIP_WITHOUT_DEVICE();
  const std::vector<std::uint32_t> keys(7777, 0xdeadbeefu);
  EXPECT_EQ(sort_and_check(keys, 32, false, 0, Target::in_place, "in place"), 0);
  EXPECT_EQ(sort_and_check(keys, 32, false, 0, Target::values_to_target, "target"), 2);
  EXPECT_EQ(sort_and_check(keys, 32, true, 0xdeadbeefu, Target::values_to_target_keys_dropped,
                           "target, keys dropped, floor"),
            1);
  EXPECT_EQ(sort_and_check(keys, 24, false, 0, Target::values_to_target, "24 bits, target"), 1);
}

// A routed sort never takes the MSD-first shortcut, even forced; an unrouted one reports no route.
TEST_F(RadixRouteFixture, mid_RoutingTurnsTheShortcutOff) {
  SKIP_WITHOUT_DEVICE();
  engine().set_shortcut(RadixShortcut::always);
  const auto keys = spread_keys(60000, 0xbf012345u, 1u << 20, 1, 3);
  const std::uint32_t lowest = *std::min_element(keys.begin(), keys.end());
  for (const Placement& p : kPlacements) {
    const int runs =
        sort_and_check(keys, 32, true, lowest, p.target, std::string("floor, ") + p.name);
    EXPECT_EQ(runs, p.target == Target::values_to_target_keys_dropped ? 3 : 4) << p.name;
    EXPECT_EQ(engine().last_partition_pass(), -1) << p.name;
  }
  engine().sort(buffers_->keys.data(), buffers_->values.data(), keys.size(), 0, 32, nullptr);
  EXPECT_TRUE(engine().last_sort_took_shortcut());
  EXPECT_EQ(engine().last_run_passes(), -1);
  engine().set_shortcut(RadixShortcut::by_size);
}

// Index values made by the first pass (the pipeline's radix frame): the caller's value array
// holds garbage, and every placement still gets the stable order; all keys equal and a single
// pair still get their indices (a pass runs, or the lone index is written).
TEST_F(RadixRouteFixture, mid_FirstPassMakesIndexValues) {
  SKIP_WITHOUT_DEVICE();
  for (std::size_t n : {std::size_t{1}, std::size_t{3000}, kCapacity}) {
    const auto keys = spread_keys(n, 0x40f00000u, 0x00c00000u, 1, static_cast<unsigned>(n));
    const std::uint32_t lowest = *std::min_element(keys.begin(), keys.end());
    for (const Placement& p : kPlacements) {
      const std::string what = "n=" + std::to_string(n) + " " + p.name;
      sort_and_check(keys, 32, true, lowest, p.target, what + ", floor", true);
      sort_and_check(keys, 32, false, 0, p.target, what + ", no floor", true);
      sort_and_check(keys, 24, false, 0, p.target, what + ", 24 bits", true);
    }
  }
  const std::vector<std::uint32_t> equal(5000, 77u);
  for (const Placement& p : kPlacements) {
    const int runs =
        sort_and_check(equal, 32, false, 0, p.target, std::string("all equal, ") + p.name, true);
    EXPECT_GE(runs, 1) << p.name;
  }
  RadixSortOptions options;
  options.values_are_indices = true;
  EXPECT_THROW(
      engine().sort(buffers_->keys.data(), buffers_->values.data(), 100, 8, 8, nullptr, options),
      std::invalid_argument);
}

// Window finish: the engine stops after the two top digits when they are even, leaving the pairs
// stably sorted by the top 16 bits, and the odd-even window sort (enabled by the same word)
// finishes exactly. Skewed top digits sort completely in the engine; top digits that are even
// one by one but correlated (top 16 bits d:d) make groups too long for the window, whose check
// then hands over to its exact kernel: every outcome is the stable order.
TEST_F(RadixRouteFixture, mid_WindowFinishIsExactWhicheverWayItGoes) {
  SKIP_WITHOUT_DEVICE();
  const std::size_t n = kCapacity;
  auto window = make_odd_even_sorter(n);
  DeviceBuffer<std::int32_t> finish(1);
  std::mt19937 rng(11);
  std::vector<std::uint32_t> random(n), skewed(n), correlated(n);
  for (std::size_t i = 0; i < n; ++i) {
    random[i] = rng();
    skewed[i] = 0x3e000000u | (rng() & 0x00ffffffu);
    const std::uint32_t d = rng() & 0xffu;
    correlated[i] = (d << 24) | (d << 16) | (rng() & 0xffffu);
  }
  struct Case {
    const char* name;
    const std::vector<std::uint32_t>* keys;
    int expected_finish;
  };
  for (const Case& c : {Case{"random", &random, 1}, Case{"skewed", &skewed, 0},
                        Case{"correlated", &correlated, 1}}) {
    const std::vector<std::uint32_t>& keys = *c.keys;
    std::vector<std::uint32_t> values(n), order(n), by_top(n);
    std::iota(values.begin(), values.end(), 0u);
    std::iota(order.begin(), order.end(), 0u);
    by_top = order;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t x, std::uint32_t y) { return keys[x] < keys[y]; });
    std::stable_sort(by_top.begin(), by_top.end(), [&](std::uint32_t x, std::uint32_t y) {
      return keys[x] >> 16 < keys[y] >> 16;
    });
    CUDA_CHECK(cudaMemcpy(buffers_->keys.data(), keys.data(), n * 4, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(buffers_->values.data(), values.data(), n * 4, cudaMemcpyHostToDevice));
    RadixSortOptions options;
    options.window_finish = finish.data();
    engine().sort(buffers_->keys.data(), buffers_->values.data(), n, 0, 32, nullptr, options);
    std::int32_t took = -1;
    CUDA_CHECK(cudaMemcpy(&took, finish.data(), sizeof took, cudaMemcpyDeviceToHost));
    EXPECT_EQ(took, c.expected_finish) << c.name;
    std::vector<std::uint32_t> got(n);
    CUDA_CHECK(cudaMemcpy(got.data(), buffers_->values.data(), n * 4, cudaMemcpyDeviceToHost));
    EXPECT_EQ(got, took == 1 ? by_top : order) << c.name << ": after the engine";
    window->sort({.keys = buffers_->keys.data(),
                  .values = buffers_->values.data(),
                  .n = n,
                  .begin_bit = 0,
                  .end_bit = 32,
                  .enable = finish.data()},
                 nullptr);
    std::vector<std::uint32_t> got_keys(n);
    CUDA_CHECK(cudaMemcpy(got.data(), buffers_->values.data(), n * 4, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(got_keys.data(), buffers_->keys.data(), n * 4, cudaMemcpyDeviceToHost));
    EXPECT_EQ(got, order) << c.name << ": finished";
    bool keys_ok = true;
    for (std::size_t i = 0; i < n && keys_ok; ++i) keys_ok = got_keys[i] == keys[order[i]];
    EXPECT_TRUE(keys_ok) << c.name;
  }
  RadixSortOptions partial;
  partial.window_finish = finish.data();
  EXPECT_THROW(
      engine().sort(buffers_->keys.data(), buffers_->values.data(), 100, 0, 24, nullptr, partial),
      std::invalid_argument);
}

// The radix Sorter takes the window finish from kRadixWindowMinPairs: random and correlated
// 32-bit keys at that size, and 24-bit keys (no window finish), all exact.
TEST(RadixSorterWindowFinish, large_ExactAtTheThreshold) {
  SKIP_WITHOUT_DEVICE();
  const std::size_t n = kRadixWindowMinPairs + 3;
  auto sorter = make_sorter(Algorithm::radix, n);
  DeviceBuffer<std::uint32_t> d_keys(n), d_values(n);
  std::mt19937 rng(5);
  for (int variant = 0; variant < 3; ++variant) {
    std::vector<std::uint32_t> keys(n), values(n), order(n);
    for (auto& k : keys) {
      const std::uint32_t d = rng() & 0xffu;
      k = variant == 1 ? (d << 24) | (d << 16) | (rng() & 0xffffu) : rng();
    }
    const int end_bit = variant == 2 ? 24 : 32;
    const std::uint32_t mask = end_bit == 32 ? 0xffffffffu : (1u << end_bit) - 1u;
    std::iota(values.begin(), values.end(), 0u);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) {
      return (keys[x] & mask) < (keys[y] & mask);
    });
    CUDA_CHECK(cudaMemcpy(d_keys.data(), keys.data(), n * 4, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_values.data(), values.data(), n * 4, cudaMemcpyHostToDevice));
    sorter->sort(d_keys.data(), d_values.data(), n, 0, end_bit, nullptr);
    std::vector<std::uint32_t> got(n);
    CUDA_CHECK(cudaMemcpy(got.data(), d_values.data(), n * 4, cudaMemcpyDeviceToHost));
    EXPECT_EQ(got, order) << "variant " << variant;
  }
}

// A floor needs begin_bit == 0; anything else is refused before any launch.
TEST_F(RadixRouteFixture, small_FloorWithAPartialLowRangeIsRefused) {
  SKIP_WITHOUT_DEVICE();
  RadixSortOptions options;
  options.key_floor = buffers_->floor.data();
  EXPECT_THROW(
      engine().sort(buffers_->keys.data(), buffers_->values.data(), 100, 8, 32, nullptr, options),
      std::invalid_argument);
}

}  // namespace
}  // namespace particles::cuda
