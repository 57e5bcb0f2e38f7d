#pragma once
// The CPU backend's frame-to-frame sort (the `auto` algorithm): it starts from last frame's draw
// order and takes the path the CUDA backend's does, by the same rule (choose_auto_path,
// core/auto_policy.hpp, over the same two probes). An order still sorted is kept; one with no
// element far from its place, where the GPU runs its odd-even merge-split, is finished by
// insertion, the CPU's local sort (bounded: past a budget of moves it hands over); any other goes
// to the radix sort. Every path gives the order
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
  std::uint64_t descents = 0;          // adjacent pairs of the incoming order out of key order
  std::uint64_t strided_descents = 0;  // pairs kAutoProbeStride apart out of key order
};

// Insertion gives up after kInsertionMovesPerPair * n element moves (the cost of about one radix
// pass), and the radix sort finishes from where it stopped.
inline constexpr std::uint64_t kInsertionMovesPerPair = 4;

// Reorders `order` (last frame's order) stably by keys[order[i]], ascending. threads 0 takes
// parallel_threads().
FrameSortResult cpu_sort_from_last_order(std::span<const std::uint32_t> keys,
                                         std::span<std::uint32_t> order, SortScratch& scratch,
                                         unsigned threads = 0);

}  // namespace particles
