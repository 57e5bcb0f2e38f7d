#pragma once
// What one call of a sorter is asked to do (SortRequest), what each sorter can do besides
// ordering the caller's arrays (SorterTraits), and the check of the one against the other.
// Plain C++ with no CUDA types, so the CPU tests check every refusal without a device.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace particles::cuda {

// n (key, value) pairs sorted by key bits [begin_bit, end_bit), and the work the frame may hand
// the sort besides. Every pointer is device memory. The options default to "not asked for"; a
// sorter that cannot honour one that is asked for refuses the request (check_sort_request), so
// none is ever silently ignored.
struct SortRequest {
  std::uint32_t* keys = nullptr;
  std::uint32_t* values = nullptr;
  std::size_t n = 0;
  int begin_bit = 0;
  int end_bit = 32;
  // A device word read when the sort runs: 0 and the sort does nothing at all. Lets a path be
  // chosen on the device inside a fixed CUDA graph, without a host round trip (auto).
  const std::int32_t* enable = nullptr;
  // A device word holding where the sorted values go, read when the last pass runs, so a graph
  // stays valid while that target moves (a GL buffer mapped anew each frame); the caller's value
  // array is then left holding scratch. Spares the frame a copy of its draw order.
  std::uint32_t* const* final_values = nullptr;
  // A device word no key is below, read when the sort runs; needs begin_bit == 0 and every key
  // below 2^end_bit. A sort may order key - floor, the same order, and so skip digits every key
  // shares above the floor.
  const std::uint32_t* key_floor = nullptr;
  // The values are 0, 1, ..., n - 1 and need not be written by the caller: the sort makes them.
  bool values_are_indices = false;
  // Permissions and facts rather than work, so every sorter accepts them (honouring either only
  // saves time):
  // false: with final_values, the sorted keys are not wanted and may be left as scratch.
  bool keys_needed = true;
  // The keys' top varying digit is crowded (a frame's depth keys: below the bits every key shares,
  // one 8-bit bucket holds far more keys than one block sorts), so a strategy betting on a thin
  // top digit (radix's MSD-first shortcut) would only add empty launches and is not planned.
  bool top_digit_crowded = false;
};

// The options of SortRequest a sorter honours (each false: refused when asked for).
struct SorterTraits {
  bool enable = false;
  bool final_values = false;
  bool key_floor = false;
  bool values_are_indices = false;
};

// Throws std::invalid_argument, naming the sorter, when the request exceeds its capacity, has a
// bad bit range or asks for an option the sorter does not honour; before any work is enqueued.
inline void check_sort_request(const SortRequest& request, std::size_t capacity,
                               const SorterTraits& traits, std::string_view sorter) {
  const std::string who = std::string(sorter) + " sort: ";
  if (request.n > capacity)
    throw std::invalid_argument(who + "sort of " + std::to_string(request.n) +
                                " pairs exceeds capacity " + std::to_string(capacity));
  if (request.begin_bit < 0 || request.end_bit > 32 || request.begin_bit > request.end_bit)
    throw std::invalid_argument(who + "bad key bit range [" + std::to_string(request.begin_bit) +
                                ", " + std::to_string(request.end_bit) + ")");
  auto refuse_unless = [&](bool asked, bool honoured, const char* option) {
    if (asked && !honoured)
      throw std::invalid_argument(who + "does not support SortRequest::" + option);
  };
  refuse_unless(request.enable != nullptr, traits.enable, "enable");
  refuse_unless(request.final_values != nullptr, traits.final_values, "final_values");
  refuse_unless(request.key_floor != nullptr, traits.key_floor, "key_floor");
  refuse_unless(request.values_are_indices, traits.values_are_indices, "values_are_indices");
}

}  // namespace particles::cuda
