#pragma once
// The block's dynamic shared memory seen as one T (the kernel's layout struct). uint4-aligned,
// which covers every layout here; launches pass sizeof(T) as the dynamic size. Out-of-line device
// functions call it themselves rather than take the layout as a reference parameter: across an
// out-of-line call a reference is a generic pointer, and generic loads, stores and atomics are
// slower than shared-memory ones.
#include <cuda_runtime.h>

namespace particles::cuda::detail {

template <typename T>
__device__ __forceinline__ T& dynamic_shared() {
  static_assert(alignof(T) <= alignof(uint4), "layouts need at most 16-byte alignment");
  extern __shared__ uint4 dynamic_shared_raw[];
  return *reinterpret_cast<T*>(dynamic_shared_raw);
}

}  // namespace particles::cuda::detail
