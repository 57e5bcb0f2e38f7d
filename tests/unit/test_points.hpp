#pragma once
// A small point cloud for the tests that run every model (kAllModels): the points model runs
// over a loaded cloud, which these tests make up instead of reading a file. Host memory; the GPU
// tests upload it (tests/gpu/pipeline_test_util.hpp).
#include <cstdint>
#include <vector>

#include "core/color.hpp"
#include "core/hash.hpp"
#include "core/models/model_params.hpp"

namespace particles::test {

// 3001 points in a box round (0.5, 0, -0.5), translucent colours; a prime count, so no test's
// particle count is a multiple of it.
inline const std::vector<PointRecord>& test_points() {
  static const std::vector<PointRecord> points = [] {
    std::vector<PointRecord> p(3001);
    for (std::uint32_t i = 0; i < p.size(); ++i) {
      RandomStream rs{hash_u32(i ^ 0x5eedu)};
      const float x = 0.5f + 8.0f * (rs.next() - 0.5f);
      const float y = 5.0f * (rs.next() - 0.5f);
      const float z = -0.5f + 6.0f * (rs.next() - 0.5f);
      const Color c{rs.next(), rs.next(), rs.next(), 0.2f + 0.7f * rs.next()};
      p[i] = {x, y, z, pack_rgba8(c)};
    }
    return p;
  }();
  return points;
}

// `params` with test_points() attached when its model is the points model (a no-op otherwise).
inline ModelParams with_test_points(ModelParams params,
                                    PointMotion motion = PointMotion::turntable) {
  if (params.model != Model::points) return params;
  params.points.records = test_points().data();
  params.points.record_count = static_cast<std::uint32_t>(test_points().size());
  params.points.motion = motion;
  params.points.centre = {0.5f, 0.0f, -0.5f};
  params.points.speed = 0.6f;
  params.points.period = 2.5f;
  params.points.amplitude = 0.2f;
  return params;
}

}  // namespace particles::test
