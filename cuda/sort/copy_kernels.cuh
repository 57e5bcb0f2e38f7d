#pragma once
// Small helper kernels shared by several sorters.
#include <cstdint>

namespace particles::cuda::detail {

// dst[i] = src[i] for keys and values (keys only when src_values is null); skipped entirely when
// enable is set and *enable == 0.
__global__ void copy_pairs_kernel(const std::uint32_t* src_keys, const std::uint32_t* src_values,
                                  std::uint32_t* dst_keys, std::uint32_t* dst_values,
                                  std::uint32_t n, const std::int32_t* enable);

// (*dst_at)[i] = src[i]: the destination address is read when the kernel runs.
__global__ void copy_values_to_kernel(const std::uint32_t* src, std::uint32_t* const* dst_at,
                                      std::uint32_t n, const std::int32_t* enable);

}  // namespace particles::cuda::detail
