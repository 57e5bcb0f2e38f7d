#include "cuda/composite/compare_view.hpp"

#include <stdexcept>

#include "core/composite/difference_heat.hpp"
#include "core/composite/split_view.hpp"
#include "cuda/common/check.hpp"

namespace particles::cuda {
namespace {

constexpr int kThreadsX = 32;
constexpr int kThreadsY = 8;

__global__ void compare_view_kernel(CompareMode mode, const PixelF* __restrict__ exact,
                                    const PixelF* drawn, int width, int height,
                                    CompositeOutput output) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= width || y >= height) return;
  const std::size_t i = static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + x;
  const PixelF v = mode == CompareMode::heat ? difference_heat(exact[i], drawn[i])
                                             : split_view_pixel(x, width, exact[i], drawn[i]);
  if (output.surface != 0) {
    surf2Dwrite(make_float4(v.r, v.g, v.b, v.a), output.surface,
                x * static_cast<int>(sizeof(float4)), y);
  } else {
    output.pixels[i] = v;
  }
}

}  // namespace

void compose_compare_view(CompareMode mode, const PixelF* exact, const PixelF* drawn, int width,
                          int height, const CompositeOutput& output, cudaStream_t stream) {
  if (output.surface == 0 && output.pixels == nullptr) {
    throw std::invalid_argument("compose_compare_view: no output surface or pixels");
  }
  if (width <= 0 || height <= 0) return;
  const dim3 threads(kThreadsX, kThreadsY);
  const dim3 blocks((width + kThreadsX - 1) / kThreadsX, (height + kThreadsY - 1) / kThreadsY);
  compare_view_kernel<<<blocks, threads, 0, stream>>>(mode, exact, drawn, width, height, output);
  CUDA_CHECK_LAUNCH("compare_view_kernel", stream);
}

}  // namespace particles::cuda
