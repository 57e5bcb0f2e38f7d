// The check every sorter runs on a SortRequest before it enqueues anything
// (cuda/sort/sort_request.hpp): capacity, bit range, and each option refused by a sorter whose
// traits do not honour it, with a message naming the sorter and the option. Pure host code: the
// pointers are never read.
#include "cuda/sort/sort_request.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace particles::cuda {
namespace {

constexpr std::size_t kCapacity = 1000;

// The message of the refusal, empty when the request passes.
std::string refusal(const SortRequest& request, const SorterTraits& traits) {
  try {
    check_sort_request(request, kCapacity, traits, "test");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return {};
}

constexpr SorterTraits kEverything{
    .enable = true, .final_values = true, .key_floor = true, .values_are_indices = true};

TEST(SortRequest, PlainRequestPassesWithNoTraits) {
  EXPECT_EQ(refusal({.n = kCapacity, .begin_bit = 0, .end_bit = 32}, {}), "");
  EXPECT_EQ(refusal({.n = 0, .begin_bit = 8, .end_bit = 8}, {}), "");
}

TEST(SortRequest, CapacityAndBitRangeAreChecked) {
  EXPECT_NE(refusal({.n = kCapacity + 1}, kEverything).find("exceeds capacity 1000"),
            std::string::npos);
  EXPECT_NE(refusal({.n = 4, .begin_bit = 8, .end_bit = 4}, kEverything).find("bad key bit range"),
            std::string::npos);
  EXPECT_NE(refusal({.n = 4, .begin_bit = -1, .end_bit = 4}, {}), "");
  EXPECT_NE(refusal({.n = 4, .begin_bit = 0, .end_bit = 33}, {}), "");
}

// Each option alone: refused by a sorter without its trait, naming it; accepted with it.
TEST(SortRequest, EachOptionNeedsItsTrait) {
  std::int32_t word = 1;
  std::uint32_t floor_word = 0;
  std::uint32_t* target = nullptr;
  struct Option {
    const char* name;
    SortRequest request;
    SorterTraits honours;
  };
  const Option options[] = {
      {"enable", {.n = 16, .enable = &word}, {.enable = true}},
      {"final_values", {.n = 16, .final_values = &target}, {.final_values = true}},
      {"key_floor", {.n = 16, .key_floor = &floor_word}, {.key_floor = true}},
      {"values_are_indices", {.n = 16, .values_are_indices = true}, {.values_are_indices = true}},
  };
  for (const Option& o : options) {
    const std::string message = refusal(o.request, {});
    EXPECT_NE(message.find(std::string("SortRequest::") + o.name), std::string::npos) << message;
    EXPECT_EQ(message.rfind("test sort: ", 0), 0u) << message;  // names the sorter first
    EXPECT_EQ(refusal(o.request, o.honours), "") << o.name;
    EXPECT_EQ(refusal(o.request, kEverything), "") << o.name;
  }
  // A trait for one option does not admit another.
  EXPECT_NE(refusal({.n = 16, .enable = &word, .final_values = &target}, {.enable = true}), "");
}

// keys_needed and top_digit_crowded are permissions and facts, not work: every sorter takes them.
TEST(SortRequest, PermissionsAndHintsPassEverywhere) {
  EXPECT_EQ(refusal({.n = 16, .keys_needed = false, .top_digit_crowded = true}, {}), "");
}

// The frame's requests pass with the radix sorter's traits (everything) and the auto path's
// odd-even request with the odd-even sorter's (enable alone).
TEST(SortRequest, FrameRequestsPassTheirSorters) {
  std::int32_t word = 1;
  std::uint32_t floor_word = 0;
  std::uint32_t* target = nullptr;
  EXPECT_EQ(refusal({.n = kCapacity,
                     .end_bit = 32,
                     .final_values = &target,
                     .key_floor = &floor_word,
                     .values_are_indices = true,
                     .keys_needed = false,
                     .top_digit_crowded = true},
                    kEverything),
            "");
  EXPECT_EQ(refusal({.n = kCapacity, .end_bit = 16, .enable = &word}, {.enable = true}), "");
}

}  // namespace
}  // namespace particles::cuda
