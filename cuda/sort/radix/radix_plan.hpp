#pragma once
// Host-side planning of one radix sort (radix_engine.hpp): which tile policy the passes use and
// whether, with which block, the MSD-first shortcut is planned. Plain C++ over policy.hpp, so
// the CPU tests check the choices without a device.
#include <cstddef>
#include <iterator>
#include <stdexcept>

#include "cuda/sort/policy.hpp"

namespace particles::cuda {

// When the MSD-first shortcut is planned: by size (the default), never, or always (tests cover
// both of its device-side outcomes with it).
enum class RadixShortcut { by_size, never, always };

// Index into kRadixPolicies for n pairs: forced >= 0 picks one (tuning, tests), else the last
// kRadixPolicyRules entry whose `from` <= n. Throws std::invalid_argument when forced is out of
// range.
inline std::size_t radix_tile_policy_for(std::size_t n, int forced) {
  if (forced >= 0) {
    if (static_cast<std::size_t>(forced) >= std::size(kRadixPolicies))
      throw std::invalid_argument("radix policy index out of range");
    return static_cast<std::size_t>(forced);
  }
  int index = 0;
  for (const RadixSizeRule& rule : kRadixPolicyRules)
    if (n >= rule.from) index = rule.policy;
  return static_cast<std::size_t>(index);
}

// Index into kRadixBucketPolicies of the block the shortcut would use for n pairs sorted in
// `passes` passes, or -1 when it is not planned; forced >= 0 picks one whenever the shortcut can
// be planned at all (throws std::invalid_argument when out of range). With 2 passes the shortcut
// saves no pass, only the cost of a small bucket sort against a onesweep pass, which wins up to
// 2^20 pairs only (docs/performance.md, "Radix policies", random 16-bit keys), so only the
// smallest block is a candidate there.
inline int radix_bucket_policy_for(std::size_t n, int passes, RadixShortcut mode, int forced) {
  if (mode == RadixShortcut::never || passes < 2) return -1;
  if (forced >= 0) {
    if (static_cast<std::size_t>(forced) >= std::size(kRadixBucketPolicies))
      throw std::invalid_argument("radix bucket policy index out of range");
    return forced;
  }
  const double mean = static_cast<double>(n) / kRadixBuckets;
  const std::size_t candidates = passes == 2 ? 1 : std::size(kRadixBucketPolicies);
  for (std::size_t i = 0; i < candidates; ++i)
    if (mean * kRadixBucketHeadroom <= kRadixBucketPolicies[i].capacity())
      return mode == RadixShortcut::always || n >= kRadixBucketMinPairs ? static_cast<int>(i) : -1;
  // Too large to fit on average: only a forced shortcut is planned (the device then finds that
  // the buckets do not fit and takes the LSD passes; the tests use this to cover that path).
  return mode == RadixShortcut::always ? static_cast<int>(std::size(kRadixBucketPolicies)) - 1 : -1;
}

}  // namespace particles::cuda
