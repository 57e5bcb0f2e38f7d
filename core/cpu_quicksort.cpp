#include "core/cpu_quicksort.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace particles {
namespace {

// Stable insertion sort of (key, value) pairs [begin, end): strictly greater keys move, so equal
// keys keep their order.
void insertion_sort(std::uint32_t* key, std::uint32_t* value, std::size_t begin, std::size_t end) {
  for (std::size_t i = begin + 1; i < end; ++i) {
    const std::uint32_t k = key[i];
    if (key[i - 1] <= k) continue;
    const std::uint32_t v = value[i];
    std::size_t j = i;
    while (j > begin && key[j - 1] > k) {
      key[j] = key[j - 1];
      value[j] = value[j - 1];
      --j;
    }
    key[j] = k;
    value[j] = v;
  }
}

// The lower median of 32 evenly spaced keys of [begin, end): a pivot that splits nearly sorted
// and reversed inputs near their middle, where the first or last key would split them 1 : n - 1.
std::uint32_t sample_pivot(const std::uint32_t* key, std::size_t begin, std::size_t end) {
  std::array<std::uint32_t, 32> sample{};
  const std::size_t len = end - begin;
  for (std::size_t s = 0; s < sample.size(); ++s) {
    sample[s] = key[begin + (2 * s + 1) * len / (2 * sample.size())];
  }
  std::nth_element(sample.begin(), sample.begin() + 15, sample.end());
  return sample[15];
}

}  // namespace

void cpu_quicksort_order(std::span<const std::uint32_t> keys, std::span<std::uint32_t> order,
                         SortScratch& scratch) {
  const std::size_t n = order.size();
  if (keys.size() != n) {
    throw std::invalid_argument("cpu_quicksort_order: " + std::to_string(keys.size()) +
                                " keys for " + std::to_string(n) + " draw indices");
  }
  // The keys in draw order beside the indices, so that partitions read memory in sequence.
  std::vector<std::uint32_t>& key = scratch.keys[0];
  std::vector<std::uint32_t>& tmp_key = scratch.keys[1];
  std::vector<std::uint32_t>& tmp_value = scratch.values[1];
  key.resize(n);
  tmp_key.resize(n);
  tmp_value.resize(n);
  for (std::size_t i = 0; i < n; ++i) key[i] = keys[order[i]];
  std::uint32_t* value = order.data();

  // Segments still to sort; the smaller part is taken first, so the stack holds at most about
  // log2(n) segments.
  std::vector<std::pair<std::size_t, std::size_t>> todo;
  todo.emplace_back(0, n);
  while (!todo.empty()) {
    const auto [begin, end] = todo.back();
    todo.pop_back();
    if (end - begin < kQuicksortInsertionBelow) {
      insertion_sort(key.data(), value, begin, end);
      continue;
    }
    const std::uint32_t pivot = sample_pivot(key.data(), begin, end);
    std::size_t less = 0, equal = 0;
    for (std::size_t i = begin; i < end; ++i) {
      less += key[i] < pivot ? 1 : 0;
      equal += key[i] == pivot ? 1 : 0;
    }
    // Stable three-way split into the scratch buffers, then back: each part in input order.
    std::size_t to_less = begin, to_equal = begin + less, to_greater = begin + less + equal;
    for (std::size_t i = begin; i < end; ++i) {
      const std::uint32_t k = key[i];
      std::size_t& to = k < pivot ? to_less : (k == pivot ? to_equal : to_greater);
      tmp_key[to] = k;
      tmp_value[to] = value[i];
      ++to;
    }
    std::copy(tmp_key.begin() + static_cast<std::ptrdiff_t>(begin),
              tmp_key.begin() + static_cast<std::ptrdiff_t>(end),
              key.begin() + static_cast<std::ptrdiff_t>(begin));
    std::copy(tmp_value.begin() + static_cast<std::ptrdiff_t>(begin),
              tmp_value.begin() + static_cast<std::ptrdiff_t>(end), value + begin);
    // The pivot is one of the segment's keys, so `equal` >= 1 and both parts are shorter.
    const std::pair<std::size_t, std::size_t> low{begin, begin + less};
    const std::pair<std::size_t, std::size_t> high{begin + less + equal, end};
    const bool low_smaller = low.second - low.first < high.second - high.first;
    todo.push_back(low_smaller ? high : low);
    todo.push_back(low_smaller ? low : high);
  }
}

}  // namespace particles
