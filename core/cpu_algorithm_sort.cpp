#include "core/cpu_algorithm_sort.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/cpu_quicksort.hpp"
// The odd-even sort's CPU twin and its tuning constants: plain C++ headers, no CUDA needed.
#include "cuda/sort/cpu/odd_even_window_cpu.hpp"
#include "cuda/sort/policy.hpp"

namespace particles {
namespace {

// The odd-even merge-split sort as the GPU's fixed `oddeven` runs it: the window path when every
// key lies within a chunk or so of its place, else sorted tiles and merge-splits (or merges, when
// one round cannot be proved enough). Same tiles, window and bucket limit as the kernels.
void odd_even_sort(std::span<const std::uint32_t> keys, std::span<std::uint32_t> order,
                   SortScratch& scratch) {
  constexpr int kBucketBits = 12;  // log2 of both kernels' tiles: about one key a bucket
  static_assert(cuda::kBlockSortTile == 1 << kBucketBits);
  static_assert(cuda::kOddEvenWindowTile == 1 << kBucketBits);
  std::vector<std::uint32_t>& key = scratch.keys[0];
  key.resize(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) key[i] = keys[order[i]];
  if (cuda::cpu_window_sort(key, order, 0, 32, cuda::kOddEvenWindowTile, cuda::kOddEvenWindow,
                            kBucketBits, cuda::kOddEvenBucketLimit)) {
    return;
  }
  cuda::cpu_odd_even_sort(key, order, 0, 32, cuda::kBlockSortTile, cuda::kOddEvenWindow,
                          kBucketBits, cuda::kOddEvenBucketLimit);
}

// std::stable_sort of (key, index) pairs packed in 64 bits, compared by key alone: the pairs are
// read in sequence rather than each key through its index.
void library_sort(std::span<const std::uint32_t> keys, std::span<std::uint32_t> order,
                  SortScratch& scratch) {
  std::vector<std::uint64_t>& pairs = scratch.pairs;
  pairs.resize(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    pairs[i] = std::uint64_t{keys[order[i]]} << 32 | order[i];
  }
  std::stable_sort(pairs.begin(), pairs.end(),
                   [](std::uint64_t a, std::uint64_t b) { return (a >> 32) < (b >> 32); });
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::uint32_t>(pairs[i]);
}

}  // namespace

SortPath cpu_sort_with(Algorithm algorithm, std::span<const std::uint32_t> keys,
                       std::span<std::uint32_t> order, SortScratch& scratch) {
  if (keys.size() != order.size()) {
    throw std::invalid_argument("cpu_sort_with: " + std::to_string(keys.size()) + " keys for " +
                                std::to_string(order.size()) + " draw indices");
  }
  switch (algorithm) {
    case Algorithm::radix:
      cpu_sort_order(keys, order, scratch);
      return SortPath::radix;
    case Algorithm::oddeven:
      odd_even_sort(keys, order, scratch);
      return SortPath::oddeven;
    case Algorithm::quicksort:
      cpu_quicksort_order(keys, order, scratch);
      return SortPath::quicksort;
    case Algorithm::cub:
      library_sort(keys, order, scratch);
      return SortPath::library;
    case Algorithm::automatic:
      break;
  }
  throw std::invalid_argument("cpu_sort_with: '" + std::string(to_string(algorithm)) +
                              "' sorts from last frame's order; CpuPipeline runs it");
}

std::string_view cpu_algorithm_label(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::radix:
      return "LSD radix sort, all cores";
    case Algorithm::oddeven:
      return "odd-even merge-split (the kernels' CPU twin), one thread";
    case Algorithm::quicksort:
      return "stable 3-way quicksort, one thread";
    case Algorithm::cub:
      return "std::stable_sort (library baseline; no CUB on the CPU), one thread";
    case Algorithm::automatic:
      return "from last frame's order: kept if sorted, else insertion or radix";
  }
  return "?";
}

}  // namespace particles
