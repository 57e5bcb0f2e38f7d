#include "cuda/stages/reduce/extents_fold.hpp"

#include "cuda/common/check.hpp"
#include "cuda/stages/reduce/extents_block.cuh"

namespace particles::cuda {
namespace {

constexpr int kFoldThreads = 256;

__global__ void __launch_bounds__(kFoldThreads)
    extents_fold_kernel(const std::uint32_t* __restrict__ partials, std::uint32_t blocks,
                        Extents* out) {
  // 0 is below every combine word, as the grid combine's words start.
  unsigned words[detail::kCombineWords] = {};
  for (std::uint32_t b = threadIdx.x; b < blocks; b += kFoldThreads) {
#pragma unroll
    for (int k = 0; k < detail::kCombineWords; ++k)
      words[k] = max(words[k], partials[b * detail::kCombineWords + k]);
  }
  __shared__ unsigned block_words[detail::kCombineWords];
  if (threadIdx.x < detail::kCombineWords) block_words[threadIdx.x] = 0;
  __syncthreads();
#pragma unroll
  for (int k = 0; k < detail::kCombineWords; ++k) {
    const unsigned warp_max = __reduce_max_sync(0xffffffffu, words[k]);
    if ((threadIdx.x & 31u) == 0) atomicMax(&block_words[k], warp_max);
  }
  __syncthreads();
  if (threadIdx.x < detail::kCombineWords)
    detail::write_combined(static_cast<int>(threadIdx.x), block_words[threadIdx.x], out, nullptr);
}

}  // namespace

void launch_extents_fold(const std::uint32_t* partials, std::uint32_t blocks, Extents* out,
                         cudaStream_t stream) {
  extents_fold_kernel<<<1, kFoldThreads, 0, stream>>>(partials, blocks, out);
  CUDA_CHECK_LAUNCH("extents_fold_kernel", stream);
}

}  // namespace particles::cuda
