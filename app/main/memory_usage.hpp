#pragma once
// How much memory the process holds, for the soak's leak check.
#include <cstdint>
#include <optional>

namespace particles {

// Resident set size in bytes, from /proc/self/statm; nothing where that cannot be read.
std::optional<std::uint64_t> host_rss_bytes();

}  // namespace particles
