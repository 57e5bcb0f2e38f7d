#pragma once
// CPU twins of the GPU sort kernels: plain C++, header-only, no CUDA needed. The tests check the
// kernels against these (and these against std::stable_sort); the CPU backend may reuse
// cpu_radix_sort_pairs directly.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "cuda/sort/key_bits.hpp"
#include "cuda/sort/merge.hpp"

namespace particles::cuda {

// Stable LSD radix sort of (key, value) pairs by bits [begin_bit, end_bit), 8-bit digits: the
// same digit plan as the GPU radix sort (one histogram per pass up front, then stable scatters).
inline void cpu_radix_sort_pairs(std::span<std::uint32_t> keys, std::span<std::uint32_t> values,
                                 int begin_bit, int end_bit) {
  if (keys.size() != values.size()) throw std::invalid_argument("keys and values differ in size");
  if (begin_bit < 0 || end_bit > 32 || begin_bit > end_bit)
    throw std::invalid_argument("bad bit range");
  const std::size_t n = keys.size();
  if (n < 2 || begin_bit == end_bit) return;
  std::vector<std::uint32_t> tmp_keys(n), tmp_values(n);
  std::span<std::uint32_t> src_k = keys, src_v = values, dst_k = tmp_keys, dst_v = tmp_values;
  for (int shift = begin_bit; shift < end_bit; shift += 8) {
    const KeyBits digit{shift, shift + 8 < end_bit ? shift + 8 : end_bit};
    std::array<std::size_t, 257> offset{};
    for (std::size_t i = 0; i < n; ++i) ++offset[digit(src_k[i]) + 1];
    for (std::size_t d = 1; d < offset.size(); ++d) offset[d] += offset[d - 1];
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t to = offset[digit(src_k[i])]++;
      dst_k[to] = src_k[i];
      dst_v[to] = src_v[i];
    }
    std::swap(src_k, dst_k);
    std::swap(src_v, dst_v);
  }
  if (src_k.data() != keys.data()) {
    std::copy(src_k.begin(), src_k.end(), keys.begin());
    std::copy(src_v.begin(), src_v.end(), values.begin());
  }
}

// Twin of the descent probe: adjacent pairs whose sort keys are out of order.
inline std::uint64_t cpu_count_descents(std::span<const std::uint32_t> keys, int begin_bit,
                                        int end_bit) {
  const KeyBits bits{begin_bit, end_bit};
  std::uint64_t count = 0;
  for (std::size_t i = 1; i < keys.size(); ++i) count += bits(keys[i - 1]) > bits(keys[i]);
  return count;
}

// Twin of one merge-split between sorted neighbouring tiles a and b (a before b): afterwards a
// holds the a.size() smallest, b the rest, both sorted, ties resolved in a's favour (stable).
// Returns whether anything moved. Uses the same window logic as the kernel.
inline bool cpu_merge_split(std::span<std::uint32_t> a_keys, std::span<std::uint32_t> a_values,
                            std::span<std::uint32_t> b_keys, std::span<std::uint32_t> b_values,
                            KeyBits bits, int window) {
  const int a_len = static_cast<int>(a_keys.size());
  const int b_len = static_cast<int>(b_keys.size());
  if (a_len == 0 || b_len == 0) return false;
  auto a = [&](int i) { return bits(a_keys[static_cast<std::size_t>(i)]); };
  auto b = [&](int j) { return bits(b_keys[static_cast<std::size_t>(j)]); };
  if (a(a_len - 1) <= b(0)) return false;
  const MergeWindow w = merge_split_window(a, a_len, b, b_len, window);
  const int a0 = a_len - w.a_count;
  auto wa = [&](int i) { return a(a0 + i); };
  std::vector<std::uint32_t> out_k, out_v;
  int i = 0, j = 0;
  while (i + j < w.a_count + w.b_count) {
    if (merge_takes_a(wa, w.a_count, b, w.b_count, i, j)) {
      out_k.push_back(a_keys[static_cast<std::size_t>(a0 + i)]);
      out_v.push_back(a_values[static_cast<std::size_t>(a0 + i)]);
      ++i;
    } else {
      out_k.push_back(b_keys[static_cast<std::size_t>(j)]);
      out_v.push_back(b_values[static_cast<std::size_t>(j)]);
      ++j;
    }
  }
  for (int o = 0; o < w.a_count + w.b_count; ++o) {
    const std::size_t src = static_cast<std::size_t>(o);
    if (o < w.a_count) {
      a_keys[static_cast<std::size_t>(a0 + o)] = out_k[src];
      a_values[static_cast<std::size_t>(a0 + o)] = out_v[src];
    } else {
      b_keys[static_cast<std::size_t>(o - w.a_count)] = out_k[src];
      b_values[static_cast<std::size_t>(o - w.a_count)] = out_v[src];
    }
  }
  return true;
}

// Twin of the quicksort partition step: stable three-way split of a segment around pivot (a sort
// key): < pivot, == pivot, > pivot, each part in input order. Returns {count_lt, count_eq}.
struct PartitionCounts {
  std::size_t lt;
  std::size_t eq;
};
inline PartitionCounts cpu_partition3(std::span<std::uint32_t> keys,
                                      std::span<std::uint32_t> values, std::uint32_t pivot,
                                      KeyBits bits) {
  std::vector<std::uint32_t> k[3], v[3];
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::uint32_t s = bits(keys[i]);
    const int part = s < pivot ? 0 : (s == pivot ? 1 : 2);
    k[part].push_back(keys[i]);
    v[part].push_back(values[i]);
  }
  std::size_t o = 0;
  for (int p = 0; p < 3; ++p)
    for (std::size_t i = 0; i < k[p].size(); ++i, ++o) {
      keys[o] = k[p][i];
      values[o] = v[p][i];
    }
  return {k[0].size(), k[1].size()};
}

// Median of 32 evenly spaced samples of a segment, the quicksort pivot rule (lower median).
inline std::uint32_t cpu_sample_pivot(std::span<const std::uint32_t> keys, KeyBits bits) {
  std::array<std::uint32_t, 32> s{};
  const std::uint64_t len = keys.size();
  for (std::uint64_t l = 0; l < 32; ++l) s[l] = bits(keys[(2 * l + 1) * len / 64]);
  // rank with index tie-break, as the warp does it; the element of rank 15 is the pivot.
  for (int l = 0; l < 32; ++l) {
    int rank = 0;
    for (int m = 0; m < 32; ++m) rank += s[m] < s[l] || (s[m] == s[l] && m < l);
    if (rank == 15) return s[l];
  }
  return s[0];
}

}  // namespace particles::cuda
