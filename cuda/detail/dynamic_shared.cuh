#pragma once
// The block's dynamic shared memory seen as one T (the kernel's layout struct). uint4-aligned,
// which covers every layout here; launches pass sizeof(T) as the dynamic size.
#include <cuda_runtime.h>

namespace particles::cuda::detail {

template <typename T>
__device__ __forceinline__ T& dynamic_shared() {
  static_assert(alignof(T) <= alignof(uint4), "layouts need at most 16-byte alignment");
  extern __shared__ uint4 dynamic_shared_raw[];
  return *reinterpret_cast<T*>(dynamic_shared_raw);
}

}  // namespace particles::cuda::detail
