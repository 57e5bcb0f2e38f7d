// The loader's ranges against the models' arithmetic: a scene at the edges of every range the
// loader accepts is stepped for minutes of simulated time at the largest time step, and every
// position and velocity stays finite. Just past an edge, the loader refuses the scene, naming
// the key and its range. (The CPU backend runs exactly these model functions.)
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "app/scene/scene_loader.hpp"
#include "core/camera.hpp"
#include "core/scene_models.hpp"
#include "tests/support/thrown_message.hpp"

namespace particles {
namespace {

std::string parse_error(const std::string& text) {
  return test::thrown_message<SceneError>([&] { parse_scene(text, "limits.toml"); });
}

// Steps `count` particles of the scene `frames` times by dt, failing at the first non-finite
// number.
void expect_finite(const SceneDesc& scene, float dt, int frames, const std::string& label) {
  constexpr std::uint32_t kCount = 48;
  std::vector<ParticleState> states;
  for (std::uint32_t i = 0; i < kCount; ++i) states.push_back(model_init(scene.params, i));
  for (int frame = 0; frame <= frames; ++frame) {
    for (std::uint32_t i = 0; i < kCount; ++i) {
      ParticleState& s = states[i];
      if (frame > 0) model_step(scene.params, s, dt);
      for (float v : {s.px, s.py, s.pz, s.vx, s.vy, s.vz, s.age}) {
        ASSERT_TRUE(std::isfinite(v)) << label << ": particle " << i << ", frame " << frame;
      }
      const Color c = model_color(scene.params, s);
      for (float v : {c.r, c.g, c.b, c.a}) {
        ASSERT_TRUE(std::isfinite(v)) << label << ": colour, particle " << i << ", frame " << frame;
      }
    }
  }
}

// Each model at the corners of its accepted ranges (largest speeds, accelerations, lengths and
// coordinates, smallest radii and drags), with the largest sprite and time step.
const std::pair<const char*, const char*> kExtremes[] = {
    {"galaxy",
     "arms = 16\nradius = 1e6\nthickness = 1e6\ntwist = 1000\narm_spread = 100\n"
     "core_fraction = 0.5\nrotation_speed = 100\n"},
    {"galaxy",
     "radius = 1.1754944e-38\nthickness = 0\ntwist = -1000\narm_spread = 0\ncore_fraction = 1\n"
     "rotation_speed = -100\n"},
    {"fountain",
     "nozzle = [1e6, 1e6, 1e6]\nspeed = 1000\ncone_angle = 1.5707963267948966\ngravity = 1000\n"
     "lifetime = 600\n"},
    {"fountain",
     "nozzle = [-1e6, -1e6, -1e6]\nspeed = 1000\ncone_angle = 0\ngravity = -1000\n"
     "lifetime = 1.1754944e-38\n"},
    {"smoke",
     "source = [1e6, 1e6, 1e6]\nsource_radius = 100\nrise_speed = 50\nlifetime = 6\n"
     "turbulence = 50\nnoise_scale = 10\nspread = 5\nwind = 20\n"},
    {"smoke",
     "source = [-1e6, -1e6, -1e6]\nsource_radius = 100\nrise_speed = 50\nlifetime = 60\n"
     "turbulence = 50\nnoise_scale = 10\nspread = 0.5\nwind = -20\n"},
    {"vortex_ring",
     "origin = [1e6, 1e6, 1e6]\nring_radius = 1000\ncore_radius = 0.001\ntube_radius = 999\n"
     "core_speed = 100\nrise_speed = 100\ntravel = 10000\ntwirl = 3\n"},
    {"vortex_ring",
     "origin = [-1e6, -1e6, -1e6]\nring_radius = 1000\ncore_radius = 1000\ntube_radius = 1\n"
     "core_speed = -100\nrise_speed = 1.1754944e-38\ntravel = 10000\ntwirl = -3\n"},
    {"fireworks",
     "centre = [1e6, 1e6, 1e6]\nspread = [1000, 1000, 1000]\nbursts = 64\nperiod = 60\n"
     "speed = 100\ndrag = 0.001\ngravity = 50\nstars = 100000\ntrail = 5\n"},
    {"fireworks",
     "centre = [-1e6, -1e6, -1e6]\nbursts = 1\nperiod = 0.2\nspeed = 100\ndrag = 20\n"
     "gravity = -50\nstars = 1\ntrail = 0\n"},
    {"attractor",
     "sigma = 100\nrho = 200\nbeta = 20\nspeed = 5\nscale = 100\ncentre = [1e6, 1e6, 1e6]\n"},
    {"attractor",
     "sigma = 1.1754944e-38\nrho = 1.1754944e-38\nbeta = 1.1754944e-38\nspeed = -5\n"
     "scale = 0.001\ncentre = [-1e6, -1e6, -1e6]\n"},
    {"attractor", "sigma = 100\nrho = 200\nbeta = 1.1754944e-38\nspeed = 5\nscale = 0.001\n"},
    {"shells",
     "shells = 32\ninner_radius = 1000\nouter_radius = 1000\nspin = 10\n"
     "tilt = 1.5707963267948966\nstripes = 64\n"},
    {"shells", "shells = 32\ninner_radius = 1.1754944e-38\nouter_radius = 1000\nspin = -10\n"},
    {"snow",
     "box_min = [-1e6, -1e6, -1e6]\nbox_max = [1e6, 1e6, 1e6]\nfall_speed = 50\nsway = 10\n"
     "sway_period = 0.2\nwind = [50, 50, 50]\nlantern = [1e6, 1e6, 1e6]\n"
     "lantern_radius = 10000\n"},
    // A box far smaller than a frame's travel: flakes leave it, and stay finite.
    {"snow",
     "box_min = [999999.9, 999999.9, 999999.9]\nbox_max = [1e6, 1e6, 1e6]\n"
     "fall_speed = 50\nsway = 10\nsway_period = 600\nwind = [-50, -50, -50]\n"
     "lantern = [-1e6, -1e6, -1e6]\nlantern_radius = 1.1754944e-38\n"},
};

TEST(SceneLimits, ExtremeAcceptedScenesStayFinite) {
  for (const auto& [model, table] : kExtremes) {
    const std::string text = std::string("[particles]\nsprite_size = 1000\ntime_step = 0.1\n") +
                             "[model]\ntype = '" + model + "'\n[model." + model + "]\n" + table;
    SCOPED_TRACE(text);
    const SceneDesc scene = parse_scene(text, "limits.toml");
    // 300 s at the largest step, and a little at a small one (more steps per life).
    expect_finite(scene, 0.1f, 3000, model);
    expect_finite(scene, 1.0f / 240.0f, 600, model);
  }
}

TEST(SceneLimits, PointCloudsAtTheEdgeOfTheWorldStayFinite) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("scene_limits_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  {
    std::ofstream ply(dir / "corners.ply");
    ply << "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\n"
           "property float z\nend_header\n1e6 1e6 1e6\n-1e6 -1e6 -1e6\n1e6 -1e6 1e6\n"
           "-1e6 1e6 -1e6\n";
  }
  for (const char* motion : {"motion = 'turntable'\nspeed = 10\n",
                             "motion = 'breathing'\namplitude = 0.5\nperiod = 0.2\n",
                             "fit = 1e6\nmotion = 'turntable'\nspeed = -10\n"}) {
    const std::string text =
        std::string("[model]\ntype = 'points'\n[model.points]\nfile = 'corners.ply'\n") + motion;
    SCOPED_TRACE(text);
    const SceneDesc scene = parse_scene(text, (dir / "points.toml").string());
    expect_finite(scene, 0.1f, 3000, "points");
  }
  // Beyond the world's coordinates, a cloud must be fitted.
  {
    std::ofstream ply(dir / "far.ply");
    ply << "ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty float y\n"
           "property float z\nend_header\n0 0 0\n3000000 0 -3000000\n";
  }
  const std::string far = "[model]\ntype = 'points'\n[model.points]\nfile = 'far.ply'\n";
  std::string message;
  try {
    parse_scene(far, (dir / "far.toml").string());
  } catch (const SceneError& e) {
    message = e.what();
  }
  EXPECT_NE(message.find("far.toml:4:8: model.points.file: the cloud reaches beyond [-1000000, "
                         "1000000] in x, y and z"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("set model.points.fit"), std::string::npos) << message;
  EXPECT_NO_THROW(parse_scene(far + "fit = 10\n", (dir / "far.toml").string()));
  std::filesystem::remove_all(dir);
}

// Just past each edge the loader refuses the scene, naming the key and the range it takes.
TEST(SceneLimits, ValuesThatWouldOverflowAreRefusedWithTheirRange) {
  const std::pair<std::string, std::string> cases[] = {
      {"galaxy", "rotation_speed = 1e30\n"},
      {"galaxy", "radius = 2e6\n"},
      {"galaxy", "twist = 1001\n"},
      {"galaxy", "arm_spread = 101\n"},
      {"galaxy", "thickness = 1e7\n"},
      {"fountain", "speed = 1001\n"},
      {"fountain", "gravity = -1e20\n"},
      {"fountain", "lifetime = 601\n"},
      {"fountain", "nozzle = [0, 1.5e6, 0]\n"},
      {"smoke", "source = [2e6, 0, 0]\n"},
      {"vortex_ring", "core_radius = 0.0001\n"},
      {"vortex_ring", "origin = [0, 0, -2e6]\n"},
      {"fireworks", "drag = 0.0001\n"},
      {"fireworks", "centre = [1e7, 0, 0]\n"},
      {"attractor", "scale = 0.0001\n"},
      {"attractor", "centre = [0, 0, 1e30]\n"},
      {"snow", "box_max = [1e7, 8, 12]\n"},
      {"snow", "lantern = [0, -1e9, 0]\n"},
  };
  for (const auto& [model, line] : cases) {
    const std::string text = "[model]\ntype = '" + model + "'\n[model." + model + "]\n" + line;
    const std::string key = "model." + model + "." + line.substr(0, line.find(' '));
    const std::string message = parse_error(text);
    EXPECT_EQ(message.rfind("limits.toml:4:", 0), 0u) << message;
    EXPECT_NE(message.find(key), std::string::npos) << message;
    EXPECT_NE(message.find("is out of range: must be "), std::string::npos) << message;
  }
  EXPECT_EQ(parse_error("[particles]\nsprite_size = 1e30\n[model]\ntype = 'galaxy'\n"),
            "limits.toml:2:15: particles.sprite_size = 1e+30 is out of range: must be (0, 1000]");
  EXPECT_EQ(
      parse_error("[model]\ntype = 'galaxy'\n[model.galaxy]\nrotation_speed = 1e30\n"),
      "limits.toml:4:18: model.galaxy.rotation_speed = 1e+30 is out of range: must be [-100, 100]");
  // A spread that would carry puffs out by e^300 over their lives.
  EXPECT_EQ(
      parse_error("[model]\ntype = 'smoke'\n[model.smoke]\nspread = 5\nlifetime = 60\n")
          .rfind("limits.toml:3:1: model.smoke: spread x lifetime (300) must be at most 30", 0),
      0u);
  // A number that a float cannot hold but as zero: it would divide by zero in (0, x] ranges.
  EXPECT_EQ(parse_error("[model]\ntype = 'shells'\n[model.shells]\ninner_radius = 1e-300\n")
                .rfind("limits.toml:4:16: model.shells.inner_radius = 1e-300 is too small for a "
                       "float (0 or at least 1.175494351e-38 in magnitude)",
                       0),
            0u);
  EXPECT_EQ(parse_error("[model]\ntype = 'galaxy'\n[model.galaxy]\nthickness = 0.0\n"), "");
}

// Issue 64: camera values had no bounds (distance > 0, yaw and target anything a float holds),
// and a distance of 2e19 or 1e-30, a target at 1e9 or a path yaw of 1e30 made a NaN view and an
// empty frame with exit code 0. Each is refused now, naming the key and its range.
TEST(SceneLimits, CameraValuesAreBounded) {
  const std::string galaxy = "[model]\ntype = 'galaxy'\n";
  const std::pair<std::string, std::string> cases[] = {
      {"[camera]\ndistance = 2e19\n",
       "limits.toml:4:12: camera.distance = 2e+19 is out of range: must be [0.0001, 1000000]"},
      {"[camera]\ndistance = 1e-30\n",
       "limits.toml:4:12: camera.distance = 1e-30 is out of range: must be [0.0001, 1000000]"},
      {"[camera]\ndistance = 1e-5\n",
       "limits.toml:4:12: camera.distance = 1e-05 is out of range: must be [0.0001, 1000000]"},
      {"[camera]\ntarget = [0, 1e9, 0]\n",
       "limits.toml:4:14: camera.target[1] = 1000000000 is out of range: must be [-1000000, "
       "1000000]"},
      {"[camera]\nyaw = 1e30\n",
       "limits.toml:4:7: camera.yaw = 1e+30 is out of range: must be [-36000, 36000]"},
      {"[camera]\nfov = 0.5\n",
       "limits.toml:4:7: camera.fov = 0.5 is out of range: must be [1, 170]"},
      {"[[camera.path]]\ntime = 0\nyaw = 1e30\n",
       "limits.toml:5:7: camera.path[0].yaw = 1e+30 is out of range: must be [-36000, 36000]"},
      {"[[camera.path]]\ntime = 0\ndistance = 2e19\n",
       "limits.toml:5:12: camera.path[0].distance = 2e+19 is out of range"},
      {"[[camera.path]]\ntime = 0\n[[camera.path]]\ntime = 1e7\n",
       "limits.toml:6:8: camera.path[1].time = 10000000 is out of range: must be [0, 86400]"},
      // In range each, but the eye would be the target in float: 1 is below a float's step at
      // 1e6 (0.0625) times 160.
      {"[camera]\ntarget = [1e6, 0, 0]\ndistance = 1\n",
       "limits.toml:5:12: camera.distance = 1 is too small for camera.target (1000000, 0, 0): it "
       "must be at least 1e-5 of the target's largest coordinate (10)"},
      {"[camera]\ntarget = [0, 0, -1e6]\n[[camera.path]]\ntime = 0\ndistance = 2\n",
       "limits.toml:7:12: camera.path[0].distance = 2 is too small for camera.target"},
  };
  for (const auto& [text, expected] : cases) {
    const std::string message = parse_error(galaxy + text);
    EXPECT_EQ(message.rfind(expected, 0), 0u) << "got: " << message << "\nwanted: " << expected;
  }
}

// Every camera the loader accepts, at the corners of its ranges, has a finite view along its
// whole path: the matrices the frame is drawn with, as FrameRunner makes them.
TEST(SceneLimits, ExtremeAcceptedCamerasHaveAFiniteView) {
  int accepted = 0;
  for (const char* target : {"[0, 0, 0]", "[1e6, -1e6, 1e6]", "[-1e6, 0, 1e-3]"}) {
    for (const char* distance : {"0.0001", "10", "1e6"}) {
      for (const char* angles :
           {"yaw = 36000\npitch = 89\nfov = 170\n", "yaw = -36000\npitch = -89\nfov = 1\n"}) {
        const std::string text = std::string("[model]\ntype = 'galaxy'\n[camera]\ntarget = ") +
                                 target + "\ndistance = " + distance + "\n" + angles +
                                 "[[camera.path]]\ntime = 0\n[[camera.path]]\ntime = 86400\n" +
                                 "yaw = -36000\npitch = -89\ndistance = 1e6\n";
        if (!parse_error(text).empty()) continue;  // the eye too close to a far target
        SCOPED_TRACE(text);
        ++accepted;
        const SceneDesc scene = parse_scene(text, "limits.toml");
        for (const float t : {0.0f, 0.5f, 43200.0f, 86399.0f, 1e9f}) {
          const CameraPose pose = camera_on_path(scene.camera, scene.camera_path, t);
          const float far_plane = pose.distance + 4.0f * 50.0f + 10.0f;
          const CameraMatrices m =
              camera_matrices(pose, 16.0f / 9.0f, std::max(0.01f, far_plane * 1e-5f), far_plane);
          for (int c = 0; c < 4; ++c) {
            for (int r = 0; r < 4; ++r) {
              ASSERT_TRUE(std::isfinite(m.view[c][r])) << "t " << t;
              ASSERT_TRUE(std::isfinite(m.projection[c][r])) << "t " << t;
            }
          }
          ASSERT_TRUE(std::isfinite(m.forward.x) && std::isfinite(m.forward.y) &&
                      std::isfinite(m.forward.z))
              << "t " << t;
        }
      }
    }
  }
  EXPECT_EQ(accepted, 14);  // all but the far targets at 0.0001
  // The smallest distance beside the farthest target that the loader takes.
  EXPECT_EQ(parse_error("[model]\ntype = 'galaxy'\n[camera]\ntarget = [1e6, 1e6, 1e6]\n"
                        "distance = 10\n"),
            "");
}

}  // namespace
}  // namespace particles
