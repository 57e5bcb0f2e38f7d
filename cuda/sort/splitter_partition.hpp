#pragma once
// Host/device math of the splitter partition sort (splitter_partition_sort.cu), shared with its
// CPU twin (splitter_partition_cpu.hpp).
//
// The sort is for keys laid out in last frame's order whose order has moved too far for the
// odd-even sort (galaxy frames: a median of ~1500 places, up to ~15K at 1M keys), while the
// distribution of the keys has barely changed. Last frame's sorted keys at every
// kPartitionBucket-th place ("splitters") cut this frame's key range into buckets of about
// kPartitionBucket keys each. Input tile t (kPartitionBucket keys) then sends its keys only to
// buckets near t: bucket b = t + digit - kPartitionReach. One stable counting pass by that digit
// (which is a radix pass whose digit is the bucket, relative to the tile) puts every bucket's keys
// together in input order, and one block sorts each bucket stably. The result is the stable sort
// of the whole input, so ties keep last frame's order.
//
// Exact either way: the sort is only done when every key's bucket lies within kPartitionReach of
// its tile and every bucket fits a block (kPartitionBucketCapacity); otherwise the caller's
// fallback runs. Any sorted splitters give the exact result; good ones make the sort possible.
#include <cstdint>

#include "cuda/sort/key_bits.hpp"

namespace particles::cuda {

inline constexpr int kPartitionBucket = 2048;          // input tile and target bucket size
inline constexpr int kPartitionBucketCapacity = 4096;  // keys one bucket-sort block holds
inline constexpr int kPartitionReach = 15;             // buckets a tile may send to on each side
inline constexpr int kPartitionDigits = 2 * kPartitionReach + 1;
inline constexpr int kPartitionDigitSlots = 32;  // counts per tile: the digits, padded
// The most buckets a sort takes (16M keys); a larger sort always falls back.
inline constexpr std::uint32_t kPartitionMaxBuckets = 8192;

// Buckets (and input tiles) of n keys.
PARTICLES_HD std::uint32_t partition_buckets(std::uint32_t n) {
  return (n + kPartitionBucket - 1) / kPartitionBucket;
}

// The bucket of `key` as seen from input tile t, as a digit in [0, kPartitionDigits), or -1 when
// the bucket is farther than kPartitionReach from t. splitter(j), j in [1, buckets), is the
// sorted splitter array: bucket b holds the keys k with splitter(b) <= k < splitter(b + 1) (no
// lower bound for bucket 0, no upper bound for the last). Equal keys share a bucket.
template <typename Splitter>
PARTICLES_HD int partition_digit(std::uint32_t key, std::uint32_t t, std::uint32_t buckets,
                                 Splitter splitter) {
  const int reach = kPartitionReach;
  const long long first = static_cast<long long>(t) - reach;  // the window's lowest bucket
  const long long last = static_cast<long long>(t) + reach;   // and its highest
  if (first >= 1 && key < splitter(static_cast<std::uint32_t>(first))) return -1;
  if (last + 1 <= static_cast<long long>(buckets) - 1 &&
      key >= splitter(static_cast<std::uint32_t>(last + 1)))
    return -1;
  // b = (splitters below the window, all <= key) + (window splitters <= key), binary search.
  std::uint32_t lo = first >= 1 ? static_cast<std::uint32_t>(first + 1) : 1u;
  std::uint32_t hi = static_cast<std::uint32_t>(last < static_cast<long long>(buckets) - 1
                                                    ? last
                                                    : static_cast<long long>(buckets) - 1) +
                     1u;  // search [lo, hi): first splitter > key
  while (lo < hi) {
    const std::uint32_t mid = (lo + hi) / 2;
    if (splitter(mid) <= key) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  const long long bucket = static_cast<long long>(lo) - 1;
  return static_cast<int>(bucket - first);
}

}  // namespace particles::cuda
