#pragma once
// The sortedness probes that the automatic sort decides with (core/auto_policy.hpp), over the
// frame's keys laid out in last frame's order. The launch zeroes `counts` first and leaves
// counts[0] = adjacent descents, counts[1] = descents at `stride`; the CPU twins are
// cpu_count_descents and cpu_count_strided_descents.
//
// The probes are a pass of their own, coalesced. Folding them into the pass that lays the keys
// out (gathering key i + stride through the order as well) made that pass take 21.2 us instead
// of 12.3 at 1M on the H200, more than the 3 us probe pass it saved.
#include <cuda_runtime.h>

#include <cstdint>

namespace particles::cuda {

void launch_sortedness_probes(const std::uint32_t* keys, std::uint32_t count, std::uint32_t stride,
                              std::uint32_t* counts, cudaStream_t stream);

}  // namespace particles::cuda
