#pragma once
// The CPU backend's frame-to-frame sort (the `auto` algorithm): it starts from last frame's draw
// order, as the CUDA backend's auto path does. An order still sorted is kept; one with few
// descents is finished by insertion; any other goes to the radix sort. Every path gives the order
// std::stable_sort gives from last frame's order, bit for bit: insertion moves never pass an
// equal key, so an insertion sort abandoned part-way hands the radix sort an input whose ties
// are still in their incoming order.
#include <cstdint>
#include <span>

#include "core/cpu_radix_sort.hpp"

namespace particles {

enum class FrameSortPath { already_sorted, insertion, radix };

struct FrameSortResult {
  FrameSortPath path = FrameSortPath::radix;
  std::uint64_t descents = 0;  // adjacent pairs of the incoming order out of key order
};

// An order with at most n / kInsertionDescentsDivisor descents is tried by insertion, which gives
// up after kInsertionMovesPerPair * n element moves (the cost of about one radix pass).
inline constexpr std::uint64_t kInsertionDescentsDivisor = 64;
inline constexpr std::uint64_t kInsertionMovesPerPair = 4;

// Reorders `order` (last frame's order) stably by keys[order[i]], ascending. threads 0 takes
// parallel_threads().
FrameSortResult cpu_sort_from_last_order(std::span<const std::uint32_t> keys,
                                         std::span<std::uint32_t> order, SortScratch& scratch,
                                         unsigned threads = 0);

}  // namespace particles
