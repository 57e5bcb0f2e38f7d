#pragma once
// Orbit camera (host only): a pose from the scene file or the mouse, turned into matrices for the
// renderer and a DepthFrame for the backends.
#include <glm/glm.hpp>
#include <span>

#include "core/extents.hpp"
#include "core/scene_desc.hpp"
#include "core/view_depth.hpp"

namespace particles {

struct CameraMatrices {
  glm::mat4 view{1.0f};
  glm::mat4 projection{1.0f};
  glm::vec3 eye{0.0f};
  glm::vec3 forward{0.0f, 0.0f, -1.0f};
};

glm::vec3 camera_eye(const CameraPose& pose);
CameraMatrices camera_matrices(const CameraPose& pose, float aspect, float near_plane,
                               float far_plane);
DepthFrame depth_frame(const CameraMatrices& m);

// Pose on a looping keyframed path at time t (seconds); the path must not be empty.
CameraPose camera_on_path(const CameraPose& base, std::span<const CameraKey> path, float t);

// Re-centres the camera on the extents and backs it off until the bounding sphere fits the view,
// and at least 1e-5 of the centre's largest coordinate away, so that the eye stays apart from
// the target in float.
CameraPose frame_extents(const CameraPose& pose, const Extents& e);

}  // namespace particles
