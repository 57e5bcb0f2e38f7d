#pragma once
// The last step of an extents reduction whose blocks each stored their ten combine words
// (store_block_extents in extents_block.cuh) instead of combining them at the grid's end: one
// block folds those words and writes the Extents. A separate launch, so that it can run beside
// whatever follows the reducing kernel (the pipeline's partition stint runs it on a graph branch
// next to the bucket sort) instead of at that kernel's end.
#include <cuda_runtime.h>

#include <cstdint>

#include "core/extents.hpp"

namespace particles::cuda {

// *out = the fold of partials[b * 10 + k] for blocks b in [0, blocks) (device memory, the words
// as store_block_extents wrote them). Exact as the grid combine is: the same words, maxed in any
// order, give the same result.
void launch_extents_fold(const std::uint32_t* partials, std::uint32_t blocks, Extents* out,
                         cudaStream_t stream);

}  // namespace particles::cuda
