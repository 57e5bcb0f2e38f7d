#pragma once
// Host/device math of the splitter partition sort (splitter_partition_sort.cu), shared with its
// CPU twin (splitter_partition_cpu.hpp).
//
// The sort is for keys laid out in last frame's order whose order has moved too far for the
// odd-even sort (galaxy frames: a median of ~1500 places, up to ~15K at 1M keys), while the
// distribution of the keys has barely changed. Last frame's sorted keys at every
// kPartitionBucket-th place ("splitters") cut this frame's key range into buckets of about
// kPartitionBucket keys each. Whatever kernel makes the keys appends each one, with its place,
// to its bucket (partition_append.cuh); one block per bucket then sorts its pairs by (key,
// place) and writes them at the bucket's start. The result is the stable sort of the whole
// input, so ties keep last frame's order.
//
// Exact either way: the sort is only done when every bucket fits a block
// (kPartitionBucketCapacity); otherwise the caller's fallback runs. Any sorted splitters give the
// exact result; good ones make the sort possible.
#include <cstdint>

#include "cuda/sort/key_bits.hpp"

namespace particles::cuda {

// Splitter spacing: a bucket's usual size. Twice the 2048 it was: a galaxy key changes bucket
// from one frame to the next half as often (48% against 69%, 1M, CPU backend), so the appends'
// searches and atomics are fewer: the step got faster, the sort as fast (docs/notes/partition.md,
// "Buckets and the sort's cap").
inline constexpr int kPartitionBucket = 4096;
inline constexpr int kPartitionBucketCapacity = 8192;  // keys one bucket holds and a block sorts
// The most buckets a sort takes (8M keys); a larger sort always falls back. The same motion
// moves a key across more places the more keys there are, and a block's keys then go to more
// buckets. With a block's appends gathered (partition_append.cuh), auto beats radix up to 8M keys
// but not at 16M, where the step's appends cost more than the sort saves (before the gathering the
// cap was 2M keys): docs/notes/partition.md, "Buckets and the sort's cap".
inline constexpr std::uint32_t kPartitionMaxBuckets = 2048;

// Buckets of n keys.
PARTICLES_HD std::uint32_t partition_buckets(std::uint32_t n) {
  return (n + kPartitionBucket - 1) / kPartitionBucket;
}

// The bucket of `key`: the number of splitters splitter(j), j in [1, buckets), that are <= key
// (bucket b holds the keys k with splitter(b) <= k < splitter(b + 1), with no lower bound for
// bucket 0 and no upper bound for the last; equal keys share a bucket). The splitters are sorted.
// The search starts at `guess` and gallops away from it: a key laid out in last frame's order at
// place i was in bucket i / kPartitionBucket then, and is still there about half the time (found
// with two reads at once) and mostly next to it otherwise (one read more either way).
template <typename Splitter>
PARTICLES_HD std::uint32_t partition_bucket_of(std::uint32_t key, std::uint32_t guess,
                                               std::uint32_t buckets, Splitter splitter) {
  if (buckets <= 1) return 0;
  const std::uint32_t start = guess < buckets - 1 ? guess : buckets - 1;
  // The usual case first, its two reads together: one wait instead of two on the GPU.
  const std::uint32_t below = start > 0 ? splitter(start) : 0u;
  const std::uint32_t above = start + 1 < buckets ? splitter(start + 1) : 0xffffffffu;
  if ((start == 0 || below <= key) && (start + 1 == buckets || key < above)) return start;
  // The answer lies in [lo, hi): lo == 0 or splitter(lo) <= key, and hi == buckets or
  // splitter(hi) > key.
  std::uint32_t lo, hi;
  if (start > 0 && key < below) {
    hi = start;
    for (std::uint32_t step = 1;; step *= 2) {
      if (step >= hi) {
        lo = 0;
        break;
      }
      lo = hi - step;
      if (splitter(lo) <= key) break;
      hi = lo;
    }
  } else {
    lo = start + 1;  // splitter(start + 1) <= key: the first check said so
    for (std::uint32_t step = 1;; step *= 2) {
      if (step >= buckets - lo) {
        hi = buckets;
        break;
      }
      hi = lo + step;
      if (splitter(hi) > key) break;
      lo = hi;
    }
  }
  while (hi - lo > 1) {
    const std::uint32_t mid = lo + (hi - lo) / 2;  // >= 1
    if (splitter(mid) <= key) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

}  // namespace particles::cuda
