#pragma once
// Which passes of one LSD radix sort run, and which buffers each reads and writes. Decided on the
// device by the histogram kernel's last block (the counts are only known there), and plain
// __host__ __device__ C++ so the CPU tests check every case without a device.
//
// A pass whose digit is the same for every key (one used bucket) would leave every pair where it
// is, so it is skipped: keys in a narrow range (depth keys above a known floor, nearly sorted keys
// sharing their top bits) then cost fewer passes. The run passes ping-pong between the caller's
// arrays and the engine's: run number q reads the caller's when q is even. An odd number of run
// passes leaves the result in the engine's buffers, which only matters when the caller needs the
// sorted keys, or the values without a final target; then a skipped pass is run after all (an
// identity permutation: stable, all keys in one bucket) when the pass count is even, and the
// engine's copy-back kernel brings the result home when it is odd.
#include <cstdint>

#include "cuda/sort/key_bits.hpp"
#include "cuda/sort/policy.hpp"

namespace particles::cuda {

inline constexpr int kRadixMaxPasses = 32 / kRadixBits;

struct RadixPassRoute {
  std::int32_t run_index[kRadixMaxPasses];  // run number of each pass, -1 when it is skipped
  std::int32_t final_pass;  // the pass that writes the values to a final target: the last run
                            // pass, or -1 when none runs
  std::int32_t runs;        // how many passes run
  std::int32_t copy_back;   // 1: the result ends in the engine's buffers
};

// used_buckets[p]: how many of pass p's buckets hold a key. parity_matters: the caller needs the
// result in its own arrays (sorted keys wanted, or values with no final target). values_to_write:
// the values go to a target of their own, or are to be made by the first pass (indices), so at
// least one pass must run.
PARTICLES_HD RadixPassRoute plan_radix_route(const std::uint32_t* used_buckets, int passes,
                                             bool parity_matters, bool values_to_write) {
  bool run[kRadixMaxPasses] = {};
  int runs = 0;
  for (int p = 0; p < passes; ++p) {
    run[p] = used_buckets[p] > 1;
    runs += run[p] ? 1 : 0;
  }
  if (runs == 0 && values_to_write) {  // nothing to order, but the values must be written
    run[passes - 1] = true;
    runs = 1;
  }
  if (parity_matters && runs % 2 == 1 && passes % 2 == 0) {
    for (int p = 0; p < passes; ++p) {
      if (!run[p]) {  // exists: runs is odd and passes even, so runs < passes
        run[p] = true;
        ++runs;
        break;
      }
    }
  }
  RadixPassRoute route{};
  int q = 0;
  route.final_pass = -1;
  for (int p = 0; p < kRadixMaxPasses; ++p) {
    route.run_index[p] = p < passes && run[p] ? q++ : -1;
    if (route.run_index[p] >= 0) route.final_pass = p;
  }
  route.runs = runs;
  route.copy_back = parity_matters && runs % 2 == 1 ? 1 : 0;
  return route;
}

// Window finish (RadixSortOptions::window_finish): a 32-bit sort may run only its two top passes,
// a stable sort by the top 16 bits, and leave the low 16 bits to the odd-even window sort, which
// orders every tile with a halo of 512 pairs on each side and proves the result exact (or falls
// back to its exact kernel). That is one sweep instead of two when every group of keys sharing
// the top 16 bits is short: taken only when both top digits are even (no bucket fuller than
// `skew` times the mean) and the mean group, n / 65536, is at most `max_mean_group`.
PARTICLES_HD bool window_finish_fits(std::uint32_t fullest_top, std::uint32_t fullest_second,
                                     std::uint64_t n, double skew, std::uint64_t max_mean_group) {
  const double mean_bucket = static_cast<double>(n) / kRadixBuckets;
  return n / (kRadixBuckets * kRadixBuckets) <= max_mean_group &&
         static_cast<double>(fullest_top) <= skew * mean_bucket &&
         static_cast<double>(fullest_second) <= skew * mean_bucket;
}

}  // namespace particles::cuda
