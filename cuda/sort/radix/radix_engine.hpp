#pragma once
// Our LSD radix sort (dispatch layer). Used directly by the radix Sorter and the frame pipeline,
// and as the exact fallback of the quicksort.
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
//   count ends with a copy back when the caller needs the result in place. Routed sorts
//   (RadixSortOptions::skip_shared_digits, key_floor) skip the passes whose digit every key
//   shares, decided on the device (radix_pass_route.hpp).
// MSD-first shortcut (policy.hpp, kRadixBucketPolicies), planned by size. The histogram kernel
// finds the highest digit whose keys differ (the digits above it are shared by every key, as the
// sign and exponent bits of float depths often are); when every bucket of that digit fits one
// block, only that digit's pass runs, partitioning the pairs, and one block per bucket sorts it by
// the lower bits in shared memory (radix_bucket_sort.cuh): two sweeps over memory instead of up
// to four. Otherwise every pass runs as plain LSD. All kernels of both paths are launched (a
// graph stays fixed); those of the path not taken return at once. Both paths are exact and
// stable.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "cuda/common/device_buffer.hpp"
#include "cuda/sort/policy.hpp"
#include "cuda/sort/radix/radix_options.hpp"
#include "cuda/sort/radix/radix_pass_route.hpp"
#include "cuda/sort/radix/radix_plan.hpp"

namespace particles::cuda {

namespace detail {
// The device words of one sort besides the look-back status (radix_sort.cu).
struct RadixControl {
  static constexpr int kMaxPasses = kRadixMaxPasses;
  std::uint32_t hist[kMaxPasses][kRadixBuckets];  // digit counts of every pass
  std::uint32_t tile_counters[kMaxPasses];        // tiles started, per pass
  std::uint32_t blocks_done;                      // histogram blocks finished
  // Cleared per sort up to here; the words below are written, not accumulated, and the epoch
  // starts at zero once.
  std::uint32_t epoch;          // stamps this sort's look-back words
  std::int32_t partition_pass;  // the shortcut's partition pass, or -1: plain LSD
  std::int32_t lsd_on;          // 1 when plain LSD runs (enables the odd-pass copy back)
  std::int32_t window_skip;     // window finish: the low passes' early-return word
  RadixPassRoute route;         // routed sorts: which passes run; copy_back enables the copy
};
}  // namespace detail

class RadixSortEngine {
 public:
  explicit RadixSortEngine(std::size_t capacity);

  // Sorts the pairs stably by key bits [begin_bit, end_bit) on `stream`; see RadixSortOptions.
  void sort(std::uint32_t* keys, std::uint32_t* values, std::size_t n, int begin_bit, int end_bit,
            cudaStream_t stream, const RadixSortOptions& options = {});

  std::size_t capacity() const { return capacity_; }

  void set_shortcut(RadixShortcut mode) { shortcut_ = mode; }
  // -1: the bucket-sort policy by size; otherwise an index into kRadixBucketPolicies (tuning).
  void set_bucket_policy(int index) { bucket_policy_ = index; }
  // The pass whose digit partitioned the last sort when it took the shortcut, else -1 (not
  // planned, or a bucket too full). Synchronises with the device: tests and diagnostics only.
  int last_partition_pass() const;
  bool last_sort_took_shortcut() const { return last_partition_pass() >= 0; }
  // The passes the last sort ran when it was routed (skipped ones left out), else -1.
  // Synchronises with the device: tests and diagnostics only.
  int last_run_passes() const;

 private:
  // The steps of one sort, in the order it enqueues them. The frame's sorts are routed
  // (histogram, passes, maybe the copy back); the MSD-first shortcut's bucket sorts and the
  // window finish serve the library's radix Sorter and the benchmarks (docs/notes/radix.md).
  struct Run;
  Run plan(std::size_t n, int begin_bit, int end_bit, const RadixSortOptions& options) const;
  void enqueue_empty_sort(std::uint32_t* values, std::size_t n, const RadixSortOptions& options,
                          cudaStream_t stream);
  void enqueue_histogram(const Run& run, const std::uint32_t* keys, const RadixSortOptions& options,
                         cudaStream_t stream);
  void enqueue_passes(const Run& run, std::uint32_t* keys, std::uint32_t* values,
                      const RadixSortOptions& options, cudaStream_t stream);
  void enqueue_shortcut_buckets(const Run& run, std::uint32_t* keys, std::uint32_t* values,
                                const RadixSortOptions& options, cudaStream_t stream);
  void enqueue_copy_back(const Run& run, std::uint32_t* keys, std::uint32_t* values,
                         const RadixSortOptions& options, cudaStream_t stream);

  std::size_t capacity_;
  int sm_count_ = 0;
  DeviceBuffer<std::uint32_t> alt_keys_;
  DeviceBuffer<std::uint32_t> alt_values_;
  DeviceBuffer<detail::RadixControl> control_;  // one
  DeviceBuffer<std::uint64_t> status_;          // [passes][max tiles][256] look-back words
  std::size_t max_tiles_ = 0;
  RadixShortcut shortcut_ = RadixShortcut::by_size;
  int bucket_policy_ = -1;
  bool shortcut_planned_ = false;  // by the last sort
  bool routed_ = false;            // the last sort
};

}  // namespace particles::cuda
