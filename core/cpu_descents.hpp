#pragma once
// Counting the pairs of an order whose keys are out of ascending order: adjacent ones (the order
// error, auto's "already sorted" probe) and pairs a stride apart (auto's "nothing far from its
// place" probe). The CPU backend's auto counts over the keys it has gathered in draw order, the
// tests and the order error through the order itself; both count with the one loop below, so the
// two can never disagree on what a strided descent is.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/parallel_for.hpp"

namespace particles {

// Positions i in [0, n - stride) with key_at(i) > key_at(i + stride), over `chunks` contiguous
// chunks run in parallel. key_at(i) is the key at draw position i.
template <class KeyAt>
std::uint64_t count_strided_descents(std::size_t n, std::size_t stride, unsigned chunks,
                                     const KeyAt& key_at) {
  if (n <= stride) return 0;
  std::vector<std::uint64_t> partial(chunks, 0);
  parallel_for_chunks(n - stride, chunks, [&](std::size_t c, std::size_t begin, std::size_t end) {
    std::uint64_t descents = 0;
    for (std::size_t i = begin; i < end; ++i) descents += key_at(i) > key_at(i + stride) ? 1 : 0;
    partial[c] = descents;
  });
  std::uint64_t all = 0;
  for (const std::uint64_t d : partial) all += d;
  return all;
}

// Adjacent pairs of `order` whose keys are out of ascending order.
std::uint64_t cpu_count_descents(std::span<const std::uint32_t> keys,
                                 std::span<const std::uint32_t> order);
// Pairs (order[i], order[i + stride]) whose keys are out of ascending order, over all cores.
std::uint64_t cpu_count_strided_descents(std::span<const std::uint32_t> keys,
                                         std::span<const std::uint32_t> order,
                                         std::uint32_t stride);

}  // namespace particles
