#pragma once
// The points a pipeline runs the points model over (core/models/points.hpp). A scene's
// ModelParams::points describes the loaded cloud in host memory; at reset each pipeline takes its
// own copy, made here for its particle count, and points its ModelParams at that copy (host
// memory on the CPU, an upload on CUDA), so it never depends on the scene outliving it.
#include <cstdint>
#include <span>
#include <vector>

#include "core/models/model_params.hpp"

namespace particles {

// The cloud described by `points` (host memory), resampled to `count` particles: particle i takes
// point floor(i * n / count) of the n, so fewer particles than points keep an even subsample in
// file order and more repeat each point in turn (repeats lie on top of each other). Throws
// std::invalid_argument when `points` describes no points.
std::vector<PointRecord> points_for_count(const PointsParams& points, std::uint32_t count);

}  // namespace particles
