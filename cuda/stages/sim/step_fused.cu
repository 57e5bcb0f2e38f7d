#include "cuda/stages/sim/step_fused.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/depth_keys.hpp"
#include "core/scene_models.hpp"
#include "cuda/auto/partition_append.cuh"
#include "cuda/common/check.hpp"
#include "cuda/common/launch_grid.hpp"
#include "cuda/common/prefetch.cuh"
#include "cuda/common/warp.cuh"
#include "cuda/stages/reduce/extents_block.cuh"

namespace particles::cuda {
namespace {

constexpr int kThreads = 256;

// Same arithmetic, in the same order, as step_kernel, extents_kernel and depth_keys_kernel (and
// the same --fmad=false), so every output is bit-identical to the three stages run apart.
// One instantiation per model (core/scene_models.hpp, with_model).
template <Model M>
__global__ void __launch_bounds__(kThreads)
    step_fused_kernel(FusedStepArgs a, detail::ExtentsWorkspace ws) {
  const float dt = *a.dt;
  ParticleVertex* vertices = *a.vertices;
  const DepthFrame view = *a.view;
  Extents e;
  std::uint32_t key_min = 0xffffffffu;
  const bool in_place = a.state_in == a.state_out;
  const bool appends = a.keys != nullptr && detail::partition_appends(a.append, a.count);
  const std::uint32_t buckets = partition_buckets(a.count);
  const std::uint32_t stride = gridDim.x * blockDim.x;
  // A round's keys are appended one round late, while the next round's particle loads are in
  // flight: an append waits for its splitter reads and its atomic. (H200, galaxy 1M, auto: 34 us
  // without appends, 49 with them in their own round, 48 a round late; asking for the slots
  // before the round's work and taking them after it gained nothing more.)
  bool held = false, held_valid = false;
  std::uint32_t held_key = 0, held_first = 0;
  __shared__ detail::BlockAppendShared append_shared;
  detail::BlockAppender appender(a.append, buckets, append_shared);
  if (appends) __syncthreads();
  // Whole blocks go round together, so that the appends can gather a round's keys.
  for (std::uint32_t first = blockIdx.x * blockDim.x; first < a.count; first += stride) {
    const std::uint32_t i = first + threadIdx.x;
    const bool valid = i < a.count;
    // The state load waits for its gather index: with next round's index lines asked for now,
    // that wait is on the L2 rather than DRAM. (H200, galaxy 1M auto 48.4-48.8 -> 48.0-48.4 us
    // in three A/B runs; the index two rounds ahead gained less, and the state's own lines asked
    // for a round ahead, by place, cost 0.3-0.5 us.)
    if (a.gather != nullptr && i + stride < a.count) detail::prefetch_l2(a.gather + i + stride);
    // A whole 32-byte state per particle, so a gather costs no more sectors than a straight read.
    ParticleState s{};
    if (valid) s = a.state_in[a.gather != nullptr ? a.gather[i] : i];
    if (appends && held) appender.append(held_first, held_valid, held_key);
    std::uint32_t key = 0;
    if (valid) {
      if (dt != 0.0f) model_step_as<M>(a.params, s, dt);
      if (dt != 0.0f || !in_place) a.state_out[i] = s;
      vertices[i] = model_vertex_as<M>(a.params, s);
      if constexpr (model_scales_sprites(M)) {
        (*a.sprite_scales)[i] = model_sprite_scale_as<M>(a.params, s);
      }
      const Vec3 p = position_of(s);
      const float depth = view_depth(view, p);
      extents_add(e, p, depth, speed_of(s));
      if (a.keys != nullptr) {
        key = exact_depth_key(depth);
        // Appended with a place for the fallback's keys, a key needs no store of its own.
        if (!appends || a.append.keys_by_place == nullptr) a.keys[i] = key;
        if (a.values != nullptr) a.values[i] = i;
        key_min = min(key_min, key);
      }
    }
    held = true;
    held_valid = valid;
    held_key = key;
    held_first = first;
  }
  if (appends && held) {
    appender.append(held_first, held_valid, held_key);
    appender.finish();
  }
  if (a.extents_partials != nullptr) {
    detail::store_block_extents<kThreads>(e, a.extents_partials);
  } else {
    // The key floor rides on the extents' combine as its extra minimum.
    detail::grid_combine_extents<kThreads>(e, ws, a.extents, key_min, a.key_floor);
  }
}

}  // namespace

std::uint32_t fused_step_blocks(Model model, std::uint32_t count) {
  // Even with no particles one block runs, so the extents are always written (empty).
  return with_model(model, [&](auto tag) {
    return detail::resident_grid_blocks(step_fused_kernel<decltype(tag)::model>, count, kThreads);
  });
}

void launch_step_fused(const FusedStepArgs& args, cudaStream_t stream) {
  if (args.gather != nullptr && args.state_in == args.state_out) {
    throw std::invalid_argument(
        "launch_step_fused: a gather needs a state_out apart from state_in");
  }
  if (args.extents_partials != nullptr && args.key_floor != nullptr) {
    throw std::invalid_argument(
        "launch_step_fused: the key floor needs the extents' combine, not partials");
  }
  if (model_scales_sprites(args.params.model) && args.sprite_scales == nullptr) {
    throw std::invalid_argument(
        "launch_step_fused: this model sizes its sprites: no sprite scale target");
  }
  const unsigned blocks = fused_step_blocks(args.params.model, args.count);
  with_model(args.params.model, [&](auto tag) {
    step_fused_kernel<decltype(tag)::model><<<blocks, kThreads, 0, stream>>>(
        args, detail::split_extents_workspace(args.extents_workspace));
  });
  CUDA_CHECK_LAUNCH("step_fused_kernel", stream);
}

}  // namespace particles::cuda
