#pragma once
// Host/device pieces of the odd-even merge-split sort shared by the kernel and its CPU twin:
// stable merge paths, the tile sort's key buckets, and the one-round test and ranks.
// "Stable" means: on equal sort keys the element of the earlier sequence comes first.
// Accessors are callables (index -> sort key or TileEnds) so the same code reads shared or global
// memory on the device and std::vector on the host.
#include <cstdint>

#include "cuda/sort/key_bits.hpp"

namespace particles::cuda {

// Number of elements taken from A among the first `diag` outputs of the stable merge of
// A[0, a_len) and B[0, b_len).
template <typename KeyA, typename KeyB>
PARTICLES_HD int merge_path(KeyA a, int a_len, KeyB b, int b_len, int diag) {
  int lo = diag > b_len ? diag - b_len : 0;
  int hi = diag < a_len ? diag : a_len;
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    // A[mid] precedes B[diag-1-mid] iff A[mid] <= B[...] (ties go to A): then take more of A.
    if (a(mid) <= b(diag - 1 - mid)) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// True when output position (i from A, j from B) takes the next element from A.
template <typename KeyA, typename KeyB>
PARTICLES_HD bool merge_takes_a(KeyA a, int a_len, KeyB b, int b_len, int i, int j) {
  return j >= b_len || (i < a_len && a(i) <= b(j));
}

// Sorted keys[0, len) that are <= key (upper bound) and < key (lower bound).
template <typename Keys>
PARTICLES_HD int count_not_greater(Keys keys, int len, std::uint32_t key) {
  if (len == 0 || keys(len - 1) <= key) return len;  // the common case on nearly sorted input
  int lo = 0, hi = len - 1;
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (keys(mid) <= key) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}
template <typename Keys>
PARTICLES_HD int count_less(Keys keys, int len, std::uint32_t key) {
  if (len == 0 || keys(0) >= key) return 0;  // the common case on nearly sorted input
  int lo = 1, hi = len;
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (keys(mid) < key) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

PARTICLES_HD int bit_width(std::uint32_t x) {
#ifdef __CUDA_ARCH__
  return 32 - __clz(static_cast<int>(x));
#else
  return x == 0 ? 0 : 32 - __builtin_clz(x);
#endif
}

// Buckets of the tile sort. The sort keys of a tile lie in [lo, hi]; (key - lo) >> shift is
// monotone in the key and below 2^bucket_bits, so sorting by bucket and then inside each bucket
// sorts the tile. The shift keeps as many high bits of the tile's range as there are bucket bits:
// on evenly spread keys (nearly sorted input, random input) a bucket holds one or two keys.
struct TileBuckets {
  std::uint32_t lo;
  int shift;
  PARTICLES_HD TileBuckets(std::uint32_t lo_key, std::uint32_t hi_key, int bucket_bits)
      : lo(lo_key),
        shift(bit_width(hi_key - lo_key) > bucket_bits ? bit_width(hi_key - lo_key) - bucket_bits
                                                       : 0) {}
  PARTICLES_HD std::uint32_t operator()(std::uint32_t key) const { return (key - lo) >> shift; }
};

// What the one-round test needs of a sorted tile of len keys (sort keys): the first and last, and
// the last key before the tail window and the first after the head window (indices
// max(len - 1 - window, 0) and min(window, len - 1)).
struct alignas(16) TileEnds {
  std::uint32_t first;
  std::uint32_t last;
  std::uint32_t before_tail;
  std::uint32_t after_head;
};

// Records the ends of a tile as sorted index f (of len) receives sort key k.
PARTICLES_HD void note_tile_end(TileEnds& e, int f, int len, int window, std::uint32_t key) {
  if (f == 0) e.first = key;
  if (f == len - 1) e.last = key;
  if (f == (len - 1 - window > 0 ? len - 1 - window : 0)) e.before_tail = key;
  if (f == (window < len - 1 ? window : len - 1)) e.after_head = key;
}

// One round of merge-splits finishes the sort when every tile's final place depends only on its two
// neighbours. That holds when, for every tile c >= 1, first(c - 1) <= first(c), last(c - 1) <=
// last(c) (not needed for the last tile, which may be short) and last(c - 2) <= first(c): then
// every key of tiles <= c-2 precedes every key of tile c (their largest is last(c - 2)) and every
// key of tiles >= c+2 follows it (their smallest is first(c + 2) >= last(c)). Nearly sorted input
// (each key within about half a tile of its place) passes; the test is exact either way, so the
// sort stays exact. ends(i) gives tile i's TileEnds; 1 <= c < tiles.
template <typename Ends>
PARTICLES_HD bool one_round_holds(Ends ends, int c, int tiles) {
  const TileEnds prev = ends(c - 1), cur = ends(c);
  if (prev.first > cur.first || (c + 1 < tiles && prev.last > cur.last)) return false;
  return c < 2 || ends(c - 2).last <= cur.first;
}

// Keys of the left neighbour (a full tile) that can follow some key of tile `cur`: its last
// `window` when all before them precede cur's first key, else all of it.
PARTICLES_HD int left_window(const TileEnds& left, const TileEnds& cur, int tile, int window) {
  return left.before_tail <= cur.first ? window : tile;
}
// Keys of the right neighbour (right_len keys) that can precede some key of tile `cur`.
PARTICLES_HD int right_window(const TileEnds& cur, const TileEnds& right, int right_len,
                              int window) {
  if (right_len <= window) return right_len;
  return right.after_head >= cur.last ? window : right_len;
}

// Final position, in the one-round case, of the key at sorted index q of tile c (tiles of `tile`
// keys): all of tiles 0..c-2 precede it; of the left neighbour, the keys before its window and
// the window's keys <= it (ties: the left tile came first); of the right neighbour's window, the
// keys < it. left(i) / right(j) read the windows' sort keys.
template <typename Left, typename Right>
PARTICLES_HD std::uint32_t one_round_rank(std::uint32_t c, int tile, int q, std::uint32_t key,
                                          Left left, int left_len, Right right, int right_len) {
  std::uint32_t rank = static_cast<std::uint32_t>(q + count_less(right, right_len, key));
  if (c > 0)
    rank += (c - 1) * static_cast<std::uint32_t>(tile) +
            static_cast<std::uint32_t>(tile - left_len + count_not_greater(left, left_len, key));
  return rank;
}

}  // namespace particles::cuda
