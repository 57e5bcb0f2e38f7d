#pragma once
// Each sort algorithm a user can pick, on the CPU backend: its own CPU implementation, and what
// that is in words (the HUD, --help, the bench). Keys 1-4 must not time one sort four times.
#include <cstdint>
#include <span>
#include <string_view>

#include "core/algorithm.hpp"
#include "core/cpu_radix_sort.hpp"
#include "core/frame_types.hpp"

namespace particles {

// Sorts `order` stably by keys[order[i]] with `algorithm`'s CPU implementation and returns the
// path that names what ran: radix (cpu_radix_sort.hpp, over all cores), oddeven (the GPU
// kernels' CPU twin: the window path, else sorted tiles and merge-splits), quicksort
// (cpu_quicksort.hpp) or library (std::stable_sort, in place of CUB). Every one gives the order
// std::stable_sort gives. Throws for Algorithm::automatic, whose frame-to-frame sort keeps state
// across frames (CpuPipeline runs it).
SortPath cpu_sort_with(Algorithm algorithm, std::span<const std::uint32_t> keys,
                       std::span<std::uint32_t> order, SortScratch& scratch);

// What `algorithm` runs on the CPU backend: "std::stable_sort (library baseline; no CUB on the
// CPU), one thread".
std::string_view cpu_algorithm_label(Algorithm algorithm);

}  // namespace particles
