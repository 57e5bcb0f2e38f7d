// Live switching without a window: the count ladder and scene stepping the HUD and keys use,
// scene names on the command line, and switch_scene / apply_switch_requests on the CPU backend
// through a headless GL context (the backend resizes real GL buffers).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>

#include "app/gl/gl_context.hpp"
#include "app/gl/gpu_timer.hpp"
#include "app/gl/particle_buffers.hpp"
#include "app/gl/particle_renderer.hpp"
#include "app/gl/render_target.hpp"
#include "app/main/app_state.hpp"
#include "app/main/backend.hpp"
#include "app/main/frame_runner.hpp"
#include "app/main/order_check.hpp"
#include "app/main/scene_switch.hpp"
#include "app/scene/paths.hpp"
#include "app/scene/scene_loader.hpp"
#include "tests/support/cpu_frame_fixture.hpp"

namespace particles {
namespace {

const std::filesystem::path kScenes = PARTICLES_SOURCE_DIR "/scenes";

TEST(CountPresets, LadderPerBackendWithTheSceneDefault) {
  const auto doubling = [](std::uint32_t from, std::uint32_t to) {
    std::vector<std::uint32_t> v;
    for (std::uint32_t n = from; n <= to; n *= 2) v.push_back(n);
    return v;
  };
  EXPECT_EQ(count_presets("cuda", 1u << 20), doubling(1u << 16, 1u << 24));
  std::vector<std::uint32_t> with_scene = doubling(1u << 16, 1u << 24);
  with_scene.insert(with_scene.begin() + 2, 200000u);  // between 128K and 256K
  EXPECT_EQ(count_presets("cuda", 200000), with_scene);
  const auto cpu = count_presets("cpu", 131072);  // 128K, already a step
  EXPECT_EQ(cpu, doubling(1u << 14, 1u << 20));
  EXPECT_LE(cpu.back(), 1u << 20);  // the CPU stays interactive
}

TEST(CountPresets, StepsClampAndLeaveGaps) {
  const std::vector<std::uint32_t> p{100, 200, 400};
  EXPECT_EQ(step_count(p, 200, 1), 400u);
  EXPECT_EQ(step_count(p, 200, -1), 100u);
  EXPECT_EQ(step_count(p, 400, 1), 400u);
  EXPECT_EQ(step_count(p, 100, -1), 100u);
  EXPECT_EQ(step_count(p, 300, 1), 400u);  // between presets: to the neighbour on that side
  EXPECT_EQ(step_count(p, 300, -1), 200u);
  EXPECT_EQ(step_count(p, 50, -1), 100u);
  EXPECT_EQ(step_count(p, 500, 1), 400u);
  EXPECT_EQ(step_count({}, 7, 1), 7u);
}

TEST(ScenePicker, ListsEveryShippedSceneAndSteps) {
  const auto files = list_scene_files();
  std::size_t shipped = 0;
  for (const auto& e : std::filesystem::directory_iterator(kScenes)) {
    shipped += e.path().extension() == ".toml";
  }
  ASSERT_EQ(files.size(), shipped);
  ASSERT_GE(files.size(), 2u);
  for (std::size_t i = 1; i < files.size(); ++i) {
    EXPECT_LT(files[i - 1].filename(), files[i].filename());
  }
  EXPECT_EQ(scene_index(files, kScenes / files[1].filename()), 1);
  EXPECT_EQ(scene_index(files, "/nowhere/x.toml"), -1);
  EXPECT_EQ(step_scene(files, files[0], 1), files[1]);
  EXPECT_EQ(step_scene(files, files[0], -1), files.back());
  EXPECT_EQ(step_scene(files, files.back(), 1), files[0]);
  EXPECT_EQ(step_scene(files, "/nowhere/x.toml", 1), files[0]);
  EXPECT_FALSE(step_scene({}, files[0], 1));
}

TEST(SceneArgument, NamesAndPaths) {
  const auto galaxy = resolve_scene_argument("galaxy");
  EXPECT_EQ(galaxy.filename(), "galaxy.toml");
  EXPECT_TRUE(std::filesystem::is_regular_file(galaxy));
  const std::string path = (kScenes / "fountain.toml").string();
  EXPECT_EQ(resolve_scene_argument(path), path);
  EXPECT_EQ(resolve_scene_argument("no_such_scene"), "no_such_scene");  // named in the error
  EXPECT_EQ(resolve_scene_argument("dir/galaxy"), "dir/galaxy");        // no name lookup
}

class SceneSwitch : public test::CpuFrameTest {
 protected:
  void SetUp() override {
    if (!set_up_frames(kScenes / "galaxy.toml", 1500)) return;
    state_.backend_name = backend_->name();
    state_.scene = scene_;
    state_.count = 1500;
  }

  // One frame through a fresh FrameRunner (as the session makes after a switch), and its check.
  OrderCheck run_frame() {
    gl::ParticleRenderer renderer;
    gl::RenderTarget target({64, 64});
    gl::GpuTimer timer;
    FrameRunner runner(*backend_, renderer, *buffers_, target, timer);
    const FrameRequest request;
    const FrameOutcome out = runner.run(state_.scene, state_.camera.pose, {64, 64}, request);
    return check_draw_order(buffers_->read_vertices(), buffers_->read_order(), out.settings.view,
                            request.choices.key_mode, request.choices.key_bits);
  }

  AppState state_;
};

TEST_F(SceneSwitch, SceneAndCountResetTheBackendAndTheView) {
  state_.choices.algorithm = Algorithm::quicksort;
  state_.choices.renderer = RendererKind::composite;
  state_.choices.key_mode = KeyMode::quantized;
  state_.sim_time = 12.5;
  state_.camera.follow_path = false;
  state_.last_info.extents.min = {-1, -1, -1};
  state_.last_info.extents.max = {1, 1, 1};
  state_.requested_scene = kScenes / "fountain.toml";
  state_.requested_count = 2500;

  const SwitchResult r = apply_switch_requests(state_, *backend_, *buffers_);
  EXPECT_TRUE(r.reset);
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_FALSE(state_.requested_scene);
  EXPECT_FALSE(state_.requested_count);
  EXPECT_EQ(state_.scene.name, load_scene(kScenes / "fountain.toml").name);
  EXPECT_EQ(state_.count, 2500u);
  EXPECT_EQ(buffers_->count(), 2500u);
  EXPECT_EQ(state_.sim_time, 0.0);
  EXPECT_TRUE(state_.last_info.extents.empty());
  EXPECT_EQ(state_.camera.follow_path, !state_.scene.camera_path.empty());
  EXPECT_EQ(state_.camera.frame_pending, state_.scene.camera_auto_frame);
  EXPECT_EQ(state_.camera.pose.distance, state_.scene.camera.distance);
  // The user's choices survive.
  EXPECT_EQ(state_.choices.algorithm, Algorithm::quicksort);
  EXPECT_EQ(state_.choices.renderer, RendererKind::composite);
  EXPECT_EQ(state_.choices.key_mode, KeyMode::quantized);
  EXPECT_EQ(state_.count_presets, count_presets("cpu", state_.scene.cpu_count));

  const OrderCheck check = run_frame();
  EXPECT_TRUE(check.ok) << check.problem;
}

TEST_F(SceneSwitch, ASceneAloneTakesItsDefaultCountACountAloneKeepsTheScene) {
  SceneDesc scene = state_.scene;
  std::uint32_t count = state_.count;
  SwitchRequest to_smoke;
  to_smoke.scene = kScenes / "smoke.toml";
  ASSERT_TRUE(switch_scene(to_smoke, *backend_, *buffers_, scene, count).reset);
  EXPECT_EQ(count, scene.cpu_count);
  EXPECT_EQ(buffers_->count(), scene.cpu_count);
  const std::string smoke = scene.name;

  SwitchRequest smaller;
  smaller.count = 777;
  ASSERT_TRUE(switch_scene(smaller, *backend_, *buffers_, scene, count).reset);
  EXPECT_EQ(scene.name, smoke);
  EXPECT_EQ(count, 777u);
  EXPECT_EQ(buffers_->count(), 777u);

  EXPECT_FALSE(switch_scene({}, *backend_, *buffers_, scene, count).reset);  // nothing asked
}

TEST_F(SceneSwitch, ABadSceneKeepsTheOldOneRunning) {
  const auto dir = std::filesystem::temp_directory_path() / "particles-switch-test";
  std::filesystem::create_directories(dir);
  const auto bad = dir / "bad.toml";
  std::ofstream(bad) << "name = \"bad\"\nmodel = \"no-such-model\"\n[[[\n";
  const std::string galaxy = state_.scene.name;

  for (const auto& request : {bad, dir / "missing.toml"}) {
    state_.requested_scene = request;
    state_.requested_count = 999;
    const SwitchResult r = apply_switch_requests(state_, *backend_, *buffers_);
    EXPECT_FALSE(r.reset);
    EXPECT_FALSE(r.error.empty());
    EXPECT_NE(state_.switch_error.find(request.filename().string()), std::string::npos)
        << state_.switch_error;
    EXPECT_EQ(state_.scene.name, galaxy);
    EXPECT_EQ(state_.count, 1500u);
    EXPECT_EQ(buffers_->count(), 1500u);
    EXPECT_FALSE(state_.requested_scene);
    const OrderCheck check = run_frame();  // the old scene still runs
    EXPECT_TRUE(check.ok) << check.problem;
  }

  // The next good switch clears the error.
  state_.requested_count = 1200;
  EXPECT_TRUE(apply_switch_requests(state_, *backend_, *buffers_).reset);
  EXPECT_TRUE(state_.switch_error.empty());
  EXPECT_EQ(buffers_->count(), 1200u);
}

// Issue 64: the run's outputs were checked against the start-up scene only, so picking a scene
// in the HUD whose file (or point cloud) is the --screenshot or --report path would have the
// write at the end replace it. The picked scene is refused like a bad one; the old one runs on.
TEST_F(SceneSwitch, AScenePickedLaterIsCheckedAgainstTheRunsOutputs) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("particles-switch-outputs-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "data");
  std::filesystem::copy_file(kScenes / "points.toml", dir / "points.toml");
  std::filesystem::copy_file(kScenes / "data" / "sample.ply", dir / "data" / "sample.ply");
  const std::string galaxy = state_.scene.name;

  const std::pair<std::string, std::filesystem::path> outputs[] = {
      {"--screenshot", dir / "points.toml"},
      {"--report", dir / "data" / ".." / "data" / "sample.ply"},  // another spelling
  };
  for (const auto& [flag, path] : outputs) {
    state_.options.screenshot = flag == "--screenshot" ? path : "";
    state_.options.report = flag == "--report" ? path : "";
    state_.requested_scene = dir / "points.toml";
    const SwitchResult r = apply_switch_requests(state_, *backend_, *buffers_);
    EXPECT_FALSE(r.reset);
    EXPECT_NE(r.error.find(flag + ": " + path.string() + " is the "), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("this run reads; name another file"), std::string::npos) << r.error;
    EXPECT_EQ(state_.switch_error, r.error);
    EXPECT_EQ(state_.scene.name, galaxy);
    EXPECT_EQ(buffers_->count(), 1500u);
  }
  // Outputs elsewhere: the same scene loads.
  state_.options.screenshot = dir / "shot.png";
  state_.options.report = "";
  state_.requested_scene = dir / "points.toml";
  const SwitchResult r = apply_switch_requests(state_, *backend_, *buffers_);
  EXPECT_TRUE(r.reset) << r.error;
  EXPECT_NE(state_.scene.name, galaxy);
  std::filesystem::remove_all(dir);
}

TEST_F(SceneSwitch, EveryShippedSceneLoadsAndSorts) {
  for (const auto& file : list_scene_files()) {
    state_.requested_scene = file;
    state_.requested_count = 1000;
    const SwitchResult r = apply_switch_requests(state_, *backend_, *buffers_);
    ASSERT_TRUE(r.reset) << file << ": " << r.error;
    const OrderCheck check = run_frame();
    EXPECT_TRUE(check.ok) << file << ": " << check.problem;
  }
}

}  // namespace
}  // namespace particles
