#include "core/camera.hpp"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

#include "core/scene_models.hpp"

namespace particles {

glm::vec3 camera_eye(const CameraPose& pose) {
  const float yaw = glm::radians(pose.yaw_deg);
  const float pitch = glm::radians(pose.pitch_deg);
  // yaw 0 looks along -z, so the eye sits on +z; positive pitch raises the eye.
  const glm::vec3 offset{std::sin(yaw) * std::cos(pitch), std::sin(pitch),
                         std::cos(yaw) * std::cos(pitch)};
  return glm::vec3{pose.target.x, pose.target.y, pose.target.z} + offset * pose.distance;
}

CameraMatrices camera_matrices(const CameraPose& pose, float aspect, float near_plane,
                               float far_plane) {
  CameraMatrices m;
  const glm::vec3 target{pose.target.x, pose.target.y, pose.target.z};
  m.eye = camera_eye(pose);
  m.forward = glm::normalize(target - m.eye);
  m.view = glm::lookAt(m.eye, target, glm::vec3{0.0f, 1.0f, 0.0f});
  m.projection = glm::perspective(glm::radians(pose.fov_deg), aspect, near_plane, far_plane);
  return m;
}

DepthFrame depth_frame(const CameraMatrices& m) {
  return {{m.eye.x, m.eye.y, m.eye.z}, {m.forward.x, m.forward.y, m.forward.z}};
}

CameraPose camera_on_path(const CameraPose& base, std::span<const CameraKey> path, float t) {
  CameraPose pose = base;
  if (path.size() == 1) {
    pose.yaw_deg = path[0].yaw_deg;
    pose.pitch_deg = path[0].pitch_deg;
    pose.distance = path[0].distance;
    return pose;
  }
  const float period = path.back().time;
  if (period > 0.0f) t = std::fmod(std::max(t, 0.0f), period);
  std::size_t i = 0;
  while (i + 2 < path.size() && t >= path[i + 1].time) ++i;
  const CameraKey& a = path[i];
  const CameraKey& b = path[i + 1];
  const float span = b.time - a.time;
  const float u = span > 0.0f ? clamp01((t - a.time) / span) : 1.0f;
  pose.yaw_deg = lerp(a.yaw_deg, b.yaw_deg, u);
  pose.pitch_deg = lerp(a.pitch_deg, b.pitch_deg, u);
  pose.distance = lerp(a.distance, b.distance, u);
  return pose;
}

CameraPose frame_extents(const CameraPose& pose, const Extents& e) {
  if (e.min.x > e.max.x) return pose;  // nothing to frame
  CameraPose framed = pose;
  const Vec3 centre = (e.min + e.max) * 0.5f;
  const float radius = std::max(0.5f * length(e.max - e.min), 1e-3f);
  framed.target = centre;
  const float half_fov = glm::radians(pose.fov_deg) * 0.5f;
  // Not closer than 1e-5 of the centre's largest coordinate (the loader's floor for a scene's
  // distance too): a float's step there is 6e-8 of it, and a tiny cloud far from the origin
  // would otherwise put the eye on the target and make the view NaN.
  const float largest = std::max({std::fabs(centre.x), std::fabs(centre.y), std::fabs(centre.z)});
  framed.distance = std::max(radius / std::sin(half_fov) * 1.05f, 1e-5f * largest);
  return framed;
}

}  // namespace particles
