#include "core/cpu_frame_sort.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/auto_policy.hpp"
#include "core/cpu_descents.hpp"
#include "core/parallel_for.hpp"

namespace particles {
namespace {

struct Gathered {
  std::uint64_t descents = 0;
  std::uint32_t min = std::numeric_limits<std::uint32_t>::max();
  std::uint32_t max = 0;
};

// Gathers keys[order[i]] into `sorted_keys`, counting the descents and the key range, over all
// cores.
Gathered gather_and_count(std::span<const std::uint32_t> keys, std::span<const std::uint32_t> order,
                          std::uint32_t* sorted_keys, unsigned chunks) {
  std::vector<Gathered> partial(chunks);
  parallel_for_chunks(order.size(), chunks, [&](std::size_t c, std::size_t begin, std::size_t end) {
    Gathered g;
    std::uint32_t previous = begin > 0 ? keys[order[begin - 1]] : 0u;
    for (std::size_t i = begin; i < end; ++i) {
      const std::uint32_t k = keys[order[i]];
      sorted_keys[i] = k;
      g.descents += previous > k ? 1 : 0;  // (0 before the first: no descent)
      g.min = std::min(g.min, k);
      g.max = std::max(g.max, k);
      previous = k;
    }
    partial[c] = g;
  });
  Gathered all;
  for (const Gathered& g : partial) {
    all.descents += g.descents;
    all.min = std::min(all.min, g.min);
    all.max = std::max(all.max, g.max);
  }
  return all;
}

// Stable insertion sort of (key, value) pairs; false when it ran out of `budget` moves first.
bool insertion_sort(std::uint32_t* key, std::uint32_t* value, std::size_t n, std::uint64_t budget) {
  for (std::size_t i = 1; i < n; ++i) {
    const std::uint32_t k = key[i];
    if (key[i - 1] <= k) continue;
    const std::uint32_t v = value[i];
    std::size_t j = i;
    while (j > 0 && key[j - 1] > k) {  // strictly greater: equal keys keep their order
      key[j] = key[j - 1];
      value[j] = value[j - 1];
      --j;
    }
    key[j] = k;
    value[j] = v;
    const std::uint64_t moved = i - j;
    if (moved >= budget) return false;
    budget -= moved;
  }
  return true;
}

}  // namespace

FrameSortResult cpu_sort_from_last_order(std::span<const std::uint32_t> keys,
                                         std::span<std::uint32_t> order, SortScratch& scratch,
                                         unsigned threads) {
  const std::size_t n = order.size();
  if (keys.size() != n) {
    throw std::invalid_argument("cpu_sort_from_last_order: " + std::to_string(keys.size()) +
                                " keys for " + std::to_string(n) + " draw indices");
  }
  FrameSortResult result;
  const unsigned chunks = threads != 0 ? threads : parallel_threads();
  scratch.keys[0].resize(n);
  const Gathered g = gather_and_count(keys, order, scratch.keys[0].data(), chunks);
  result.descents = g.descents;
  if (result.descents == 0) {
    result.path = FrameSortPath::already_sorted;
    return result;
  }
  const std::uint32_t* gathered = scratch.keys[0].data();
  result.strided_descents = count_strided_descents(n, kAutoProbeStride, chunks,
                                                   [&](std::size_t i) { return gathered[i]; });
  // The probes' counts saturate as the device's 32-bit words do; only zero or not matters.
  const auto word = [](std::uint64_t count) { return count == 0 ? 0u : 1u; };
  const SortPath path = choose_auto_path(word(result.descents), word(result.strided_descents));
  if (path == SortPath::oddeven &&
      insertion_sort(scratch.keys[0].data(), order.data(), n, kInsertionMovesPerPair * n)) {
    result.path = FrameSortPath::insertion;
    return result;
  }
  // An abandoned insertion moved keys and draw indices together: the gathered keys still match.
  cpu_sort_gathered(order, scratch, g.min, g.max, threads);
  result.path = FrameSortPath::radix;
  return result;
}

}  // namespace particles
