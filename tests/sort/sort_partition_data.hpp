#pragma once
// Inputs of the splitter partition sort's tests (CPU twin and GPU): keys laid out in "last
// frame's order" that has moved since, with the splitters last frame's sorted keys left.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "cuda/auto/splitter_partition_cpu.hpp"

namespace particles::cuda::testing {

struct PartitionCase {
  std::vector<std::uint32_t> keys;    // this frame's keys, in last frame's order
  std::vector<std::uint32_t> values;  // last frame's order (any permutation works)
  std::vector<std::uint32_t> splitters;
};

inline std::uint32_t mix32(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  return x ^ (x >> 16);
}

// Last frame: n sorted keys spread over [0, span) with `tie_every` equal keys in a row (1: few
// ties); the splitters are theirs. This frame: each key moves by up to `jitter` in value and
// the whole range by `drift`; keys stay in last frame's order (so they are nearly sorted, each
// within about jitter * n / span places of its place).
inline PartitionCase moved_keys(std::uint32_t n, std::uint32_t span, std::uint32_t jitter,
                                std::int64_t drift, std::uint32_t tie_every, std::uint32_t seed) {
  PartitionCase c;
  std::vector<std::uint32_t> last(n);
  for (std::uint32_t i = 0; i < n; ++i)
    last[i] = static_cast<std::uint32_t>(std::uint64_t{i / tie_every} * tie_every * span / n);
  c.splitters = cpu_partition_splitters(last);
  c.keys.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::int64_t moved =
        std::int64_t{last[i]} + drift +
        (jitter == 0 ? 0 : std::int64_t{mix32(seed ^ i) % (2 * jitter + 1)}) - jitter;
    c.keys[i] = static_cast<std::uint32_t>(std::clamp<std::int64_t>(moved, 0, 0xffffffffLL));
  }
  c.values.resize(n);
  std::iota(c.values.begin(), c.values.end(), 0u);
  for (std::uint32_t i = 0; i < n; ++i) c.values[i] = mix32(i + seed);  // any payload
  return c;
}

// Last frame's sorted keys as note_sorted reads them, rebuilt from the case's splitters: only
// every kPartitionBucket-th key is read, the others are left zero.
inline std::vector<std::uint32_t> keys_noted_for(const PartitionCase& c) {
  std::vector<std::uint32_t> sorted(c.keys.size(), 0u);
  for (std::uint32_t j = 1; j < c.splitters.size(); ++j)
    sorted[std::size_t{j} * kPartitionBucket] = c.splitters[j];
  return sorted;
}

// The same case with its keys shuffled within windows of `window` places: each key far from its
// place (up to a window), every bucket still holding as many keys as the splitters' did.
inline PartitionCase shuffled_within(PartitionCase c, std::uint32_t window, std::uint32_t seed) {
  const auto n = static_cast<std::uint32_t>(c.keys.size());
  for (std::uint32_t begin = 0; begin < n; begin += window) {
    const std::uint32_t len = std::min(window, n - begin);
    for (std::uint32_t i = len; i > 1; --i)
      std::swap(c.keys[begin + i - 1], c.keys[begin + mix32(seed ^ (begin + i)) % i]);
  }
  return c;
}

// The same case with the first `extra` keys past bucket `bucket` (1 <= bucket, bucket + 1 <
// buckets) moved into its key range, all equal to its splitter or spread over the range: that
// bucket then holds about kPartitionBucket + extra keys, more rows than a usual one.
inline PartitionCase crowd_bucket(PartitionCase c, std::uint32_t bucket, std::uint32_t extra,
                                  bool equal) {
  const std::uint32_t lo = c.splitters[bucket], range = c.splitters[bucket + 1] - lo;
  for (std::uint32_t k = 0; k < extra; ++k) {
    c.keys[(bucket + 1) * kPartitionBucket + k] =
        equal ? lo : lo + static_cast<std::uint32_t>(std::uint64_t{range} * k / extra);
  }
  return c;
}

}  // namespace particles::cuda::testing
