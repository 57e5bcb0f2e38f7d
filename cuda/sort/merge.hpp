#pragma once
// Stable merge-path helpers shared by the odd-even merge-split kernel and its CPU twin.
// "Stable" means: on equal sort keys the element of the left sequence A comes first.
// Accessors are callables (index -> sort key) so the same code reads shared memory on the device
// and std::vector on the host.
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

// Window of a merge-split between sorted neighbours A (length a_len) and B (length b_len):
// returns the shortest suffix of A and prefix of B, among (window, window) and the whole tiles,
// whose merge gives the same result as merging everything. Both results are clamped to the
// lengths. a(i) / b(j) read sort keys.
struct MergeWindow {
  int a_count;  // A[a_len - a_count, a_len) takes part
  int b_count;  // B[0, b_count) takes part
};
template <typename KeyA, typename KeyB>
PARTICLES_HD MergeWindow merge_split_window(KeyA a, int a_len, KeyB b, int b_len, int window) {
  const int wa = window < a_len ? window : a_len;
  const int wb = window < b_len ? window : b_len;
  // Elements of A before the window stay if they precede all of B (B[0] is B's smallest); those
  // of B after the window stay if they follow all of A (A's largest is A[a_len-1]).
  const bool a_rest_stays = wa == a_len || a(a_len - wa - 1) <= b(0);
  const bool b_rest_stays = wb == b_len || a(a_len - 1) <= b(wb);
  if (a_rest_stays && b_rest_stays) return {wa, wb};
  return {a_len, b_len};
}

}  // namespace particles::cuda
