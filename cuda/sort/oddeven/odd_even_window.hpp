#pragma once
// Host/device math of the odd-even sort's window path, shared by the kernels
// (odd_even_window.cuh) and their CPU twin (odd_even_window_cpu.hpp).
//
// The input is cut into chunks of `window` keys (tiles are whole numbers of chunks). Let hi(k) and
// lo(k) be the largest and smallest sort key of chunk k. If
//     hi(k) <= lo(k + 2) and hi(k) <= lo(k + 3) for every k                       (*)
// then hi(i) <= lo(j) whenever j >= i + 2 (induction: hi(i) <= lo(i + 2) <= hi(i + 2) <= lo(j)).
// Take tile c with its halo: the extended range E = [last chunk of tile c-1, tile c, first chunk
// of tile c+1), holding `left` + `len` + `right` keys. Sort E stably; its sorted elements at
// ranks left .. left + len - 1 are exactly the final contents of tile c's positions:
//   - every key before E (chunks <= 8c - 2 with 8 chunks a tile) is <= every key of tile c and
//     the right halo, and at most `left` elements of E are smaller than E's rank-`left` element
//     without all of them lying in the left halo; so the rank-`left` element is >= some key of
//     tile c or the right halo, hence >= every key before E, and (earlier index) follows them;
//   - symmetrically every key after E follows E's rank-(left + len - 1) element.
// So E's rank-`left + q` element has exactly c * tile + q elements before it in the whole stable
// order. Nearly sorted input with every key within window / 2 places of its place passes (*):
// keys two chunks apart are more than `window` places apart and cannot cross. (*) is exact either
// way: when some chunk fails, the caller takes the exact path.
#include <cstdint>

#include "cuda/sort/key_bits.hpp"

namespace particles::cuda {

// Smallest and largest sort key of one chunk.
struct KeySpan {
  std::uint32_t lo;
  std::uint32_t hi;
};

// Condition (*) for chunk k of `chunks`; span(i) gives chunk i's KeySpan.
template <typename Spans>
PARTICLES_HD bool window_chunk_holds(Spans span, int k, int chunks) {
  const std::uint32_t hi = span(k).hi;
  if (k + 2 < chunks && hi > span(k + 2).lo) return false;
  return k + 3 >= chunks || hi <= span(k + 3).lo;
}

// Tile c's extended range: E starts at global index start - left; the tile's own keys are
// E[left, left + len); `right` halo keys follow (the head chunk of tile c + 1, maybe short).
struct WindowExtent {
  std::uint32_t start;  // first index of tile c
  int left;
  int len;
  int right;
  PARTICLES_HD int size() const { return left + len + right; }
};

PARTICLES_HD WindowExtent window_extent(std::uint32_t c, std::uint32_t n, int tile, int window) {
  WindowExtent x{};
  x.start = c * static_cast<std::uint32_t>(tile);
  const std::uint32_t rest = n - x.start;
  x.len = rest < static_cast<std::uint32_t>(tile) ? static_cast<int>(rest) : tile;
  x.left = c > 0 ? window : 0;  // every tile before the last is full
  const std::uint32_t after = rest - static_cast<std::uint32_t>(x.len);
  x.right = after < static_cast<std::uint32_t>(window) ? static_cast<int>(after) : window;
  return x;
}

}  // namespace particles::cuda
