// The orbit camera's framing: a pose framed on any extents the models can reach has a finite
// view (issue 64: a view that is not finite draws an empty frame).
#include "core/camera.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace particles {
namespace {

bool finite_view(const CameraMatrices& m) {
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) {
      if (!std::isfinite(m.view[c][r]) || !std::isfinite(m.projection[c][r])) return false;
    }
  }
  return std::isfinite(m.forward.x) && std::isfinite(m.forward.y) && std::isfinite(m.forward.z);
}

// A cloud of one point at the edge of the world (a points scene of one vertex, without a
// [camera]): framed on its extents, the camera used to come within 0.003 of it, less than a
// float's step there (0.0625), so the eye was the target and the view NaN.
TEST(Camera, FramingATinyCloudFarAwayKeepsTheEyeApartFromTheTarget) {
  for (const Vec3 p : {Vec3{1e6f, 1e6f, 1e6f}, Vec3{-1e6f, 0.0f, 0.0f}, Vec3{0.0f, 0.0f, 3e5f}}) {
    Extents e;
    e.min = e.max = p;
    e.depth_min = e.depth_max = 1.0f;
    const CameraPose framed = frame_extents(CameraPose{}, e);
    EXPECT_EQ(framed.target.x, p.x);
    const CameraMatrices m = camera_matrices(framed, 16.0f / 9.0f, 0.01f, framed.distance + 60.0f);
    EXPECT_TRUE(finite_view(m)) << "a point at (" << p.x << ", " << p.y << ", " << p.z
                                << "), distance " << framed.distance;
  }
  // Near the origin the framing is as before: the bounding sphere fills the view.
  Extents e;
  e.min = {-1, -1, -1};
  e.max = {1, 1, 1};
  e.depth_min = 0.0f;
  e.depth_max = 1.0f;
  CameraPose pose;
  pose.fov_deg = 60.0f;
  EXPECT_NEAR(frame_extents(pose, e).distance, std::sqrt(3.0f) / 0.5f * 1.05f, 1e-4f);
}

}  // namespace
}  // namespace particles
