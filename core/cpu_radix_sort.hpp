#pragma once
// The CPU backend's sort: an LSD radix sort of (key, draw index) pairs over the key bits the
// frame uses, its passes split over cores. Stable, so the result is one order whatever the thread
// count: the one std::stable_sort gives, which the GPU tests compare against.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace particles {

// Working memory of the sorts, kept by the caller so a frame allocates nothing once warm.
struct SortScratch {
  std::array<std::vector<std::uint32_t>, 2> keys;    // ping-pong buffers of the passes
  std::array<std::vector<std::uint32_t>, 2> values;  // (draw indices)
  std::vector<std::uint32_t> counts;                 // per chunk, per digit
  std::vector<std::uint64_t> pairs;  // key << 32 | draw index (std::stable_sort, the baseline)
};

// The digits of one sort: `passes` digits of `digit_bits` bits (the last may use fewer), from
// bit 0 of key - floor. Keys that all share one value need no pass.
struct RadixPlan {
  std::uint32_t floor = 0;
  int passes = 0;
  int digit_bits = 0;
};

// The widest digit a pass sorts. Wider digits mean fewer passes over memory, but more buckets
// to scatter into at once and larger per-chunk counts; chosen by bench/cpu_sort_bench.
inline constexpr int kRadixMaxDigitBits = 11;

// Below this many pairs the sort runs on one thread: each pass joins its threads twice, and a
// join waits for the slowest, which on a busy machine is one that was not scheduled.
inline constexpr std::size_t kRadixSerialBelow = std::size_t{1} << 18;

// Plans a sort of keys whose smallest is `min_key` and largest `max_key`: ranking key - min_key
// leaves only the bits in which the frame's keys differ (a galaxy frame's exact depths span
// under 2^24 float steps: three passes, not four).
RadixPlan plan_radix(std::uint32_t min_key, std::uint32_t max_key,
                     int max_digit_bits = kRadixMaxDigitBits);

// Reorders `order` stably by keys[order[i]], ascending (far first): ties keep the incoming order.
// threads 0 takes parallel_threads(); max_digit_bits is for the benchmark's tuning.
void cpu_sort_order(std::span<const std::uint32_t> keys, std::span<std::uint32_t> order,
                    SortScratch& scratch, unsigned threads = 0,
                    int max_digit_bits = kRadixMaxDigitBits);

// The same sort when scratch.keys[0] already holds keys[order[i]] for every i (the frame-to-frame
// sort gathers them to look at the order), whose smallest is min_key and largest max_key.
void cpu_sort_gathered(std::span<std::uint32_t> order, SortScratch& scratch, std::uint32_t min_key,
                       std::uint32_t max_key, unsigned threads = 0);

}  // namespace particles
