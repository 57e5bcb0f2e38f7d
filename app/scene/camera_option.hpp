#pragma once
// --camera eye=x,y,z target=x,y,z fov=deg: a view given by where the eye is and what it looks
// at, which overrides the scene's camera (its pose, path and framing), so that a view found in
// the window can be reproduced headless. The window's E key prints the current camera in this
// form (camera_option_text), ready to paste.
#include <optional>
#include <span>
#include <string>

#include "core/scene_desc.hpp"
#include "core/vec3.hpp"

namespace particles {

struct CameraView {
  Vec3 eye;
  Vec3 target;
  std::optional<float> fov_deg;  // absent: the scene's
};

// Parses the words after --camera (each may hold several "key=value" parts separated by spaces,
// so the printed text works quoted or not). eye and target are required, fov optional; each
// number finite and within the scene file's camera bounds (coordinates within +-1e6, fov in
// [1, 170]), the eye at least 1e-4 (and 1e-5 of the target's largest coordinate) from the target
// and not straight above or below it (pitch within +-89 degrees, as a scene's). Throws
// std::invalid_argument saying which part is wrong and why.
CameraView parse_camera_view(std::span<const std::string> words);

// The orbit pose of `view` (distance, yaw and pitch about the target), fov from `base` unless
// the view names one.
CameraPose camera_pose_of(const CameraView& view, const CameraPose& base);

// The scene seen from `view`: its pose replaced, its camera path and auto framing dropped.
void override_camera(SceneDesc& scene, const CameraView& view);

// "--camera eye=x,y,z target=x,y,z fov=deg" of a pose, with the digits that give the same floats
// back.
std::string camera_option_text(const CameraPose& pose);

}  // namespace particles
