// The scene loader on the shipped scenes, on a file using every key, and on one file per class
// of mistake: each error must name file:line:column of the offending node and say what is wrong.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "app/scene/scene_loader.hpp"

namespace particles {
namespace {

const std::filesystem::path kScenes = PARTICLES_SCENES_DIR;
const std::filesystem::path kData = PARTICLES_TEST_DATA_DIR "/scenes";

// The message of the SceneError that loading `file` throws ("" if it loads).
std::string load_error(const std::filesystem::path& file) {
  try {
    load_scene(file);
  } catch (const SceneError& e) {
    return e.what();
  }
  return "";
}

std::string parse_error(const std::string& text) {
  try {
    parse_scene(text, "inline.toml");
  } catch (const SceneError& e) {
    return e.what();
  }
  return "";
}

// Asserts the error starts with "<file>:<line>:<column>: " and contains `phrase`.
void expect_error(const std::string& file, const std::string& position, const std::string& phrase) {
  const std::string path = (kData / file).string();
  const std::string message = load_error(kData / file);
  EXPECT_EQ(message.rfind(path + ":" + position + ": ", 0), 0u) << message;
  EXPECT_NE(message.find(phrase), std::string::npos) << message;
}

TEST(SceneLoader, ShippedGalaxyLoads) {
  const SceneDesc d = load_scene(kScenes / "galaxy.toml");
  EXPECT_EQ(d.params.model, Model::galaxy);
  EXPECT_EQ(d.count, 1048576u);
  EXPECT_EQ(d.cpu_count, 131072u);
  EXPECT_GE(d.params.galaxy.arms, 2);
  EXPECT_LE(d.params.galaxy.arms, 3);
  EXPECT_GE(d.camera_path.size(), 2u);
  EXPECT_EQ(d.source_path, (kScenes / "galaxy.toml").string());
}

TEST(SceneLoader, ShippedFountainLoads) {
  const SceneDesc d = load_scene(kScenes / "fountain.toml");
  EXPECT_EQ(d.params.model, Model::fountain);
  EXPECT_FLOAT_EQ(d.params.fountain.gravity, 9.81f);
  // Keyframes without pitch/distance inherit the static pose.
  ASSERT_FALSE(d.camera_path.empty());
  EXPECT_FLOAT_EQ(d.camera_path[1].pitch_deg, d.camera.pitch_deg);
}

TEST(SceneLoader, EveryShippedSceneLoads) {
  for (const auto& entry : std::filesystem::directory_iterator(kScenes)) {
    if (entry.path().extension() != ".toml") continue;
    EXPECT_NO_THROW(load_scene(entry.path())) << entry.path();
  }
}

TEST(SceneLoader, EveryDocumentedKeyIsHonoured) {
  const SceneDesc d = load_scene(kData / "all_keys.toml");
  EXPECT_EQ(d.name, "All keys");
  EXPECT_EQ(d.count, 4096u);
  EXPECT_EQ(d.cpu_count, 2048u);
  EXPECT_FLOAT_EQ(d.sprite_size, 0.125f);
  EXPECT_EQ(d.params.seed, 42u);
  EXPECT_FLOAT_EQ(d.time_step, 0.0125f);
  EXPECT_EQ(d.params.model, Model::fountain);
  const GalaxyParams& g = d.params.galaxy;  // validated and kept although not selected
  EXPECT_EQ(g.arms, 3);
  EXPECT_FLOAT_EQ(g.radius, 12.0f);
  EXPECT_FLOAT_EQ(g.thickness, 0.75f);
  EXPECT_FLOAT_EQ(g.twist, 4.5f);
  EXPECT_FLOAT_EQ(g.arm_spread, 0.25f);
  EXPECT_FLOAT_EQ(g.core_fraction, 0.5f);
  EXPECT_FLOAT_EQ(g.rotation_speed, -0.5f);
  const FountainParams& f = d.params.fountain;
  EXPECT_FLOAT_EQ(f.nozzle.x, 1.0f);
  EXPECT_FLOAT_EQ(f.nozzle.y, -2.0f);
  EXPECT_FLOAT_EQ(f.nozzle.z, 3.5f);
  EXPECT_FLOAT_EQ(f.speed, 7.5f);
  EXPECT_FLOAT_EQ(f.cone_angle, 0.5f);
  EXPECT_FLOAT_EQ(f.gravity, 4.0f);
  EXPECT_FLOAT_EQ(f.lifetime, 3.0f);
  EXPECT_FLOAT_EQ(d.params.color_inner.r, 0.25f);
  EXPECT_FLOAT_EQ(d.params.color_inner.b, 0.75f);
  EXPECT_FLOAT_EQ(d.params.color_inner.a, 1.0f);  // [r, g, b] is opaque
  EXPECT_FLOAT_EQ(d.params.color_outer.g, 0.5f);
  EXPECT_FLOAT_EQ(d.params.color_outer.a, 0.25f);
  EXPECT_FLOAT_EQ(d.background.r, 1.0f);
  EXPECT_FLOAT_EQ(d.background.g, 128.0f / 255.0f);
  EXPECT_FLOAT_EQ(d.background.b, 0.0f);
  EXPECT_FLOAT_EQ(d.background.a, 64.0f / 255.0f);
  EXPECT_FLOAT_EQ(d.camera.target.x, 0.5f);
  EXPECT_FLOAT_EQ(d.camera.target.y, 1.5f);
  EXPECT_FLOAT_EQ(d.camera.target.z, -2.5f);
  EXPECT_FLOAT_EQ(d.camera.distance, 12.5f);
  EXPECT_FLOAT_EQ(d.camera.yaw_deg, -45.0f);
  EXPECT_FLOAT_EQ(d.camera.pitch_deg, -10.0f);
  EXPECT_FLOAT_EQ(d.camera.fov_deg, 70.0f);
  ASSERT_EQ(d.camera_path.size(), 2u);
  EXPECT_FLOAT_EQ(d.camera_path[0].time, 0.0f);
  EXPECT_FLOAT_EQ(d.camera_path[0].yaw_deg, 10.0f);
  EXPECT_FLOAT_EQ(d.camera_path[0].pitch_deg, 5.0f);
  EXPECT_FLOAT_EQ(d.camera_path[0].distance, 8.0f);
  EXPECT_FLOAT_EQ(d.camera_path[1].time, 2.5f);
  EXPECT_FLOAT_EQ(d.camera_path[1].yaw_deg, -45.0f);  // from [camera]
  EXPECT_FLOAT_EQ(d.camera_path[1].distance, 12.5f);
}

TEST(SceneLoader, MinimalSceneGetsTheStructDefaults) {
  const SceneDesc d = parse_scene("[model]\ntype = \"galaxy\"\n", "dir/minimal.toml");
  const SceneDesc defaults;
  EXPECT_EQ(d.name, "minimal");  // the file stem when there is no name
  EXPECT_EQ(d.source_path, "dir/minimal.toml");
  EXPECT_EQ(d.count, defaults.count);
  EXPECT_EQ(d.cpu_count, defaults.cpu_count);
  EXPECT_EQ(d.sprite_size, defaults.sprite_size);
  EXPECT_EQ(d.time_step, defaults.time_step);
  EXPECT_EQ(d.params.seed, defaults.params.seed);
  EXPECT_EQ(d.params.galaxy.arms, defaults.params.galaxy.arms);
  EXPECT_EQ(d.params.galaxy.radius, defaults.params.galaxy.radius);
  EXPECT_EQ(d.params.fountain.lifetime, defaults.params.fountain.lifetime);
  EXPECT_EQ(d.params.color_inner.a, defaults.params.color_inner.a);
  EXPECT_EQ(d.background.b, defaults.background.b);
  EXPECT_EQ(d.camera.distance, defaults.camera.distance);
  EXPECT_EQ(d.camera.fov_deg, defaults.camera.fov_deg);
  EXPECT_TRUE(d.camera_path.empty());
}

TEST(SceneLoader, BoundariesAreInclusiveWhereDocumented) {
  EXPECT_NO_THROW(
      parse_scene("[model]\ntype='galaxy'\n[particles]\ncount=134217728\ncpu_count=16777216\n"
                  "time_step=0.1\nseed=4294967295\n[camera]\npitch=-89\nfov=170\n",
                  "edge.toml"));
  EXPECT_NE(parse_error("[model]\ntype='galaxy'\n[particles]\ncount=134217729\n")
                .find("inline.toml:4:7: particles.count = 134217729 is out of range"),
            std::string::npos);
  EXPECT_NE(parse_error("[model]\ntype='galaxy'\n[particles]\ntime_step=0\n").find("(0, 0.1]"),
            std::string::npos);
}

TEST(SceneLoaderErrors, MissingFile) {
  const std::string message = load_error(kData / "no_such_scene.toml");
  EXPECT_EQ(message.rfind((kData / "no_such_scene.toml").string() + ": cannot open", 0), 0u)
      << message;
}

TEST(SceneLoaderErrors, SyntaxError) {
  expect_error("syntax_error.toml", "3:15", "syntax error");
}

TEST(SceneLoaderErrors, UnknownTopLevelKey) {
  expect_error("unknown_key_top.toml", "3:1", "unknown key 'particle_count' at the top level");
}

TEST(SceneLoaderErrors, UnknownNestedKey) {
  expect_error("unknown_key_nested.toml", "7:1", "unknown key 'radious' in [model.galaxy]");
}

TEST(SceneLoaderErrors, WrongType) {
  expect_error("wrong_type.toml", "6:9", "particles.count: expected an integer, got a string");
}

TEST(SceneLoaderErrors, OutOfRange) {
  expect_error("out_of_range.toml", "7:9", "camera.pitch = 95 is out of range: must be [-89, 89]");
}

TEST(SceneLoaderErrors, BadColour) {
  expect_error("bad_colour.toml", "7:9", "colors.outer: bad colour \"#12345g\"");
}

TEST(SceneLoaderErrors, CameraPathOutOfOrder) {
  expect_error("camera_path_order.toml", "14:8", "strictly increasing");
}

TEST(SceneLoaderErrors, MissingModelType) {
  expect_error("missing_model_type.toml", "4:1", "missing key model.type");
}

TEST(SceneLoader, CameraAutoFrame) {
  // Framed on load unless the scene places its camera (target, distance or a path).
  EXPECT_TRUE(parse_scene("[model]\ntype='galaxy'\n", "a.toml").camera_auto_frame);
  EXPECT_TRUE(
      parse_scene("[model]\ntype='galaxy'\n[camera]\nyaw = 40\n", "a.toml").camera_auto_frame);
  EXPECT_FALSE(
      parse_scene("[model]\ntype='galaxy'\n[camera]\ndistance = 40\n", "a.toml").camera_auto_frame);
  EXPECT_FALSE(parse_scene("[model]\ntype='galaxy'\n[camera]\ntarget = [0, 1, 0]\n", "a.toml")
                   .camera_auto_frame);
  EXPECT_FALSE(
      parse_scene("[model]\ntype='galaxy'\n[camera]\ndistance = 40\nauto_frame = false\n", "a.toml")
          .camera_auto_frame);
  EXPECT_TRUE(parse_scene("[model]\ntype='galaxy'\n[camera]\nauto_frame = true\n", "a.toml")
                  .camera_auto_frame);
  const std::string e = parse_error("[model]\ntype='galaxy'\n[camera]\nauto_frame = 1\n");
  EXPECT_EQ(e.rfind("inline.toml:4:14: camera.auto_frame", 0), 0u) << e;
  EXPECT_NE(e.find("a boolean"), std::string::npos) << e;
}

TEST(SceneLoaderErrors, InlineMistakes) {
  // Each: the exact position and a phrase a user would recognise.
  const std::pair<std::string, std::string> cases[] = {
      {"name = 'x'\n", "inline.toml:1:1: missing [model] table"},
      {"[model]\ntype = 'nebula'\n", "inline.toml:2:8: model.type = \"nebula\" is not a model"},
      {"[model]\ntype = 3\n", "inline.toml:2:8: model.type: expected \"galaxy\" or \"fountain\""},
      {"[model]\ntype='galaxy'\n[particles]\ncount = 1.5\n",
       "inline.toml:4:9: particles.count: expected an integer, got a float"},
      {"[model]\ntype='galaxy'\n[model.fountain]\nlifetime = 0\n",
       "inline.toml:4:12: model.fountain.lifetime = 0 is out of range: must be > 0"},
      {"[model]\ntype='galaxy'\n[model.fountain]\nnozzle = [1, 2]\n",
       "inline.toml:4:10: model.fountain.nozzle: expected 3 components"},
      {"[model]\ntype='galaxy'\n[colors]\ninner = [1, 2, 0]\n",
       "inline.toml:4:13: colors.inner[1] = 2 is out of range: must be [0, 1]"},
      {"[model]\ntype='galaxy'\n[colors]\ninner = [1, 0]\n",
       "inline.toml:4:9: colors.inner: bad colour: expected 3 or 4 components"},
      {"[model]\ntype='galaxy'\n[camera]\nfov = nan\n",
       "inline.toml:4:7: camera.fov must be a finite"},
      {"[model]\ntype='galaxy'\n[[camera.path]]\ntime = 1\n",
       "inline.toml:4:8: camera.path[0].time must be 0"},
      {"[model]\ntype='galaxy'\n[[camera.path]]\nyaw = 1\n",
       "inline.toml:3:1: missing key camera.path[0].time"},
      {"[model]\ntype='galaxy'\n[[camera.path]]\ntime = 0\nzoom = 2\n",
       "inline.toml:5:1: unknown key 'zoom' in [camera.path[0]]"},
      {"particles = 3\n[model]\ntype='galaxy'\n",
       "inline.toml:1:13: particles: expected a table, got an integer"},
      {"[model]\ntype='galaxy'\n[model.galaxy]\narms = 17\n",
       "inline.toml:4:8: model.galaxy.arms = 17 is out of range: must be [1, 16]"},
  };
  for (const auto& [text, expected] : cases) {
    const std::string message = parse_error(text);
    EXPECT_EQ(message.rfind(expected, 0), 0u) << "got: " << message << "\nwanted: " << expected;
  }
}

}  // namespace
}  // namespace particles
