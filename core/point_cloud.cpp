#include "core/point_cloud.hpp"

#include <stdexcept>

namespace particles {

std::vector<PointRecord> points_for_count(const PointsParams& points, std::uint32_t count) {
  if (points.records == nullptr || points.record_count == 0) {
    throw std::invalid_argument(
        "the points model has no points: ModelParams::points must describe a loaded cloud");
  }
  const std::span<const PointRecord> from(points.records, points.record_count);
  if (count == points.record_count) return {from.begin(), from.end()};
  std::vector<PointRecord> out(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    out[i] = from[static_cast<std::uint64_t>(i) * from.size() / count];
  }
  return out;
}

}  // namespace particles
