#pragma once
// The CPU backend's quicksort: a stable three-way quicksort of (key, draw index) pairs, the
// algorithm the CUDA backend's `quicksort` runs (there a warp-ballot sample sort), on one thread.
// Stable, so it gives the order std::stable_sort gives and the other sorts' tests compare with.
#include <cstddef>
#include <cstdint>
#include <span>

#include "core/cpu_radix_sort.hpp"

namespace particles {

// Segments this short are finished by insertion: below it a partition's two passes and its
// copy back cost more than the moves they save (the textbook cut-off; not tuned).
inline constexpr std::size_t kQuicksortInsertionBelow = 32;

// Reorders `order` stably by keys[order[i]], ascending. Each segment is split around the lower
// median of 32 evenly spaced keys into < pivot, == pivot and > pivot, each part keeping its input
// order: the equal part is done, and runs of equal keys (quantized keys) cost one pass.
void cpu_quicksort_order(std::span<const std::uint32_t> keys, std::span<std::uint32_t> order,
                         SortScratch& scratch);

}  // namespace particles
