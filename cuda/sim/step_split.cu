#include "cuda/sim/step_split.hpp"

#include <stdexcept>

#include "core/depth_keys.hpp"
#include "core/scene_models.hpp"
#include "cuda/detail/launch_grid.hpp"
#include "cuda/pipeline/launch_check.hpp"
#include "cuda/reduce/extents_block.cuh"
#include "cuda/sort/partition_split.cuh"

namespace particles::cuda {
namespace {

using partition::kSplittersFor;
using partition::kTileItems;
using partition::kTileThreads;
using partition::TileRank;

// A block per input tile of the partition sort (a resident grid striding over them at 16M), item
// i of a thread being place TileRank::striped_index(i) of the tile: each particle stepped as
// step_fused_kernel steps it (the same arithmetic, in the same order, under the same
// --fmad=false), then the tile's keys split. The grid's last block, found by the extents'
// ticket, also finishes the split's counts.
// Four blocks a multiprocessor (64 registers): every tile of a 1M frame (512) in one wave on the
// H200's 132 SMs.
__global__ void __launch_bounds__(kTileThreads, 4)
    step_split_kernel(FusedStepArgs a, detail::ExtentsWorkspace ws, PartitionSplitTarget split) {
  __shared__ partition::SplitShared sh;
  const float dt = *a.dt;
  ParticleVertex* vertices = *a.vertices;
  const DepthFrame view = *a.view;
  const std::uint32_t n = a.count;
  const std::uint32_t tiles = partition_buckets(n);
  // Words every block reads alike: every block splits, or none does.
  const bool can_split = split.state[kSplittersFor] == n && tiles <= kPartitionMaxBuckets;
  Extents e;
  for (std::uint32_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const std::uint32_t begin = t * kPartitionBucket;
    const int len = static_cast<int>(min(static_cast<std::uint32_t>(kPartitionBucket), n - begin));
    // Not unrolled: the model's step and vertex, inlined once per item, would take the
    // instruction cache (both models' code, eight times). Keys meet in shared memory instead.
#pragma unroll 1
    for (int q = static_cast<int>(threadIdx.x); q < len; q += kTileThreads) {
      const std::uint32_t at = begin + static_cast<std::uint32_t>(q);
      ParticleState s = a.state_in[a.gather[at]];
      if (dt != 0.0f) model_step(a.params, s, dt);
      a.state_out[at] = s;
      vertices[at] = model_vertex(a.params, s);
      const Vec3 p = position_of(s);
      const float depth = view_depth(view, p);
      extents_add(e, p, depth, speed_of(s));
      sh.values[q] = exact_depth_key(depth);
    }
    __syncthreads();
    std::uint32_t key[kTileItems], place[kTileItems];
#pragma unroll
    for (int i = 0; i < kTileItems; ++i) {
      const int q = TileRank::striped_index(i);
      place[i] = begin + static_cast<std::uint32_t>(q);
      key[i] = q < len ? sh.values[q] : 0u;
    }
    // split_tile's first barrier comes before it writes sh.values.
    if (!can_split || !partition::split_tile(key, place, t, len, tiles, split, sh))
      partition::write_tile_as_is(key, place, t, len, split);
  }
  __threadfence();  // this block's runs, sizes and flag, before the extents' ticket
  if (!detail::grid_combine_extents<kTileThreads>(e, ws, a.extents)) return;
  if (can_split) {
    partition::finish_counts(n, tiles, split);
  } else if (threadIdx.x == 0) {
    partition::write_verdict(split, false);
  }
}

}  // namespace

void launch_step_split(const FusedStepArgs& args, const PartitionSplitTarget& split,
                       cudaStream_t stream) {
  if (args.gather == nullptr || args.state_in == args.state_out)
    throw std::invalid_argument("launch_step_split: needs a gather into a state_out of its own");
  if (args.keys != nullptr || args.values != nullptr || args.key_floor != nullptr)
    throw std::invalid_argument("launch_step_split: the split writes the pairs; no keys asked");
  const std::uint32_t tiles = partition_buckets(args.count);
  // Even with no particles one block runs, so the extents and the verdict are always written.
  step_split_kernel<<<detail::resident_grid_blocks(step_split_kernel,
                                                   std::uint64_t{tiles} * kTileThreads,
                                                   kTileThreads, detail::kExtentsMaxBlocks),
                      kTileThreads, 0, stream>>>(
      args, detail::split_extents_workspace(args.extents_workspace), split);
  PARTICLES_CHECK_LAUNCH("step_split_kernel", stream);
}

}  // namespace particles::cuda
