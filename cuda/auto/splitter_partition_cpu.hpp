#pragma once
// CPU twin of the splitter partition sort (splitter_partition_sort.cu), for the tests: the same
// steps in plain C++ (each key's bucket by the shared search, the capacity check, a stable sort
// of each bucket by key and place), and the splitters a sorted array leaves for the next sort.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cuda/auto/splitter_partition.hpp"

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
// with the input untouched when some bucket would hold more than kPartitionBucketCapacity keys
// or there are more than kPartitionMaxBuckets buckets (the kernel's fallback cases).
inline bool cpu_splitter_partition_sort(std::span<std::uint32_t> keys,
                                        std::span<std::uint32_t> values,
                                        std::span<const std::uint32_t> splitters) {
  const auto n = static_cast<std::uint32_t>(keys.size());
  const std::uint32_t buckets = partition_buckets(n);
  if (n == 0) return true;
  if (buckets > kPartitionMaxBuckets) return false;
  auto splitter = [&](std::uint32_t j) { return splitters[j]; };
  // Each bucket's places, in input order.
  std::vector<std::vector<std::uint32_t>> places(buckets);
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t b = partition_bucket_of(keys[i], i / kPartitionBucket, buckets, splitter);
    places[b].push_back(i);
    if (places[b].size() > static_cast<std::size_t>(kPartitionBucketCapacity)) return false;
  }
  std::vector<std::uint32_t> out_keys, out_values;
  out_keys.reserve(n);
  out_values.reserve(n);
  for (std::vector<std::uint32_t>& bucket : places) {
    std::stable_sort(bucket.begin(), bucket.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
    for (const std::uint32_t i : bucket) {
      out_keys.push_back(keys[i]);
      out_values.push_back(values[i]);
    }
  }
  std::copy(out_keys.begin(), out_keys.end(), keys.begin());
  std::copy(out_values.begin(), out_values.end(), values.begin());
  return true;
}

}  // namespace particles::cuda
