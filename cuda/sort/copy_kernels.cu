#include "cuda/sort/copy_kernels.cuh"

namespace particles::cuda::detail {

__global__ void copy_pairs_kernel(const std::uint32_t* src_keys, const std::uint32_t* src_values,
                                  std::uint32_t* dst_keys, std::uint32_t* dst_values,
                                  std::uint32_t n, const std::int32_t* enable) {
  if (disabled(enable)) return;
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x) {
    dst_keys[i] = src_keys[i];
    if (src_values != nullptr) dst_values[i] = src_values[i];
  }
}

__global__ void copy_values_to_kernel(const std::uint32_t* src, std::uint32_t* const* dst_at,
                                      std::uint32_t n, const std::int32_t* enable) {
  if (disabled(enable)) return;
  copy_words(src, *dst_at, n);
}

__global__ void identity_values_kernel(std::uint32_t* values, std::uint32_t* const* also_at,
                                       std::uint32_t n, const std::int32_t* enable) {
  if (disabled(enable)) return;
  std::uint32_t* const also = also_at != nullptr ? *also_at : nullptr;
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x) {
    values[i] = i;
    if (also != nullptr) also[i] = i;
  }
}

}  // namespace particles::cuda::detail
