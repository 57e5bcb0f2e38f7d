#include "core/cpu_descents.hpp"

namespace particles {

std::uint64_t cpu_count_descents(std::span<const std::uint32_t> keys,
                                 std::span<const std::uint32_t> order) {
  std::uint64_t descents = 0;
  for (std::size_t i = 1; i < order.size(); ++i) {
    descents += keys[order[i - 1]] > keys[order[i]] ? 1 : 0;
  }
  return descents;
}

std::uint64_t cpu_count_strided_descents(std::span<const std::uint32_t> keys,
                                         std::span<const std::uint32_t> order,
                                         std::uint32_t stride) {
  return count_strided_descents(order.size(), stride, parallel_threads(),
                                [&](std::size_t i) { return keys[order[i]]; });
}

}  // namespace particles
