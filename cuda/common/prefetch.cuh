#pragma once
// Asking the L2 for a line ahead of its load: no register holds the answer and nothing waits
// for it, so a load that is not due yet costs one instruction instead of a live register.
namespace particles::cuda::detail {

template <typename T>
__device__ __forceinline__ void prefetch_l2(const T* address) {
  asm volatile("prefetch.global.L2 [%0];" ::"l"(address));
}

}  // namespace particles::cuda::detail
