// The scene loader on the shipped scenes, on a file using every key, and on one file per class
// of mistake: each error must name file:line:column of the offending node and say what is wrong.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "app/scene/scene_loader.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/thrown_message.hpp"

namespace particles {
namespace {

const std::filesystem::path kScenes = PARTICLES_SCENES_DIR;
const std::filesystem::path kData = PARTICLES_TEST_DATA_DIR "/scenes";

// The message of the SceneError that loading `file` throws ("" if it loads).
std::string load_error(const std::filesystem::path& file) {
  return test::thrown_message<SceneError>([&] { load_scene(file); });
}

std::string parse_error(const std::string& text) {
  return test::thrown_message<SceneError>([&] { parse_scene(text, "inline.toml"); });
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
  EXPECT_EQ(d.sprite_size_count, 8192u);
  EXPECT_EQ(d.params.seed, 42u);
  EXPECT_FLOAT_EQ(d.time_step, 0.0125f);
  EXPECT_EQ(d.params.model, Model::fountain);
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

TEST(SceneLoader, EveryShippedModelHasAScene) {
  // Each model has at least one scene, and each scene's file name says its model.
  const std::pair<const char*, Model> shipped[] = {
      {"galaxy.toml", Model::galaxy},       {"fountain.toml", Model::fountain},
      {"smoke.toml", Model::smoke},         {"vortex_ring.toml", Model::vortex_ring},
      {"fireworks.toml", Model::fireworks}, {"lorenz.toml", Model::attractor},
      {"shells.toml", Model::shells},       {"shells_inside.toml", Model::shells},
      {"snow.toml", Model::snow},           {"points.toml", Model::points}};
  for (const auto& [file, model] : shipped) {
    EXPECT_EQ(load_scene(kScenes / file).params.model, model) << file;
  }
}

// Every key of every model's table, each with a value unlike its default.
TEST(SceneLoader, EveryModelKeyIsHonoured) {
  {
    const ModelParams m = parse_scene(R"([model]
type = "galaxy"
[model.galaxy]
arms = 3
radius = 12       # an integer where a float is expected
thickness = 0.75
twist = 4.5
arm_spread = 0.25
core_fraction = 0.5
rotation_speed = -0.5
)",
                                      "galaxy.toml")
                              .params;
    const GalaxyParams& g = m.galaxy;
    EXPECT_EQ(g.arms, 3);
    EXPECT_FLOAT_EQ(g.radius, 12.0f);
    EXPECT_FLOAT_EQ(g.thickness, 0.75f);
    EXPECT_FLOAT_EQ(g.twist, 4.5f);
    EXPECT_FLOAT_EQ(g.arm_spread, 0.25f);
    EXPECT_FLOAT_EQ(g.core_fraction, 0.5f);
    EXPECT_FLOAT_EQ(g.rotation_speed, -0.5f);
  }
  {
    const ModelParams m = parse_scene(R"([model]
type = "smoke"
[model.smoke]
source = [1, 2, 3]
source_radius = 0.25
rise_speed = 2.5
lifetime = 4
turbulence = 0.5
noise_scale = 0.75
spread = 0.2
wind = -0.5
dark_fraction = 0.25
growth = 2.5
)",
                                      "smoke.toml")
                              .params;
    const SmokeParams& p = m.smoke;
    EXPECT_EQ(m.model, Model::smoke);
    EXPECT_FLOAT_EQ(p.source.y, 2.0f);
    EXPECT_FLOAT_EQ(p.source.z, 3.0f);
    EXPECT_FLOAT_EQ(p.source_radius, 0.25f);
    EXPECT_FLOAT_EQ(p.rise_speed, 2.5f);
    EXPECT_FLOAT_EQ(p.lifetime, 4.0f);
    EXPECT_FLOAT_EQ(p.turbulence, 0.5f);
    EXPECT_FLOAT_EQ(p.noise_scale, 0.75f);
    EXPECT_FLOAT_EQ(p.spread, 0.2f);
    EXPECT_FLOAT_EQ(p.wind, -0.5f);
    EXPECT_FLOAT_EQ(p.dark_fraction, 0.25f);
    EXPECT_FLOAT_EQ(p.growth, 2.5f);
  }
  {
    const ModelParams m = parse_scene(R"([model]
type = "vortex_ring"
[model.vortex_ring]
origin = [0, -1, 2]
ring_radius = 4
core_radius = 0.5
tube_radius = 1.5
core_speed = -3
rise_speed = 1.5
travel = 9
twirl = -0.25
)",
                                      "vortex.toml")
                              .params;
    const VortexRingParams& p = m.vortex_ring;
    EXPECT_EQ(m.model, Model::vortex_ring);
    EXPECT_FLOAT_EQ(p.origin.y, -1.0f);
    EXPECT_FLOAT_EQ(p.origin.z, 2.0f);
    EXPECT_FLOAT_EQ(p.ring_radius, 4.0f);
    EXPECT_FLOAT_EQ(p.core_radius, 0.5f);
    EXPECT_FLOAT_EQ(p.tube_radius, 1.5f);
    EXPECT_FLOAT_EQ(p.core_speed, -3.0f);
    EXPECT_FLOAT_EQ(p.rise_speed, 1.5f);
    EXPECT_FLOAT_EQ(p.travel, 9.0f);
    EXPECT_FLOAT_EQ(p.twirl, -0.25f);
  }
  {
    const ModelParams m = parse_scene(R"([model]
type = "fireworks"
[model.fireworks]
centre = [1, 8, -1]
spread = [2, 0, 3]
bursts = 3
period = 3.5
speed = 4
drag = 0.5
gravity = -1
stars = 50
trail = 0.5
)",
                                      "fireworks.toml")
                              .params;
    const FireworksParams& p = m.fireworks;
    EXPECT_EQ(m.model, Model::fireworks);
    EXPECT_FLOAT_EQ(p.centre.y, 8.0f);
    EXPECT_FLOAT_EQ(p.spread.y, 0.0f);
    EXPECT_FLOAT_EQ(p.spread.z, 3.0f);
    EXPECT_EQ(p.bursts, 3);
    EXPECT_FLOAT_EQ(p.period, 3.5f);
    EXPECT_FLOAT_EQ(p.speed, 4.0f);
    EXPECT_FLOAT_EQ(p.drag, 0.5f);
    EXPECT_FLOAT_EQ(p.gravity, -1.0f);
    EXPECT_EQ(p.stars, 50);
    EXPECT_FLOAT_EQ(p.trail, 0.5f);
  }
  {
    const ModelParams m = parse_scene(R"([model]
type = "attractor"
[model.attractor]
sigma = 12
rho = 30
beta = 2.5
speed = -0.5
scale = 0.5
centre = [1, 2, 3]
)",
                                      "attractor.toml")
                              .params;
    const AttractorParams& p = m.attractor;
    EXPECT_EQ(m.model, Model::attractor);
    EXPECT_FLOAT_EQ(p.sigma, 12.0f);
    EXPECT_FLOAT_EQ(p.rho, 30.0f);
    EXPECT_FLOAT_EQ(p.beta, 2.5f);
    EXPECT_FLOAT_EQ(p.speed, -0.5f);
    EXPECT_FLOAT_EQ(p.scale, 0.5f);
    EXPECT_FLOAT_EQ(p.centre.x, 1.0f);
  }
  {
    const ModelParams m = parse_scene(R"([model]
type = "shells"
[model.shells]
shells = 3
inner_radius = 1
outer_radius = 1   # equal radii are allowed
spin = -1
tilt = -0.5
stripes = 0
)",
                                      "shells.toml")
                              .params;
    const ShellsParams& p = m.shells;
    EXPECT_EQ(m.model, Model::shells);
    EXPECT_EQ(p.shells, 3);
    EXPECT_FLOAT_EQ(p.inner_radius, 1.0f);
    EXPECT_FLOAT_EQ(p.outer_radius, 1.0f);
    EXPECT_FLOAT_EQ(p.spin, -1.0f);
    EXPECT_FLOAT_EQ(p.tilt, -0.5f);
    EXPECT_EQ(p.stripes, 0);
  }
  {
    const ModelParams m = parse_scene(R"([model]
type = "snow"
[model.snow]
box_min = [-1, -2, -3]
box_max = [1, 2, 3]
fall_speed = 2
sway = 0
sway_period = 5
wind = [0, -1, 0.5]
lantern = [0.5, 0.5, 0.5]
lantern_radius = 2
)",
                                      "snow.toml")
                              .params;
    const SnowParams& p = m.snow;
    EXPECT_EQ(m.model, Model::snow);
    EXPECT_FLOAT_EQ(p.box_min.z, -3.0f);
    EXPECT_FLOAT_EQ(p.box_max.y, 2.0f);
    EXPECT_FLOAT_EQ(p.fall_speed, 2.0f);
    EXPECT_FLOAT_EQ(p.sway, 0.0f);
    EXPECT_FLOAT_EQ(p.sway_period, 5.0f);
    EXPECT_FLOAT_EQ(p.wind.y, -1.0f);
    EXPECT_FLOAT_EQ(p.lantern.x, 0.5f);
    EXPECT_FLOAT_EQ(p.lantern_radius, 2.0f);
  }
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

// Issue 64: a scene file that is a FIFO blocked the loader (opening a FIFO waits for a writer);
// it and a directory are refused from their status, named as what they are.
TEST(SceneLoaderErrors, AFifoOrADirectoryIsRefusedWithoutOpeningIt) {
  const test::TempDir temp("particles-fifo");
  const std::filesystem::path& dir = temp.path();
  const std::filesystem::path fifo = dir / "scene.toml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(load_error(fifo),
            fifo.string() + ": cannot open scene file: is not a regular file (it is a FIFO)");
  EXPECT_EQ(load_error(dir), dir.string() + ": cannot open scene file: is a directory");
}

// Issue 64: a scene's name went to stderr (and the HUD, and reports) as written, terminal escape
// sequences included; keys and strings quoted in errors too. Both are escaped now.
TEST(SceneLoader, ControlCharactersInNamesAndMessagesAreEscaped) {
  const SceneDesc d = parse_scene(
      "name = \"\\u001b]0;pwned\\u0007Gal\\u00e1xia \\u009b2J\"\n[model]\ntype = 'galaxy'\n",
      "inline.toml");
  EXPECT_EQ(d.name, "\\x1b]0;pwned\\x07Gal\xc3\xa1xia \\xc2\\x9b2J");
  const std::string message = parse_error("[model]\ntype = \"\\u001b[2Jnebula\"\n");
  EXPECT_EQ(message.rfind("inline.toml:2:8: model.type = \"\\x1b[2Jnebula\" is not a model", 0), 0u)
      << message;
  // A NUL in a key would have cut what() short.
  const std::string key = parse_error("[model]\ntype = 'galaxy'\n[camera]\n\"fo\\u0000v\" = 1\n");
  EXPECT_NE(key.find("unknown key 'fo\\x00v' in [camera] (expected one of: "), std::string::npos)
      << key;
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
      {"[model]\ntype = 3\n", "inline.toml:2:8: model.type: expected a string, one of \"galaxy\""},
      {"[model]\ntype='galaxy'\n[particles]\ncount = 1.5\n",
       "inline.toml:4:9: particles.count: expected an integer, got a float"},
      {"[model]\ntype='fountain'\n[model.fountain]\nlifetime = 0\n",
       "inline.toml:4:12: model.fountain.lifetime = 0 is out of range: must be (0, 600]"},
      {"[model]\ntype='fountain'\n[model.fountain]\nnozzle = [1, 2]\n",
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
      {"[model]\ntype='smoke'\n[model.smoke]\ngrowth = 25\n",
       "inline.toml:4:10: model.smoke.growth = 25 is out of range: must be [0.1, 20]"},
      {"[model]\ntype='galaxy'\n[particles]\nsprite_size_count = 4000000000\n",
       "inline.toml:4:21: particles.sprite_size_count = 4000000000 is out of range: must be [0, "},
      {"[model]\ntype='galaxy'\n[particles]\nsprite_size_count = -1\n",
       "inline.toml:4:21: particles.sprite_size_count = -1 is out of range: must be [0, "},
      // A model's table must be the model's: parameters of another are a mistake.
      {"[model]\ntype='fountain'\n[model.galaxy]\narms = 3\n",
       "inline.toml:3:8: [model.galaxy] does not match model.type = \"fountain\""},
      {"[model]\ntype='snow'\n[model.smoke]\n",
       "inline.toml:3:8: [model.smoke] does not match model.type = \"snow\""},
      {"[model]\ntype='snow'\nsnow = 1\n", "inline.toml:3:8: model.snow: expected a table"},
      {"[model]\ntype='snow'\n[model.rain]\n", "inline.toml:3:8: unknown key 'rain' in [model]"},
      {"[model]\ntype='smoke'\n[model.smoke]\nlifetime = 0.1\n",
       "inline.toml:4:12: model.smoke.lifetime = 0.1 is out of range: must be [0.2, 60]"},
      {"[model]\ntype='smoke'\n[model.smoke]\nturbulence = inf\n",
       "inline.toml:4:14: model.smoke.turbulence must be a finite number"},
      {"[model]\ntype='smoke'\n[model.smoke]\nsource = [0, nan, 0]\n",
       "inline.toml:4:14: model.smoke.source[1] must be a finite number"},
      {"[model]\ntype='vortex_ring'\n[model.vortex_ring]\ntube_radius = 3\n",
       "inline.toml:3:1: model.vortex_ring.tube_radius (3) must be less than ring_radius (3)"},
      {"[model]\ntype='vortex_ring'\n[model.vortex_ring]\nrise_speed = 0\n",
       "inline.toml:4:14: model.vortex_ring.rise_speed = 0 is out of range: must be (0, 100]"},
      {"[model]\ntype='vortex_ring'\n[model.vortex_ring]\ntravel = 0.1\n",
       "inline.toml:3:1: model.vortex_ring: travel / rise_speed"},
      {"[model]\ntype='fireworks'\n[model.fireworks]\ndrag = 0\n",
       "inline.toml:4:8: model.fireworks.drag = 0 is out of range: must be [0.001, 20]"},
      {"[model]\ntype='fireworks'\n[model.fireworks]\nbursts = 65\n",
       "inline.toml:4:10: model.fireworks.bursts = 65 is out of range: must be [1, 64]"},
      {"[model]\ntype='fireworks'\n[model.fireworks]\nspread = [1, -1, 1]\n",
       "inline.toml:4:14: model.fireworks.spread[1] = -1 is out of range: must be [0, 1000]"},
      {"[model]\ntype='fireworks'\n[model.fireworks]\nperiod = 1\ntrail = 1\n",
       "inline.toml:3:1: model.fireworks.trail (1) must be less than period (1)"},
      {"[model]\ntype='attractor'\n[model.attractor]\nscale = 0\n",
       "inline.toml:4:9: model.attractor.scale = 0 is out of range: must be [0.001, 100]"},
      {"[model]\ntype='attractor'\n[model.attractor]\nspeed = 6\n",
       "inline.toml:4:9: model.attractor.speed = 6 is out of range: must be [-5, 5]"},
      {"[model]\ntype='shells'\n[model.shells]\ninner_radius = 3\nouter_radius = 2\n",
       "inline.toml:3:1: model.shells.outer_radius (2) must be at least inner_radius (3)"},
      {"[model]\ntype='shells'\n[model.shells]\nshells = 0\n",
       "inline.toml:4:10: model.shells.shells = 0 is out of range: must be [1, 32]"},
      {"[model]\ntype='snow'\n[model.snow]\nbox_min = [0, 0, 0]\nbox_max = [1, 0, 1]\n",
       "inline.toml:3:1: model.snow: box_max must exceed box_min in x, y and z"},
      {"[model]\ntype='snow'\n[model.snow]\nsway_period = 0\n",
       "inline.toml:4:15: model.snow.sway_period = 0 is out of range: must be [0.2, 600]"},
  };
  for (const auto& [text, expected] : cases) {
    const std::string message = parse_error(text);
    EXPECT_EQ(message.rfind(expected, 0), 0u) << "got: " << message << "\nwanted: " << expected;
  }
}

// Found by fuzz/scene_loader_fuzz.cpp: a finite double beyond a float's range was accepted
// where any number goes (kAny, kPositive) and became infinity in the SceneDesc.
TEST(SceneLoader, NumbersBeyondAFloatAreRefused) {
  const std::pair<const char*, const char*> cases[] = {
      {"[model]\ntype='galaxy'\n[model.galaxy]\ntwist = 1e300\n",
       "inline.toml:4:9: model.galaxy.twist = 1e+300 is too large for a float"},
      {"[model]\ntype='galaxy'\n[camera]\ntarget = [0, -3.5e38, 0]\n",
       "inline.toml:4:14: camera.target[1] = -3.5e+38 is too large for a float"},
      {"[model]\ntype='galaxy'\n[[camera.path]]\ntime = 0\ndistance = 1e39\n",
       "inline.toml:5:12: camera.path[0].distance = 1e+39 is too large for a float"},
  };
  for (const auto& [text, expected] : cases) {
    const std::string message = parse_error(text);
    EXPECT_EQ(message.rfind(expected, 0), 0u) << "got: " << message << "\nwanted: " << expected;
  }
  // The largest float itself is a float, and then out of every key's range (a yaw in degrees
  // took any number before issue 64).
  EXPECT_EQ(parse_error("[model]\ntype='galaxy'\n[camera]\nyaw = -3.4028234e38\n"),
            "inline.toml:4:7: camera.yaw = -3.4028234e+38 is out of range: must be "
            "[-36000, 36000]");
}

// Found by fuzz/scene_loader_fuzz.cpp: Debian 12's toml++ (3.3.0) reaches undefined behaviour
// classifying some non-ASCII characters outside strings (app/scene/toml_guard.hpp); the loader
// refuses them first, naming the position, and still takes them in strings and comments.
TEST(SceneLoader, NonAsciiOutsideStringsIsRefusedBeforeTomlSeesIt) {
  EXPECT_EQ(parse_error("[[camera.path\xc8\x9c]]\n"),
            "inline.toml:1:14: non-ASCII character outside a string or comment (TOML allows "
            "them only in strings and comments)");
  EXPECT_EQ(parse_error("# \xc3\xa9\n[model]\ntype = 'galaxy' \xc2\xa7\n")
                .rfind("inline.toml:3:17: non-ASCII character outside", 0),
            0u);
  const std::string ok =
      "# Galaxie \xc3\xa0 deux bras \xe2\x80\x94 comment\n"
      "name = \"Galaxie \xc3\xa0 deux bras\" # \xc2\xa7\n"
      "[model]\ntype = 'galaxy'\n";
  EXPECT_EQ(parse_error(ok), "");
  EXPECT_EQ(parse_scene(ok, "inline.toml").name, "Galaxie \xc3\xa0 deux bras");
  EXPECT_EQ(parse_scene("\xef\xbb\xbf[model]\ntype = 'galaxy'\n", "bom.toml").params.model,
            Model::galaxy);
}

}  // namespace
}  // namespace particles
