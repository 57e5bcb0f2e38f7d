// The library entered through Sorter::sort(SortRequest): every sorter refuses the options its
// traits do not honour, before any work; and the frame's radix requests (final target, key
// floor, index values, enable word) write the same order as the radix engine called as the
// pipeline called it before the request existed (shortcut never planned), which is
// std::stable_sort's.
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
#include "cuda/sort/radix/radix_engine.hpp"
#include "cuda/sort/sorter.hpp"
#include "sort_test_device.hpp"
#include "tests/gpu/device_copies.hpp"

namespace particles::cuda {
namespace {

constexpr Algorithm kSorters[] = {Algorithm::radix, Algorithm::oddeven, Algorithm::quicksort,
                                  Algorithm::cub};

// What each sorter is documented to honour; the test fails when a sorter's traits change
// without this table.
SorterTraits expected_traits(Algorithm a) {
  switch (a) {
    case Algorithm::radix:
      return {.enable = true, .final_values = true, .key_floor = true, .values_are_indices = true};
    case Algorithm::oddeven:
      return {.enable = true};
    default:
      return {};
  }
}

TEST(SortRequestGpu, small_EverySorterRefusesWhatItDoesNotHonour) {
  SKIP_WITHOUT_DEVICE();
  // Refused requests enqueue nothing, so the words are never read.
  std::int32_t word = 1;
  std::uint32_t floor_word = 0;
  std::uint32_t* target = nullptr;
  for (Algorithm a : kSorters) {
    auto sorter = make_sorter(a, 64);
    const SorterTraits t = sorter->traits();
    const SorterTraits want = expected_traits(a);
    EXPECT_EQ(t.enable, want.enable) << to_string(a);
    EXPECT_EQ(t.final_values, want.final_values) << to_string(a);
    EXPECT_EQ(t.key_floor, want.key_floor) << to_string(a);
    EXPECT_EQ(t.values_are_indices, want.values_are_indices) << to_string(a);
    const SortRequest base{.n = 16, .begin_bit = 0, .end_bit = 32};
    auto with = [&](auto set) {
      SortRequest r = base;
      set(r);
      return r;
    };
    const std::pair<bool, SortRequest> asks[] = {
        {t.enable, with([&](SortRequest& r) { r.enable = &word; })},
        {t.final_values, with([&](SortRequest& r) { r.final_values = &target; })},
        {t.key_floor, with([&](SortRequest& r) { r.key_floor = &floor_word; })},
        {t.values_are_indices, with([&](SortRequest& r) { r.values_are_indices = true; })},
    };
    for (const auto& [honoured, request] : asks) {
      if (!honoured) EXPECT_THROW(sorter->sort(request, nullptr), std::invalid_argument);
    }
    EXPECT_THROW(sorter->sort({.n = 65}, nullptr), std::invalid_argument) << to_string(a);
  }
}

// A frame's depth keys: a narrow range above a shared top, as exact float keys are.
std::vector<std::uint32_t> depth_like_keys(std::size_t n, int bits, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::uint32_t> keys(n);
  const std::uint32_t base = bits == 32 ? 0x3f000000u : 0u;
  const std::uint32_t span = bits == 32 ? (1u << 22) : (1u << (bits - 1));
  for (auto& k : keys) k = base + rng() % span + (bits == 32 ? 0u : (1u << (bits - 2)));
  return keys;
}

struct FrameCase {
  std::size_t n;
  int bits;
  bool key_floor;
  bool values_are_indices;
  std::string name() const {
    return std::to_string(n) + " pairs, " + std::to_string(bits) + " bits" +
           (key_floor ? ", floor" : "") + (values_are_indices ? ", indices" : "");
  }
};

// The draw order one sort writes to its final target. `sort` gets the device arrays and the
// request's option words.
template <typename Sort>
std::vector<std::uint32_t> target_after(const std::vector<std::uint32_t>& keys, const FrameCase& c,
                                        Sort&& sort) {
  const std::size_t n = keys.size();
  auto d_keys = test::to_device(keys);
  std::vector<std::uint32_t> values(n);
  if (c.values_are_indices) {
    std::fill(values.begin(), values.end(), 0xdeadbeefu);  // must not be read
  } else {
    std::iota(values.begin(), values.end(), 0u);
  }
  auto d_values = test::to_device(values);
  DeviceBuffer<std::uint32_t> d_target(n);
  CUDA_CHECK(cudaMemset(d_target.data(), 0xff, d_target.size_bytes()));
  std::uint32_t* target_address = d_target.data();
  auto d_target_word = test::to_device(std::vector<std::uint32_t*>{target_address});
  auto d_floor =
      test::to_device(std::vector<std::uint32_t>{*std::min_element(keys.begin(), keys.end())});
  sort(d_keys.data(), d_values.data(), d_target_word.data(),
       c.key_floor ? d_floor.data() : nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  return test::to_host(d_target.data(), n);
}

TEST(SortRequestGpu, mid_RadixFinalTargetWritesTheEnginesOrder) {
  SKIP_WITHOUT_DEVICE();
  constexpr std::size_t kCapacity = std::size_t{1} << 18;
  auto sorter = make_sorter(Algorithm::radix, kCapacity);
  RadixSortEngine engine(kCapacity);
  engine.set_shortcut(RadixShortcut::never);  // the pipeline's engine before SortRequest
  unsigned seed = 1;
  for (std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{70001}, kCapacity}) {
    for (int bits : {32, 24, 16}) {
      for (bool floor : {false, true}) {
        for (bool indices : {false, true}) {
          const FrameCase c{n, bits, floor, indices};
          const auto keys = depth_like_keys(n, bits, seed++);
          const auto before = target_after(keys, c, [&](auto k, auto v, auto target, auto fl) {
            engine.sort(k, v, n, 0, bits, nullptr,
                        {.final_values = target,
                         .key_floor = fl,
                         .values_are_indices = indices,
                         .keys_needed = false});
          });
          const auto now = target_after(keys, c, [&](auto k, auto v, auto target, auto fl) {
            sorter->sort({.keys = k,
                          .values = v,
                          .n = n,
                          .begin_bit = 0,
                          .end_bit = bits,
                          .final_values = target,
                          .key_floor = fl,
                          .values_are_indices = indices,
                          .keys_needed = false,
                          .top_digit_crowded = true},
                         nullptr);
          });
          std::vector<std::uint32_t> order(n);
          std::iota(order.begin(), order.end(), 0u);
          std::stable_sort(order.begin(), order.end(),
                           [&](std::uint32_t x, std::uint32_t y) { return keys[x] < keys[y]; });
          EXPECT_EQ(now, before) << c.name();
          EXPECT_EQ(now, order) << c.name();
        }
      }
    }
  }
}

// Auto's radix request: enabled, it sorts in place as the plain sort does; disabled, nothing
// moves and the target keeps what it held.
TEST(SortRequestGpu, mid_RadixEnableWordTurnsTheSortOff) {
  SKIP_WITHOUT_DEVICE();
  constexpr std::size_t n = std::size_t{1} << 17;
  auto sorter = make_sorter(Algorithm::radix, n);
  const auto keys = depth_like_keys(n, 32, 7);
  std::vector<std::uint32_t> values(n);
  std::iota(values.begin(), values.end(), 0u);
  std::vector<std::uint32_t> order = values;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t x, std::uint32_t y) { return keys[x] < keys[y]; });
  for (std::int32_t on : {0, 1}) {
    auto d_keys = test::to_device(keys);
    auto d_values = test::to_device(values);
    auto d_enable = test::to_device(std::vector<std::int32_t>{on});
    sorter->sort({.keys = d_keys.data(),
                  .values = d_values.data(),
                  .n = n,
                  .begin_bit = 0,
                  .end_bit = 32,
                  .enable = d_enable.data(),
                  .top_digit_crowded = true},
                 nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_EQ(test::to_host(d_values.data(), n), on != 0 ? order : values) << on;
  }
}

}  // namespace
}  // namespace particles::cuda
