#pragma once
// Our LSD radix sort (dispatch layer). Used directly by the radix Sorter and as the exact
// fallback of the odd-even and quick sorts.
//
// Plan of one sort of n pairs by bits [b, e): passes = ceil((e - b) / 8), so only requested bits
// are visited.
//   1. one small memset (histograms, tile counters);
//   2. one histogram kernel counts the digits of every pass in a single read of the keys, and
//      bumps the epoch that stamps this sort's look-back words;
//   3. per pass one "onesweep" kernel: each block takes the next tile (atomic counter, so tiles
//      are started in order), ranks its keys in registers (warp multisplit), publishes its
//      per-digit counts, finds its global offsets by decoupled look-back over earlier tiles
//      (single-pass chained scan, no separate scan kernel), and scatters through shared memory.
//   Keys/values ping-pong between the caller's arrays and the engine's buffers; an odd pass
//   count ends with a copy back.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "cuda/detail/device_buffer.hpp"
#include "cuda/sort/policy.hpp"

namespace particles::cuda {

class RadixSortEngine {
 public:
  explicit RadixSortEngine(std::size_t capacity);

  // policy: -1 = by size (kRadixPolicyRules); otherwise an index into kRadixPolicies (the
  // benchmark's tuning table and the tests force each one). d_enable: when not null, every kernel
  // first reads *d_enable and does nothing if it is 0 (lets a sort be a device-decided fallback
  // without host sync).
  // final_values: when not null, a device word holding where the sorted values go, read when
  // the last pass runs (a graph stays valid while that target moves, e.g. a GL buffer mapped
  // anew each frame); `values` is then left holding scratch. Saves a copy of the values.
  void sort(std::uint32_t* keys, std::uint32_t* values, std::size_t n, int begin_bit, int end_bit,
            cudaStream_t stream, const std::int32_t* d_enable = nullptr, int policy = -1,
            std::uint32_t* const* final_values = nullptr);

  std::size_t capacity() const { return capacity_; }

 private:
  std::size_t capacity_;
  int sm_count_ = 0;
  DeviceBuffer<std::uint32_t> alt_keys_;
  DeviceBuffer<std::uint32_t> alt_values_;
  DeviceBuffer<std::uint32_t> control_;  // histograms, tile counters, epoch (radix_sort.cu)
  DeviceBuffer<std::uint64_t> status_;   // [passes][max tiles][256] look-back words
  std::size_t max_tiles_ = 0;
};

}  // namespace particles::cuda
