#pragma once
// CPU twin of the splitter partition sort (splitter_partition_sort.cu), for the tests: the same
// steps in plain C++ (digit counts per tile, bucket offsets, the stable scatter, a stable sort
// of each bucket), and the splitters a sorted array leaves for the next sort.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cuda/sort/cpu_reference.hpp"
#include "cuda/sort/merge.hpp"
#include "cuda/sort/splitter_partition.hpp"

namespace particles::cuda {

// Splitters for the next sort: splitters[j] = sorted_keys[j * kPartitionBucket] for j in
// [1, buckets); splitters[0] is unused (0).
inline std::vector<std::uint32_t> cpu_partition_splitters(std::span<const std::uint32_t> sorted) {
  const std::uint32_t buckets = partition_buckets(static_cast<std::uint32_t>(sorted.size()));
  std::vector<std::uint32_t> splitters(std::max(buckets, 1u), 0u);
  for (std::uint32_t j = 1; j < buckets; ++j) splitters[j] = sorted[j * kPartitionBucket];
  return splitters;
}

// Sorts (keys, values) stably by key through the splitters and returns true, or returns false
// with the input untouched when some key's bucket is out of its tile's reach or some bucket holds
// more than kPartitionBucketCapacity keys (the kernel's fallback cases).
inline bool cpu_splitter_partition_sort(std::span<std::uint32_t> keys,
                                        std::span<std::uint32_t> values,
                                        std::span<const std::uint32_t> splitters) {
  const auto n = static_cast<std::uint32_t>(keys.size());
  const std::uint32_t buckets = partition_buckets(n);
  if (n < 2) return true;
  auto splitter = [&](std::uint32_t j) { return splitters[j]; };
  // Digit counts per input tile.
  std::vector<int> digit(n);
  std::vector<std::uint32_t> counts(std::size_t{buckets} * kPartitionDigitSlots, 0u);
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t t = i / kPartitionBucket;
    digit[i] = partition_digit(keys[i], t, buckets, splitter);
    if (digit[i] < 0) return false;
    ++counts[std::size_t{t} * kPartitionDigitSlots + digit[i]];
  }
  // Bucket sizes and starts; then each (tile, digit)'s place, tiles in order within a bucket.
  std::vector<std::uint32_t> start(buckets + 1, 0u);
  for (std::uint32_t b = 0; b < buckets; ++b) {
    std::uint32_t size = 0;
    for (std::uint32_t t = b > kPartitionReach ? b - kPartitionReach : 0;
         t < buckets && t <= b + kPartitionReach; ++t)
      size += counts[std::size_t{t} * kPartitionDigitSlots + (b + kPartitionReach - t)];
    if (size > static_cast<std::uint32_t>(kPartitionBucketCapacity)) return false;
    start[b + 1] = start[b] + size;
  }
  std::vector<std::uint32_t> offset(counts.size(), 0u);
  for (std::uint32_t b = 0; b < buckets; ++b) {
    std::uint32_t running = start[b];
    for (std::uint32_t t = b > kPartitionReach ? b - kPartitionReach : 0;
         t < buckets && t <= b + kPartitionReach; ++t) {
      const std::size_t slot = std::size_t{t} * kPartitionDigitSlots + (b + kPartitionReach - t);
      offset[slot] = running;
      running += counts[slot];
    }
  }
  // The stable scatter, then a stable sort of each bucket.
  std::vector<std::uint32_t> out_keys(n), out_values(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::size_t slot = std::size_t{i / kPartitionBucket} * kPartitionDigitSlots + digit[i];
    out_keys[offset[slot]] = keys[i];
    out_values[offset[slot]] = values[i];
    ++offset[slot];
  }
  // Each bucket by the kernel's block sort: stable LSD radix over the bits its keys differ in.
  for (std::uint32_t b = 0; b < buckets; ++b) {
    const std::span<std::uint32_t> bucket_keys(out_keys.data() + start[b], start[b + 1] - start[b]);
    const std::span<std::uint32_t> bucket_values(out_values.data() + start[b], bucket_keys.size());
    if (bucket_keys.empty()) continue;
    const auto [lo, hi] = std::minmax_element(bucket_keys.begin(), bucket_keys.end());
    const std::uint32_t floor = *lo, differ = *hi - *lo;
    for (std::uint32_t& k : bucket_keys) k -= floor;
    cpu_radix_sort_pairs(bucket_keys, bucket_values, 0, bit_width(differ));
    for (std::uint32_t& k : bucket_keys) k += floor;
  }
  std::copy(out_keys.begin(), out_keys.end(), keys.begin());
  std::copy(out_values.begin(), out_values.end(), values.begin());
  return true;
}

}  // namespace particles::cuda
