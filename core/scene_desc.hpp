#pragma once
// Everything a scene file says, after validation. Plain data: the loader fills it, backends and
// the renderer read it.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/color.hpp"
#include "core/models/model_params.hpp"
#include "core/vec3.hpp"

namespace particles {

struct CameraPose {
  Vec3 target{0.0f, 0.0f, 0.0f};
  float distance = 25.0f;
  float yaw_deg = 30.0f;    // about +y, 0 looks along -z
  float pitch_deg = 25.0f;  // above the horizon, positive looks down
  float fov_deg = 50.0f;
};

// A keyframe of the optional camera path; poses are interpolated linearly and the path loops.
struct CameraKey {
  float time = 0.0f;
  float yaw_deg = 0.0f;
  float pitch_deg = 0.0f;
  float distance = 25.0f;
};

struct SceneDesc {
  std::string name;
  std::string source_path;
  std::string points_path;         // the PLY file model.points.file names, as opened; else empty
  std::uint32_t count = 1u << 20;  // particles on the CUDA backend
  std::uint32_t cpu_count = 1u << 17;  // particles on the CPU backend, unless --count says
  ModelParams params;
  float sprite_size = 0.08f;  // world-space sprite diameter
  // The count sprite_size was chosen for; at other counts sprites are resized to keep the look
  // (core/sprite_size_at_count.hpp). 0: sprite_size at every count.
  std::uint32_t sprite_size_count = 0;
  float time_step = 1.0f / 60.0f;
  Color background{0.02f, 0.02f, 0.04f, 1.0f};
  CameraPose camera;
  // Re-centre the camera on the particles' extents after the first frame (yaw, pitch and field
  // of view kept), for scenes whose size is not known in advance. The loader sets it for scenes
  // that do not place their camera (docs/scenes.md).
  bool camera_auto_frame = false;
  std::vector<CameraKey> camera_path;  // empty: the camera stays where the user puts it
  // The points model's cloud, as the loader prepared it (docs/scenes.md); params.points.records
  // points into it, so copies of a SceneDesc share it and keep it alive.
  std::shared_ptr<const std::vector<PointRecord>> points;
};

}  // namespace particles
