#pragma once
// Small helper kernels shared by several sorters and the pipeline (copy_kernels.cu).
#include <cstdint>

#include "cuda/common/enable_word.cuh"

namespace particles::cuda::detail {

// The grid of the enable-gated copies of a frame (the draw order into the GL buffer): a block of
// kCopyThreads per SM. Disabled, such a launch still schedules every block, so it is kept small
// (faster than 8 blocks of 256 per SM in auto's order stage: docs/notes/frame.md);
// enabled, each thread keeps four 16-byte loads in flight.
inline constexpr unsigned kCopyThreads = 512;

// dst[i] = src[i] for i < n, by every thread of the grid. Whole 16-byte vectors when both arrays
// are so aligned, the few words past the last vector (or every word otherwise) one by one.
__device__ inline void copy_words(const std::uint32_t* __restrict__ src,
                                  std::uint32_t* __restrict__ dst, std::uint32_t n) {
  const std::uint32_t first = blockIdx.x * blockDim.x + threadIdx.x;
  const std::uint32_t stride = gridDim.x * blockDim.x;
  std::uint32_t scalar_from = 0;
  if (((reinterpret_cast<std::uintptr_t>(src) | reinterpret_cast<std::uintptr_t>(dst)) & 15u) ==
      0) {
    constexpr std::uint32_t kDepth = 4;
    const auto* src4 = reinterpret_cast<const uint4*>(src);
    auto* dst4 = reinterpret_cast<uint4*>(dst);
    const std::uint32_t vectors = n / 4;
    for (std::uint32_t v = first; v < vectors; v += stride * kDepth) {
      uint4 held[kDepth];
#pragma unroll
      for (std::uint32_t k = 0; k < kDepth; ++k)
        if (v + k * stride < vectors) held[k] = src4[v + k * stride];
#pragma unroll
      for (std::uint32_t k = 0; k < kDepth; ++k)
        if (v + k * stride < vectors) dst4[v + k * stride] = held[k];
    }
    scalar_from = vectors * 4;
  }
  for (std::uint32_t i = scalar_from + first; i < n; i += stride) dst[i] = src[i];
}

// dst[i] = src[i] for keys and values (keys only when src_values is null); skipped entirely when
// enable is set and *enable == 0.
__global__ void copy_pairs_kernel(const std::uint32_t* src_keys, const std::uint32_t* src_values,
                                  std::uint32_t* dst_keys, std::uint32_t* dst_values,
                                  std::uint32_t n, const std::int32_t* enable);

// (*dst_at)[i] = src[i]: the destination address is read when the kernel runs.
__global__ void copy_values_to_kernel(const std::uint32_t* src, std::uint32_t* const* dst_at,
                                      std::uint32_t n, const std::int32_t* enable);

// values[i] = i, and the same to *also_at when also_at is not null (the address read when the
// kernel runs): the identity order, or the sort of keys too few or too alike to compare, each
// value its place. Skipped when enable is set and *enable == 0.
__global__ void identity_values_kernel(std::uint32_t* values, std::uint32_t* const* also_at,
                                       std::uint32_t n, const std::int32_t* enable);

}  // namespace particles::cuda::detail
