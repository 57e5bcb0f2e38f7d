#pragma once
// Stages 1-3 of the frame in one pass over the particles: simulate and write the vertex, fold the
// particle into the frame's extents (stage 2), and, when the keys need nothing but the view
// (exact keys, sorted from the identity order), write its depth key and index (stage 3). Each
// particle's state is then read once per frame instead of three times; at 1M particles that
// saves two launches and ~60 MB of traffic. The stage twins stay the reference: the result is
// bit-identical to launch_step + launch_extents + launch_depth_keys (tests/gpu/stage_fused_test).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "core/extents.hpp"
#include "core/particle.hpp"
#include "core/scene_desc.hpp"
#include "core/view_depth.hpp"
#include "cuda/auto/partition_append.hpp"

namespace particles::cuda {

struct FusedStepArgs {
  ModelParams params;
  // Particle i of this frame is state_in[gather[i]] (state_in[i] without a gather), stepped into
  // state_out[i] (not stepped when *dt == 0). state_out may be state_in only without a gather.
  // The gather is how auto keeps its particles laid out in last frame's draw order: its keys
  // then come out of this pass nearly sorted, with no separate gather of keys or state.
  const ParticleState* state_in = nullptr;
  ParticleState* state_out = nullptr;
  const std::uint32_t* gather = nullptr;  // optional; may be `values` (read before written)
  std::uint32_t count = 0;
  const float* dt = nullptr;                  // device memory, read when the kernel runs
  ParticleVertex* const* vertices = nullptr;  // device memory holding the target's address
  // Device memory holding the sprite scale target's address, for a model that sizes its sprites
  // (model_scales_sprites; unused by the others, may be null for them).
  float* const* sprite_scales = nullptr;
  const DepthFrame* view = nullptr;   // device memory
  Extents* extents = nullptr;         // device memory, written once per launch
  void* extents_workspace = nullptr;  // see extents_workspace_bytes()
  // Optional: instead of combining the extents (extents, extents_workspace unused), each block
  // stores its combine words here (store_block_extents), fused_step_blocks(model, count) * 10
  // words, for launch_extents_fold to combine in a launch of its own. Not with key_floor.
  std::uint32_t* extents_partials = nullptr;
  std::uint32_t* keys = nullptr;    // nullptr: no keys; else exact keys by index
  std::uint32_t* values = nullptr;  // with keys, optional: values[i] = i
  // With keys, optional: *key_floor gets the smallest key written (the radix sort's key floor,
  // RadixSortOptions), combined with the extents.
  std::uint32_t* key_floor = nullptr;
  // With keys, optional: each key also appended, with its index, to the splitter partition
  // sort's buckets (partition_append.cuh), while its splitters are for `count` keys. An appended
  // key is not stored in `keys` when append.keys_by_place is set (the append and the sort put
  // it there when the sort's fallback needs it).
  PartitionAppend append;
};

void launch_step_fused(const FusedStepArgs& args, cudaStream_t stream);

// The blocks launch_step_fused runs for `count` particles of `model` (FusedStepArgs::
// extents_partials); each model has its own kernel, so its own occupancy.
std::uint32_t fused_step_blocks(Model model, std::uint32_t count);

}  // namespace particles::cuda
