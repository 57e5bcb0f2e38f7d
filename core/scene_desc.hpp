#pragma once
// Everything a scene file says, after validation. Plain data: the loader fills it, backends and
// the renderer read it.
#include <cstdint>
#include <string>
#include <vector>

#include "core/color.hpp"
#include "core/vec3.hpp"

namespace particles {

enum class Model { galaxy, fountain };

// A disc of stars in logarithmic-ish spiral arms, in differential rotation about +y.
struct GalaxyParams {
  int arms = 2;
  float radius = 10.0f;          // outer radius of the disc
  float thickness = 0.6f;        // full height of the disc at the centre
  float twist = 6.0f;            // radians an arm winds from centre to rim
  float arm_spread = 0.45f;      // angular scatter around an arm, radians
  float core_fraction = 0.15f;   // share of particles in the central bulge
  float rotation_speed = 0.35f;  // angular speed at the rim, radians per second
};

// Particles launched upward from a nozzle in a cone, falling under gravity, respawned when their
// lifetime ends.
struct FountainParams {
  Vec3 nozzle{0.0f, 0.0f, 0.0f};
  float speed = 9.0f;        // launch speed, units per second
  float cone_angle = 0.28f;  // half-angle of the launch cone, radians
  float gravity = 9.81f;     // downward acceleration
  float lifetime = 2.2f;     // seconds before respawn
};

// Both parameter sets are present; `model` says which one is used. This keeps the struct
// trivially copyable into a kernel argument.
struct ModelParams {
  Model model = Model::galaxy;
  GalaxyParams galaxy;
  FountainParams fountain;
  Color color_inner{1.0f, 0.85f, 0.6f, 0.9f};  // galaxy core / fountain birth colour
  Color color_outer{0.3f, 0.5f, 1.0f, 0.6f};   // galaxy rim / fountain death colour
  std::uint32_t seed = 1;
};

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
  std::uint32_t count = 1u << 20;      // particles on the CUDA backend
  std::uint32_t cpu_count = 1u << 17;  // particles on the CPU backend, unless --count says
  ModelParams params;
  float sprite_size = 0.08f;  // world-space sprite diameter
  float time_step = 1.0f / 60.0f;
  Color background{0.02f, 0.02f, 0.04f, 1.0f};
  CameraPose camera;
  // Re-centre the camera on the particles' extents after the first frame (yaw, pitch and field
  // of view kept), for scenes whose size is not known in advance. The loader sets it for scenes
  // that do not place their camera (docs/scenes.md).
  bool camera_auto_frame = false;
  std::vector<CameraKey> camera_path;  // empty: the camera stays where the user puts it
};

}  // namespace particles
