#pragma once
// What switch_bench and interop_bench share: their command line ([scene.toml] [--count N]
// [<frames flag> F]), composite_bench's ([--reps R] [scene.toml ...]), the frame settings for a
// scene at time t (its camera pose, on its camera path when it has one), and the median they
// report. Header-only, CUDA-free, so the parser is unit-tested in CI
// (tests/unit/scene_bench_args_test.cpp).
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "bench/option_value.hpp"
#include "core/camera.hpp"
#include "core/frame_types.hpp"
#include "core/scene_desc.hpp"

namespace particles::bench {

struct SceneBenchArgs {
  std::string scene_file = "scenes/galaxy.toml";
  std::uint32_t count = 0;  // 0: the scene's own count
  int frames = 0;
};

// Throws std::invalid_argument naming the offending argument: unknown flags, a flag without its
// value, values that are not whole numbers in range, and more than one scene file.
inline SceneBenchArgs parse_scene_bench_args(int argc, const char* const* argv,
                                             std::string_view frames_flag, int default_frames,
                                             int min_frames) {
  SceneBenchArgs a;
  a.frames = default_frames;
  bool scene_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--count") {
      a.count =
          static_cast<std::uint32_t>(whole_number_option(argc, argv, i, 1, std::int64_t{1} << 30));
    } else if (arg == frames_flag) {
      a.frames = static_cast<int>(whole_number_option(argc, argv, i, min_frames, 1000000));
    } else if (arg.starts_with("-")) {
      throw std::invalid_argument("unknown option " + std::string(arg));
    } else if (scene_given) {
      throw std::invalid_argument("more than one scene file: " + std::string(arg));
    } else {
      a.scene_file = arg;
      scene_given = true;
    }
  }
  return a;
}

struct CompositeBenchArgs {
  int reps = 100;
  std::vector<std::string> scene_files;  // empty: the bench's own cases
};

// Throws std::invalid_argument naming the offending argument: unknown flags, a flag without its
// value, and a repetition count that is not a whole number in range.
inline CompositeBenchArgs parse_composite_bench_args(int argc, const char* const* argv) {
  CompositeBenchArgs a;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--reps") {
      a.reps = static_cast<int>(whole_number_option(argc, argv, i, 1, 100000));
    } else if (arg.starts_with("-")) {
      throw std::invalid_argument("unknown option " + std::string(arg) +
                                  " (usage: composite_bench [--reps R] [scene.toml ...])");
    } else {
      a.scene_files.emplace_back(arg);
    }
  }
  return a;
}

// The frame settings at scene time t: the scene's camera, moved along its path if it has one,
// seen at 16:9 (the depth order does not depend on the aspect).
inline FrameSettings scene_frame_settings(const SceneDesc& scene, float t, Algorithm algorithm,
                                          KeyMode mode = KeyMode::exact) {
  CameraPose pose = scene.camera;
  if (!scene.camera_path.empty()) pose = camera_on_path(pose, scene.camera_path, t);
  FrameSettings s;
  s.dt = scene.time_step;
  s.view = depth_frame(camera_matrices(pose, 16.0f / 9.0f, 0.05f, 2000.0f));
  s.algorithm = algorithm;
  s.key_mode = mode;
  return s;
}

inline double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

}  // namespace particles::bench
