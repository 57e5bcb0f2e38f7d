#pragma once
// The comparison view of a composited frame on the GPU: the exact order's image and the drawn
// order's, both composited by the TileCompositor into linear float pixels, made into the split
// view or the heat map of their difference, pixel by pixel as their CPU twins
// (core/composite/split_view.hpp, difference_heat.hpp) make them.
#include <cuda_runtime.h>

#include <cstdint>

#include "core/compare_mode.hpp"
#include "cuda/composite/tile_compositor.hpp"

namespace particles::cuda {

// exact, drawn: width * height pixels each (device memory, rows bottom first); the view goes to
// `output` (a surface, or linear pixels that may be `drawn` itself). Enqueued on `stream`.
void compose_compare_view(CompareMode mode, const PixelF* exact, const PixelF* drawn, int width,
                          int height, const CompositeOutput& output, cudaStream_t stream);

}  // namespace particles::cuda
