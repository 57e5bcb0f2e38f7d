// The camera director, the one rule by which the window, the bench and the soak place the camera.
#include "core/camera_director.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace particles {
namespace {

SceneDesc scene_with_path(bool auto_frame) {
  SceneDesc scene;
  scene.camera.target = {1.0f, 2.0f, 3.0f};
  scene.camera.distance = 40.0f;
  scene.camera.yaw_deg = 10.0f;
  scene.camera_path = {{0.0f, 0.0f, 20.0f, 30.0f}, {4.0f, 90.0f, -10.0f, 50.0f}};
  scene.camera_auto_frame = auto_frame;
  return scene;
}

Extents box(Vec3 lo, Vec3 hi) {
  Extents e;
  extents_add(e, lo, 1.0f, 0.0f);
  extents_add(e, hi, 2.0f, 0.0f);
  return e;
}

void expect_same_pose(const CameraPose& a, const CameraPose& b, const char* what) {
  EXPECT_EQ(a.target.x, b.target.x) << what;
  EXPECT_EQ(a.target.y, b.target.y) << what;
  EXPECT_EQ(a.target.z, b.target.z) << what;
  EXPECT_EQ(a.distance, b.distance) << what;
  EXPECT_EQ(a.yaw_deg, b.yaw_deg) << what;
  EXPECT_EQ(a.pitch_deg, b.pitch_deg) << what;
  EXPECT_EQ(a.fov_deg, b.fov_deg) << what;
}

TEST(CameraDirector, AScenesStartFollowsItsPathAndFramesWhenItAsks) {
  const CameraDirector plain = CameraDirector::for_scene(SceneDesc{});
  EXPECT_FALSE(plain.follow_path);
  EXPECT_FALSE(plain.frame_pending);
  const CameraDirector framed = CameraDirector::for_scene(scene_with_path(true));
  EXPECT_TRUE(framed.follow_path);
  EXPECT_TRUE(framed.frame_pending);
}

// The poses the bench and the soak computed before the director: the scene's pose framed once on
// the first extents, and the path applied to that framed pose each frame.
TEST(CameraDirector, GivesTheBenchsPosesFrameByFrame) {
  const SceneDesc scene = scene_with_path(true);
  const Extents first = box({-5.0f, -1.0f, -5.0f}, {5.0f, 1.0f, 5.0f});
  const Extents later = box({-50.0f, -1.0f, -50.0f}, {50.0f, 1.0f, 50.0f});
  CameraDirector director = CameraDirector::for_scene(scene);
  CameraPose base = scene.camera;
  bool pending = true;
  double t = 0.0;
  for (int frame = 0; frame < 40; ++frame, t += 0.25) {
    const CameraPose want = camera_on_path(base, scene.camera_path, static_cast<float>(t));
    expect_same_pose(director.frame_pose(scene.camera_path, t), want, "frame");
    const Extents& e = frame == 0 ? Extents{} : frame == 1 ? first : later;  // none at first
    director.on_extents(e);
    if (pending && !e.empty()) {
      base = frame_extents(base, e);
      pending = false;
    }
  }
  EXPECT_FALSE(director.frame_pending);
  EXPECT_EQ(director.pose.target.x, 0.0f);  // framed on `first`, never on `later`
}

TEST(CameraDirector, TheUserTakesTheCameraWhereThePathLeftIt) {
  const SceneDesc scene = scene_with_path(false);
  CameraDirector director = CameraDirector::for_scene(scene);
  const CameraPose on_path = director.frame_pose(scene.camera_path, 2.0);
  EXPECT_EQ(on_path.yaw_deg, 45.0f);  // half way from 0 to 90
  director.follow_path = false;       // a drag, the C key
  expect_same_pose(director.frame_pose(scene.camera_path, 3.0), on_path, "stopped");
  director.follow_path = true;
  EXPECT_EQ(director.frame_pose(scene.camera_path, 3.0).yaw_deg, 67.5f);
}

TEST(CameraDirector, AFramingAskedForStopsThePathAndHappensOnTheNextExtents) {
  const SceneDesc scene = scene_with_path(false);
  CameraDirector director = CameraDirector::for_scene(scene);
  director.frame_pose(scene.camera_path, 1.0);
  director.request_framing();
  EXPECT_FALSE(director.follow_path);
  director.on_extents(Extents{});  // nothing to frame yet
  EXPECT_TRUE(director.frame_pending);
  const CameraPose before = director.pose;
  director.on_extents(box({10.0f, 0.0f, 0.0f}, {12.0f, 2.0f, 2.0f}));
  EXPECT_FALSE(director.frame_pending);
  EXPECT_EQ(director.pose.target.x, 11.0f);
  EXPECT_EQ(director.pose.yaw_deg, before.yaw_deg);  // framing moves the target and distance only
  expect_same_pose(director.frame_pose(scene.camera_path, 5.0), director.pose, "path stopped");
}

}  // namespace
}  // namespace particles
