#pragma once
// CPU twins of the GPU sort kernels: plain C++, header-only, no CUDA needed. The tests check the
// kernels against these (and these against std::stable_sort); the CPU backend may reuse
// cpu_radix_sort_pairs directly.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "cuda/sort/block/merge.hpp"
#include "cuda/sort/key_bits.hpp"

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

// Twin of the odd-even tile sort and of the radix bucket sort's spread path (one tile or one
// top-digit bucket): stable sort by the buckets of its key range (TileBuckets), then by (sort
// key, input position) inside each bucket. When a bucket holds more than bucket_limit keys the
// kernels radix-sort instead; so does this (returns false).
inline bool cpu_bucket_tile_sort(std::span<std::uint32_t> keys, std::span<std::uint32_t> values,
                                 KeyBits bits, int bucket_bits, int bucket_limit) {
  const std::size_t n = keys.size();
  if (n < 2) return true;
  std::uint32_t lo = 0xffffffffu, hi = 0;
  for (std::uint32_t k : keys) {
    lo = std::min(lo, bits(k));
    hi = std::max(hi, bits(k));
  }
  if (lo == hi) return true;  // all equal: already in stable order
  const TileBuckets bucket(lo, hi, bucket_bits);
  std::vector<std::uint32_t> offset((std::size_t{1} << bucket_bits) + 1, 0);
  for (std::uint32_t k : keys) ++offset[bucket(bits(k)) + 1];
  for (std::size_t b = 1; b < offset.size(); ++b) {
    if (offset[b] > static_cast<std::uint32_t>(bucket_limit)) {
      cpu_radix_sort_pairs(keys, values, bits.begin_bit, bits.end_bit);
      return false;
    }
    offset[b] += offset[b - 1];
  }
  // Bucket order (the kernel's shared-memory scatter; order inside a bucket does not matter).
  std::vector<std::size_t> position(n), fill(offset.begin(), offset.end() - 1);
  for (std::size_t i = 0; i < n; ++i) position[fill[bucket(bits(keys[i]))]++] = i;
  std::vector<std::uint32_t> out_k(n), out_v(n);
  for (std::size_t p = 0; p < n; ++p) {
    const std::size_t i = position[p];
    const std::uint32_t k = bits(keys[i]);
    const std::uint32_t b = bucket(k);
    std::size_t f = offset[b];
    for (std::size_t m = offset[b]; m < offset[b + 1]; ++m) {
      const std::uint32_t other = bits(keys[position[m]]);
      f += other < k || (other == k && position[m] < i);
    }
    out_k[f] = keys[i];
    out_v[f] = values[i];
  }
  std::copy(out_k.begin(), out_k.end(), keys.begin());
  std::copy(out_v.begin(), out_v.end(), values.begin());
  return true;
}

// Twin of the whole odd-even kernel with its tile size, window, bucket bits (log2 tile) and
// bucket limit as parameters: sorted tiles, then the one round of merge-splits as ranks when
// one_round_holds for every tile, else pairwise merges of the sorted tiles (merge path per output
// tile, as the fallback rounds do). Returns whether the one round did it.
inline bool cpu_odd_even_sort(std::span<std::uint32_t> keys, std::span<std::uint32_t> values,
                              int begin_bit, int end_bit, int tile, int window, int bucket_bits,
                              int bucket_limit) {
  const std::size_t n = keys.size();
  if (n < 2 || begin_bit == end_bit) return true;
  const KeyBits bits{begin_bit, end_bit};
  const std::size_t t = static_cast<std::size_t>(tile);
  const std::size_t tiles = (n + t - 1) / t;
  std::vector<std::uint32_t> sk(keys.begin(), keys.end()), sv(values.begin(), values.end());
  std::vector<TileEnds> ends(tiles);
  for (std::size_t c = 0; c < tiles; ++c) {
    const std::size_t start = c * t, len = std::min(t, n - start);
    cpu_bucket_tile_sort(std::span(sk).subspan(start, len), std::span(sv).subspan(start, len), bits,
                         bucket_bits, bucket_limit);
    for (std::size_t f = 0; f < len; ++f)
      note_tile_end(ends[c], static_cast<int>(f), static_cast<int>(len), window,
                    bits(sk[start + f]));
  }
  auto tile_ends = [&](int i) { return ends[static_cast<std::size_t>(i)]; };
  bool one_round = true;
  for (std::size_t c = 1; c < tiles; ++c)
    one_round =
        one_round && one_round_holds(tile_ends, static_cast<int>(c), static_cast<int>(tiles));
  if (one_round) {
    for (std::size_t c = 0; c < tiles; ++c) {
      const std::size_t start = c * t, len = std::min(t, n - start);
      const int left_len = c > 0 ? left_window(ends[c - 1], ends[c], tile, window) : 0;
      const int right_len = c + 1 < tiles
                                ? right_window(ends[c], ends[c + 1],
                                               static_cast<int>(std::min(t, n - start - t)), window)
                                : 0;
      auto left = [&](int i) { return bits(sk[start - static_cast<std::size_t>(left_len - i)]); };
      auto right = [&](int j) { return bits(sk[start + t + static_cast<std::size_t>(j)]); };
      for (std::size_t q = 0; q < len; ++q) {
        const std::uint32_t rank =
            one_round_rank(static_cast<std::uint32_t>(c), tile, static_cast<int>(q),
                           bits(sk[start + q]), left, left_len, right, right_len);
        keys[rank] = sk[start + q];
        values[rank] = sv[start + q];
      }
    }
    return true;
  }
  std::vector<std::uint32_t> dk(n), dv(n);
  for (std::size_t run = t; run < n; run *= 2) {
    for (std::size_t out = 0; out < n; out += t) {
      const std::size_t a0 = out / (2 * run) * (2 * run);
      const int a_len = static_cast<int>(std::min(run, n - a0));
      const std::size_t b0 = a0 + static_cast<std::size_t>(a_len);
      const int b_len = static_cast<int>(std::min(run, n - b0));
      auto a = [&](int i) { return bits(sk[a0 + static_cast<std::size_t>(i)]); };
      auto b = [&](int j) { return bits(sk[b0 + static_cast<std::size_t>(j)]); };
      const int diag = static_cast<int>(out - a0);
      int i = merge_path(a, a_len, b, b_len, diag), j = diag - i;
      for (std::size_t o = out; o < std::min(out + t, n); ++o) {
        const std::size_t from = merge_takes_a(a, a_len, b, b_len, i, j)
                                     ? a0 + static_cast<std::size_t>(i++)
                                     : b0 + static_cast<std::size_t>(j++);
        dk[o] = sk[from];
        dv[o] = sv[from];
      }
    }
    sk.swap(dk);
    sv.swap(dv);
  }
  std::copy(sk.begin(), sk.end(), keys.begin());
  std::copy(sv.begin(), sv.end(), values.begin());
  return false;
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
