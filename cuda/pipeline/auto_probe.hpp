#pragma once
// What the automatic sort decides from (core/auto_policy.hpp): the frame's keys laid out in last
// frame's order, and the two sortedness probes over them (launch_sortedness_probes: it zeroes
// `counts` first and leaves counts[0] = adjacent descents, counts[1] = descents at `stride`; the
// CPU twins are cpu_count_descents and cpu_count_strided_descents).
//
// Exact keys come laid out by launch_gather_keys: the fused step writes them by particle index
// and the gather reads them through last frame's order. That replaces a second, scattered read
// of every particle's 32-byte state (recomputing its depth) with a scattered 4-byte read from a
// buffer the step has just written: 12.3 against 18.9 us at 1M, 279 against 441 us at 16M (H200,
// galaxy). The probes stay a separate, coalesced pass: gathering key i + stride as well made the
// gather take 21 us at 1M, more than the probe pass it would have saved.
#include <cuda_runtime.h>

#include <cstdint>

namespace particles::cuda {

void launch_sortedness_probes(const std::uint32_t* keys, std::uint32_t count, std::uint32_t stride,
                              std::uint32_t* counts, cudaStream_t stream);

// keys[i] = keys_by_index[order[i]] for i < count.
void launch_gather_keys(const std::uint32_t* keys_by_index, const std::uint32_t* order,
                        std::uint32_t* keys, std::uint32_t count, cudaStream_t stream);

}  // namespace particles::cuda
