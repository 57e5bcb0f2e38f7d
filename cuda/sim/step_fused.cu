#include "cuda/sim/step_fused.hpp"

#include <algorithm>

#include "core/depth_keys.hpp"
#include "core/scene_models.hpp"
#include "cuda/check.hpp"
#include "cuda/detail/launch_grid.hpp"
#include "cuda/pipeline/launch_check.hpp"
#include "cuda/reduce/extents_block.cuh"

namespace particles::cuda {
namespace {

constexpr int kThreads = 256;

// Same arithmetic, in the same order, as step_kernel, extents_kernel and depth_keys_kernel (and
// the same --fmad=false), so every output is bit-identical to the three stages run apart.
__global__ void __launch_bounds__(kThreads)
    step_fused_kernel(FusedStepArgs a, detail::ExtentsWorkspace ws) {
  const float dt = *a.dt;
  ParticleVertex* vertices = *a.vertices;
  const DepthFrame view = *a.view;
  Extents e;
  const std::uint32_t stride = gridDim.x * blockDim.x;
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < a.count; i += stride) {
    ParticleState s = a.state[i];
    if (dt != 0.0f) {
      model_step(a.params, s, dt);
      a.state[i] = s;
    }
    vertices[i] = model_vertex(a.params, s);
    const Vec3 p = position_of(s);
    const float depth = view_depth(view, p);
    extents_add(e, p, depth, speed_of(s));
    if (a.keys != nullptr) {
      a.keys[i] = exact_depth_key(depth);
      a.values[i] = i;
    }
  }
  detail::grid_combine_extents<kThreads>(e, ws, a.extents);
}

}  // namespace

void launch_step_fused(const FusedStepArgs& args, cudaStream_t stream) {
  // Even with no particles one block runs, so the extents are always written (empty).
  step_fused_kernel<<<detail::resident_grid_blocks(step_fused_kernel, args.count, kThreads,
                                                   detail::kExtentsMaxBlocks),
                      kThreads, 0, stream>>>(
      args, detail::split_extents_workspace(args.extents_workspace));
  PARTICLES_CHECK_LAUNCH("step_fused_kernel", stream);
}

}  // namespace particles::cuda
