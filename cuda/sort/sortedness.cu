// The descent-count reduction (see sortedness.hpp).
#include <stdexcept>

#include "cuda/common/check.hpp"
#include "cuda/common/launch_grid.hpp"
#include "cuda/common/warp.cuh"
#include "cuda/sort/key_bits.hpp"
#include "cuda/sort/sortedness.hpp"

namespace particles::cuda {
namespace {

constexpr int kDescentThreads = 256;
constexpr int kDescentBlocksPerSm = 4;

__global__ void __launch_bounds__(kDescentThreads)
    count_descents_kernel(const std::uint32_t* keys, std::uint32_t n, KeyBits bits,
                          std::uint32_t* out) {
  std::uint32_t local = 0;
  for (std::uint32_t i = blockIdx.x * kDescentThreads + threadIdx.x; i + 1 < n;
       i += gridDim.x * kDescentThreads)
    local += bits(keys[i]) > bits(keys[i + 1]) ? 1u : 0u;
  // Tree reduction: within each warp by shuffles, then the warp totals in shared memory. Every
  // thread reaches both barriers (no barrier inside a divergent branch).
  local = __reduce_add_sync(detail::kFullMask, local);
  __shared__ std::uint32_t warp_totals[kDescentThreads / 32];
  if (detail::lane_id() == 0) warp_totals[detail::warp_id()] = local;
  __syncthreads();
  if (threadIdx.x < 32) {
    std::uint32_t v = threadIdx.x < kDescentThreads / 32 ? warp_totals[threadIdx.x] : 0u;
    v = __reduce_add_sync(detail::kFullMask, v);
    if (threadIdx.x == 0 && v != 0) atomicAdd(out, v);
  }
}

}  // namespace

void count_descents(const std::uint32_t* keys, std::size_t n, int begin_bit, int end_bit,
                    std::uint32_t* d_count_out, cudaStream_t stream) {
  if (begin_bit < 0 || end_bit > 32 || begin_bit > end_bit)
    throw std::invalid_argument("count_descents: bad key bit range");
  if (n > 0xffffffffu) throw std::invalid_argument("count_descents: n above 2^32 - 1");
  CUDA_CHECK(cudaMemsetAsync(d_count_out, 0, sizeof(std::uint32_t), stream));
  if (n < 2 || begin_bit == end_bit) return;
  const unsigned blocks = detail::grid_stride_blocks(n, kDescentThreads, kDescentBlocksPerSm);
  count_descents_kernel<<<blocks, kDescentThreads, 0, stream>>>(
      keys, static_cast<std::uint32_t>(n), KeyBits{begin_bit, end_bit}, d_count_out);
  CUDA_CHECK_LAUNCH("count_descents_kernel", stream);
}

}  // namespace particles::cuda
