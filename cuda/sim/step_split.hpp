#pragma once
// The step of auto's partition-stint frames (cuda/pipeline): launch_step_fused's stages 1-3 with
// exact keys, the particles gathered into last frame's order, and step 1 of the splitter
// partition sort done on each tile's keys while they are still in registers. The keys are never
// written in layout order: the split pairs (key, place) go straight to the sort's arrays, and a
// separate split kernel's read of 8 bytes a key and its launch are saved. The state, vertices and
// extents are bit-identical to launch_step_fused's; the split to the sort's own split kernel's
// (tests/gpu/stage_fused_test).
#include <cuda_runtime.h>

#include "cuda/sim/step_fused.hpp"
#include "cuda/sort/splitter_partition_sort.hpp"

namespace particles::cuda {

// args: as for launch_step_fused, with a gather (so state_out is apart from state_in) and no
// keys, values or key floor (the split writes the pairs: value = the particle's place). The
// splitters must be those the sort noted for args.count keys; when they are not, or a key is out
// of reach, every tile is written as it came and the verdict says so.
void launch_step_split(const FusedStepArgs& args, const PartitionSplitTarget& split,
                       cudaStream_t stream);

}  // namespace particles::cuda
