#pragma once
// Stage 2 of the frame: one fused pass over the particle state that yields the frame's Extents
// (min/max of x, y, z, view depth min/max, max speed) in device memory, with no host sync and no
// second launch. The CPU twin is cpu_extents; min/max are exact, so the two agree bit for bit on
// identical input (the one exception: when the extreme is a zero met with both signs, either
// sign may come back, since which one is met first depends on the order of the combine).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "core/extents.hpp"
#include "core/particle.hpp"
#include "core/view_depth.hpp"

namespace particles::cuda {

// Scratch for the device-wide combine: a ticket counter and ten combine words. Its size does not
// depend on the particle count, so allocate it once.
std::size_t extents_workspace_bytes();

// Zeroes the workspace; needed once after allocating it. The kernel leaves it zeroed again when
// it finishes, so graph replays need no memset.
void init_extents_workspace(void* workspace, cudaStream_t stream);

// *out = extents of state[0, count) seen from *view. `state` must be 16-byte aligned (it is read
// as float4 pairs); `view` and `out` are device pointers, read and written when the kernel runs.
// Launches one kernel; the last block to finish writes what the blocks combined. Launches on one
// workspace must not overlap (stream order guarantees that on one stream).
void launch_extents(const ParticleState* state, std::uint32_t count, const DepthFrame* view,
                    Extents* out, void* workspace, cudaStream_t stream);

}  // namespace particles::cuda
