#pragma once
// Where the camera is for each frame of a run, one rule for the window, the bench and the soak:
// the scene's pose, framed on the particles once their extents are known when the scene asks for
// it (camera.auto_frame) or the user does (the F key), and moved along the scene's camera path
// (yaw, pitch, distance) while the path is followed. The window's hands (orbit, pan, zoom) edit
// `pose` directly and stop the path.
#include <span>

#include "core/camera.hpp"
#include "core/extents.hpp"
#include "core/scene_desc.hpp"

namespace particles {

struct CameraDirector {
  CameraPose pose;             // the next frame's pose, before the path moves it
  bool follow_path = false;    // the scene's path drives the camera (until the user takes it)
  bool frame_pending = false;  // frame `pose` on the next extents that arrive

  // A scene's start: its pose, its path followed when it has one, framed when it asks.
  static CameraDirector for_scene(const SceneDesc& scene);

  // The pose of the frame about to run at simulation time t (seconds). Following, the pose
  // keeps the path's place, so the camera stays where the path left it when the user takes it.
  const CameraPose& frame_pose(std::span<const CameraKey> path, double t);
  // A frame's extents (empty ones are ignored): a pending framing happens on the first.
  void on_extents(const Extents& extents);
  // The user asks for the particles framed: on the next extents, and the path no longer moves
  // the camera.
  void request_framing() {
    frame_pending = true;
    follow_path = false;
  }
};

}  // namespace particles
