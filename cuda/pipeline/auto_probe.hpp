#pragma once
// What the automatic sort decides from (core/auto_policy.hpp): the frame's keys laid out in last
// frame's order, and the two sortedness probes over them. Two ways in:
//   launch_sortedness_probes     the keys are already in that order (made from the state through
//                                the order: quantized keys, or stages run apart);
//   launch_gather_keys_probed    exact keys made by index in the fused step are gathered through
//                                last frame's order and probed in the same pass. This replaces a
//                                second read of every particle's 32-byte state, scattered, with a
//                                4-byte read from a buffer that the step has just left in L2.
// Both zero `counts` first and leave counts[0] = adjacent descents, counts[1] = descents at
// `stride` (the CPU twins: cpu_count_descents, cpu_count_strided_descents).
#include <cuda_runtime.h>

#include <cstdint>

namespace particles::cuda {

void launch_sortedness_probes(const std::uint32_t* keys, std::uint32_t count, std::uint32_t stride,
                              std::uint32_t* counts, cudaStream_t stream);

// keys[i] = keys_by_index[order[i]] for i < count, and the probes of keys, as above.
void launch_gather_keys_probed(const std::uint32_t* keys_by_index, const std::uint32_t* order,
                               std::uint32_t* keys, std::uint32_t count, std::uint32_t stride,
                               std::uint32_t* counts, cudaStream_t stream);

}  // namespace particles::cuda
