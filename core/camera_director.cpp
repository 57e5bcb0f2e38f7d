#include "core/camera_director.hpp"

namespace particles {

CameraDirector CameraDirector::for_scene(const SceneDesc& scene) {
  return {.pose = scene.camera,
          .follow_path = !scene.camera_path.empty(),
          .frame_pending = scene.camera_auto_frame};
}

const CameraPose& CameraDirector::frame_pose(std::span<const CameraKey> path, double t) {
  if (follow_path && !path.empty()) pose = camera_on_path(pose, path, static_cast<float>(t));
  return pose;
}

void CameraDirector::on_extents(const Extents& extents) {
  if (!frame_pending || extents.empty()) return;
  pose = frame_extents(pose, extents);
  frame_pending = false;
}

}  // namespace particles
