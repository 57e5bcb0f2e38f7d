#include "cuda/stages/reduce/extents_reduce.hpp"

#include <algorithm>

#include "core/scene_models.hpp"
#include "cuda/common/check.hpp"
#include "cuda/common/launch_grid.hpp"
#include "cuda/stages/reduce/extents_block.cuh"

namespace particles::cuda {
namespace {

constexpr int kThreads = 256;
using detail::ExtentsWorkspace;

// Two 16-byte loads per particle through the read-only path: the state is 32 bytes, so this is
// the whole of the stage's memory traffic.
__device__ __forceinline__ ParticleState load_state(const ParticleState* s) {
  const float4* p = reinterpret_cast<const float4*>(s);
  const float4 a = __ldg(p);
  const float4 b = __ldg(p + 1);
  return {a.x, a.y, a.z, a.w, b.x, b.y, b.z, __float_as_uint(b.w)};
}

__device__ __forceinline__ void add_particle(Extents& e, const ParticleState& s,
                                             const DepthFrame& view) {
  const Vec3 p = position_of(s);
  extents_add(e, p, view_depth(view, p), speed_of(s));
}

__global__ void __launch_bounds__(kThreads)
    extents_kernel(const ParticleState* __restrict__ state, std::uint32_t count,
                   const DepthFrame* view_in, Extents* out, ExtentsWorkspace ws) {
  const DepthFrame view = *view_in;

  // Grid-stride, four particles in flight per thread so enough loads are outstanding to reach
  // memory bandwidth with a grid of only a few blocks per SM.
  Extents e;
  const std::uint32_t stride = gridDim.x * blockDim.x;
  std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < count; i += 4 * stride) {
    ParticleState s[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) s[k] = load_state(state + i + k * stride);
#pragma unroll
    for (int k = 0; k < 4; ++k) add_particle(e, s[k], view);
  }
  for (; i < count; i += stride) add_particle(e, load_state(state + i), view);

  detail::grid_combine_extents<kThreads>(e, ws, out);
}

}  // namespace

std::size_t extents_workspace_bytes() {
  return detail::kExtentsWorkspaceBytes;
}

void init_extents_workspace(void* workspace, cudaStream_t stream) {
  CUDA_CHECK(cudaMemsetAsync(workspace, 0, detail::kExtentsWorkspaceBytes, stream));
}

void launch_extents(const ParticleState* state, std::uint32_t count, const DepthFrame* view,
                    Extents* out, void* workspace, cudaStream_t stream) {
  // Even with no particles one block runs, so *out is always written (the empty Extents).
  extents_kernel<<<detail::resident_grid_blocks(extents_kernel, count, kThreads), kThreads, 0,
                   stream>>>(state, count, view, out, detail::split_extents_workspace(workspace));
  CUDA_CHECK_LAUNCH("extents_kernel", stream);
}

}  // namespace particles::cuda
