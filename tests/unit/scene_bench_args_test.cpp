// The command lines of switch_bench, interop_bench and composite_bench: defaults, values, and a
// clear error for every malformed argument.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "bench/scene_bench_args.hpp"
#include "tests/support/thrown_message.hpp"

namespace particles::bench {
namespace {

SceneBenchArgs parse(std::initializer_list<const char*> args) {
  std::vector<const char*> argv{"bench"};
  argv.insert(argv.end(), args);
  return parse_scene_bench_args(static_cast<int>(argv.size()), argv.data(), "--frames", 300, 10);
}

std::string error_of(std::initializer_list<const char*> args) {
  return test::thrown_message<std::invalid_argument>([&] { parse(args); }, "no error");
}

TEST(SceneBenchArgs, DefaultsAndValues) {
  const SceneBenchArgs d = parse({});
  EXPECT_EQ(d.scene_file, "scenes/galaxy.toml");
  EXPECT_EQ(d.count, 0u);
  EXPECT_EQ(d.frames, 300);
  const SceneBenchArgs a = parse({"scenes/fountain.toml", "--count", "4096", "--frames", "20"});
  EXPECT_EQ(a.scene_file, "scenes/fountain.toml");
  EXPECT_EQ(a.count, 4096u);
  EXPECT_EQ(a.frames, 20);
}

TEST(SceneBenchArgs, MalformedArgumentsAreNamed) {
  EXPECT_EQ(error_of({"--count", "abc"}),
            "--count: 'abc' is not a whole number in [1, 1073741824]");
  EXPECT_EQ(error_of({"--count", "12x"}),
            "--count: '12x' is not a whole number in [1, 1073741824]");
  EXPECT_EQ(error_of({"--count", "0"}), "--count: '0' is not a whole number in [1, 1073741824]");
  EXPECT_EQ(error_of({"--frames", "5"}), "--frames: '5' is not a whole number in [10, 1000000]");
  EXPECT_EQ(error_of({"--frames"}), "--frames needs a value");
  EXPECT_EQ(error_of({"--frame", "20"}), "unknown option --frame");
  EXPECT_EQ(error_of({"a.toml", "b.toml"}), "more than one scene file: b.toml");
}

CompositeBenchArgs parse_composite(std::initializer_list<const char*> args) {
  std::vector<const char*> argv{"composite_bench"};
  argv.insert(argv.end(), args);
  return parse_composite_bench_args(static_cast<int>(argv.size()), argv.data());
}

std::string composite_error_of(std::initializer_list<const char*> args) {
  return test::thrown_message<std::invalid_argument>([&] { parse_composite(args); }, "no error");
}

TEST(CompositeBenchArgs, DefaultsAndValues) {
  const CompositeBenchArgs d = parse_composite({});
  EXPECT_EQ(d.reps, 100);
  EXPECT_TRUE(d.scene_files.empty());
  const CompositeBenchArgs a = parse_composite({"--reps", "15", "a.toml", "b.toml"});
  EXPECT_EQ(a.reps, 15);
  EXPECT_EQ(a.scene_files, (std::vector<std::string>{"a.toml", "b.toml"}));
}

TEST(CompositeBenchArgs, MalformedArgumentsAreNamed) {
  EXPECT_EQ(composite_error_of({"--reps", "x"}),
            "--reps: 'x' is not a whole number in [1, 100000]");
  EXPECT_EQ(composite_error_of({"--reps", "0"}),
            "--reps: '0' is not a whole number in [1, 100000]");
  EXPECT_EQ(composite_error_of({"--reps"}), "--reps needs a value");
  EXPECT_EQ(composite_error_of({"--scenes", "a.toml"}),
            "unknown option --scenes (usage: composite_bench [--reps R] [scene.toml ...])");
}

TEST(SceneBenchArgs, FrameSettingsFollowTheCameraPath) {
  SceneDesc scene;
  scene.time_step = 0.02f;
  const FrameSettings still = scene_frame_settings(scene, 5.0f, Algorithm::cub);
  EXPECT_EQ(still.algorithm, Algorithm::cub);
  EXPECT_EQ(still.dt, 0.02f);
  scene.camera_path = {CameraKey{0.0f, 0.0f, 20.0f, 25.0f}, CameraKey{10.0f, 90.0f, 20.0f, 25.0f}};
  const FrameSettings moved = scene_frame_settings(scene, 5.0f, Algorithm::cub);
  EXPECT_NE(moved.view.eye.x, scene_frame_settings(scene, 0.0f, Algorithm::cub).view.eye.x);
}

}  // namespace
}  // namespace particles::bench
