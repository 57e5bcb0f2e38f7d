#pragma once
// What one radix sort may do besides ordering the caller's arrays (RadixSortOptions), and the
// checks of those options against the sort's size and bit range. Plain C++, so the CPU tests
// check every refusal without a device.
#include <cstddef>
#include <cstdint>
#include <stdexcept>

namespace particles::cuda {

// What a sort may do besides ordering the caller's arrays in place.
struct RadixSortOptions {
  // When not null, every kernel first reads *enable and does nothing if it is 0 (lets a sort be a
  // device-decided fallback without host sync).
  const std::int32_t* enable = nullptr;
  // -1: the tile policy by size (kRadixPolicyRules); else an index into kRadixPolicies (the
  // benchmark's tuning table and the tests force each one).
  int policy = -1;
  // When not null, a device word holding where the sorted values go, read when the last pass runs
  // (a graph stays valid while that target moves, e.g. a GL buffer mapped anew each frame); the
  // caller's value array is then left holding scratch. Saves a copy of the values.
  std::uint32_t* const* final_values = nullptr;
  // Routing (radix_pass_route.hpp): the passes whose digit every key shares are skipped, decided
  // on the device. Costs time on every pass run (docs/notes/radix.md, "Routed radix"; a template
  // switch keeps unrouted sorts free of it), so it is asked for where digits are likely to be
  // shared; the MSD-first shortcut
  // is not planned for a routed sort.
  bool skip_shared_digits = false;
  // When not null, a device word no key is below, read when the sort runs; needs begin_bit == 0
  // and every key below 2^end_bit; implies skip_shared_digits. The sort orders key - floor, the
  // same order, so keys spanning less than 2^24 above the floor (a frame's depth keys) skip the
  // top pass.
  const std::uint32_t* key_floor = nullptr;
  // The values are 0, 1, ..., n - 1 (each pair's index) and need not be written by the caller:
  // the first pass makes them instead of reading them. Implies skip_shared_digits; refused with
  // an empty bit range (no pass would make them).
  bool values_are_indices = false;
  // When not null, a device word the sort sets to 1 when it stopped after the two top digits of a
  // 32-bit sort (radix_pass_route.hpp, window_finish_fits), leaving the pairs stably sorted by
  // the top 16 bits for the caller to finish with the odd-even window sort over all 32 bits, or
  // to 0 when it sorted completely. Needs begin_bit 0, end_bit 32, no final_values and no
  // routing; the shortcut is not planned with it.
  std::int32_t* window_finish = nullptr;
  // false: with final_values set, the sorted keys are not wanted and may be left in the engine's
  // buffers, which spares the copy back after an odd number of passes.
  bool keys_needed = true;

  // Whether the sort is routed (skips the passes whose digit every key shares).
  bool routed() const { return key_floor != nullptr || skip_shared_digits || values_are_indices; }
};

// Throws std::invalid_argument for options that cannot go together or with this sort (the
// engine's checks, before any work is enqueued). An empty sort (n < 2 or an empty bit range)
// does no pass, so only the checks that still matter there apply to it.
inline void check_radix_options(const RadixSortOptions& options, std::size_t n, int begin_bit,
                                int end_bit) {
  if (options.key_floor != nullptr && begin_bit != 0)
    throw std::invalid_argument("radix sort: a key floor needs begin_bit == 0");
  if (options.values_are_indices && begin_bit == end_bit && n > 1)
    throw std::invalid_argument("radix sort: index values need a bit range to sort by");
  if (n < 2 || begin_bit == end_bit) return;
  if (options.window_finish != nullptr &&
      (begin_bit != 0 || end_bit != 32 || options.final_values != nullptr || options.routed()))
    throw std::invalid_argument(
        "radix sort: a window finish needs bits 0..32, no final target and no routing");
}

}  // namespace particles::cuda
