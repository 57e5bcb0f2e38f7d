#pragma once
// Programmatic dependent launch (Hopper): a kernel launched with
// cudaLaunchAttributeProgrammaticStreamSerialization may start while the previous kernel in its
// stream is still draining, and calls wait_for_previous_grid() before it touches anything earlier
// work wrote; the wait returns once that kernel has finished and its writes are visible. Launched
// without the attribute, or built for an architecture before sm_90, the wait costs nothing.
// (Tried on the radix passes and the odd-even sort's cooperative kernel in sort_bench: no
// measurable gain, so those launch plainly; docs/notes/radix.md, "Programmatic dependent launch".
// The odd-even window sort does launch early, behind its check kernel.)
#include <cuda_runtime.h>

namespace particles::cuda::detail {

__device__ __forceinline__ void wait_for_previous_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
}

// Lets the next kernel in the stream, when it is launched early, start once every block of this
// one has called it or ended (its wait_for_previous_grid() still waits for this kernel's end).
__device__ __forceinline__ void allow_next_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  cudaTriggerProgrammaticLaunchCompletion();
#endif
}

}  // namespace particles::cuda::detail
