#pragma once
// CPU twin of the odd-even sort's window path (odd_even_window.cuh), for the tests: plain C++, no
// CUDA needed.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cuda/sort/cpu/cpu_reference.hpp"
#include "cuda/sort/oddeven/odd_even_window.hpp"

namespace particles::cuda {

// The window check over every chunk of `window` keys, then each tile of `tile` keys sorted with
// its halo chunks by the bucket tile sort (bucket_bits, bucket_limit as the kernel's) and its own
// range written. (The kernel also radix-sorts a range whose keys span 2^31 or more, where its
// order words do not fit; the result is the same stable order.) Returns false, with the input
// untouched, when the check fails: the kernel then leaves the sort to the exact path.
inline bool cpu_window_sort(std::span<std::uint32_t> keys, std::span<std::uint32_t> values,
                            int begin_bit, int end_bit, int tile, int window, int bucket_bits,
                            int bucket_limit) {
  const std::size_t n = keys.size();
  if (n < 2 || begin_bit == end_bit) return true;
  const KeyBits bits{begin_bit, end_bit};
  const std::size_t w = static_cast<std::size_t>(window);
  const int chunks = static_cast<int>((n + w - 1) / w);
  std::vector<KeySpan> spans(static_cast<std::size_t>(chunks), KeySpan{0xffffffffu, 0});
  for (std::size_t i = 0; i < n; ++i) {
    KeySpan& s = spans[i / w];
    s.lo = std::min(s.lo, bits(keys[i]));
    s.hi = std::max(s.hi, bits(keys[i]));
  }
  auto span = [&](int k) { return spans[static_cast<std::size_t>(k)]; };
  for (int k = 0; k < chunks; ++k)
    if (!window_chunk_holds(span, k, chunks)) return false;

  const std::size_t t = static_cast<std::size_t>(tile);
  const std::size_t tiles = (n + t - 1) / t;
  std::vector<std::uint32_t> out_k(n), out_v(n);
  for (std::size_t c = 0; c < tiles; ++c) {
    const WindowExtent x =
        window_extent(static_cast<std::uint32_t>(c), static_cast<std::uint32_t>(n), tile, window);
    const std::size_t from = x.start - static_cast<std::size_t>(x.left);
    const std::size_t size = static_cast<std::size_t>(x.size());
    std::vector<std::uint32_t> ek(keys.begin() + static_cast<std::ptrdiff_t>(from),
                                  keys.begin() + static_cast<std::ptrdiff_t>(from + size));
    std::vector<std::uint32_t> ev(values.begin() + static_cast<std::ptrdiff_t>(from),
                                  values.begin() + static_cast<std::ptrdiff_t>(from + size));
    cpu_bucket_tile_sort(ek, ev, bits, bucket_bits, bucket_limit);
    for (int q = 0; q < x.len; ++q) {
      const std::size_t e = static_cast<std::size_t>(x.left + q);
      out_k[x.start + static_cast<std::size_t>(q)] = ek[e];
      out_v[x.start + static_cast<std::size_t>(q)] = ev[e];
    }
  }
  std::copy(out_k.begin(), out_k.end(), keys.begin());
  std::copy(out_v.begin(), out_v.end(), values.begin());
  return true;
}

}  // namespace particles::cuda
