// `particles soak`: its plan of segments and cycles and how memory growth is judged
// (in-process), and a short real soak on the CPU backend (the binary, headless).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "app/main/soak.hpp"
#include "tests/support/run_command.hpp"

namespace particles {
namespace {

const std::string kScenes = PARTICLES_SOURCE_DIR "/scenes/";

SoakConfig small_config() {
  SoakConfig c;
  c.scenes = {kScenes + "galaxy.toml", kScenes + "fountain.toml", kScenes + "smoke.toml"};
  c.counts = {1000, 2000};
  c.frames = 2000;
  c.every = 50;
  finish_soak_config(c, "cpu");
  return c;
}

TEST(SoakPlan, EveryCycleVisitsEveryValueInTheSameOrder) {
  const SoakConfig c = small_config();
  const int cycle = soak_cycle_length(c);
  const std::size_t offered = renderers_on("cpu").size();
  // The five algorithms, or each key mode under each renderer, whichever is longer.
  EXPECT_EQ(cycle, static_cast<int>(std::max<std::size_t>(5, 2 * offered)));
  std::set<std::size_t> scenes, counts, algorithms, key_modes, renderers;
  std::set<std::pair<std::size_t, std::size_t>> key_renderer;
  for (int p = 0; p < cycle; ++p) {
    const SoakSettings s = soak_settings(c, p);
    scenes.insert(s.scene);
    counts.insert(s.count);
    algorithms.insert(s.algorithm);
    key_modes.insert(s.key_mode);
    renderers.insert(s.renderer);
    key_renderer.insert({s.key_mode, s.renderer});
    const SoakSettings again = soak_settings(c, p + 3 * cycle);
    EXPECT_EQ(again.scene, s.scene);
    EXPECT_EQ(again.count, s.count);
    EXPECT_EQ(again.algorithm, s.algorithm);
    EXPECT_EQ(again.key_mode, s.key_mode);
    EXPECT_EQ(again.renderer, s.renderer);
  }
  EXPECT_EQ(scenes.size(), 3u);
  EXPECT_EQ(counts.size(), 2u);
  EXPECT_EQ(algorithms.size(), 5u);
  EXPECT_EQ(key_modes.size(), 2u);
  EXPECT_EQ(renderers.size(), offered);
  EXPECT_EQ(key_renderer.size(), 2 * offered);  // each key mode under each renderer
}

TEST(SoakPlan, DefaultsAndTooShortARun) {
  SoakConfig c;
  c.frames = 20000;
  finish_soak_config(c, "cuda");
  EXPECT_GE(c.scenes.size(), 10u);  // every shipped scene
  EXPECT_EQ(c.counts, soak_default_counts("cuda"));
  EXPECT_EQ(c.algorithms.size(), kAllAlgorithms.size());
  EXPECT_EQ(c.key_modes.size(), 2u);
  EXPECT_EQ(c.renderers.size(), 2u);
  EXPECT_GE(c.frames, 3 * soak_cycle_length(c) * c.every);  // the default runs enough cycles

  SoakConfig short_run = c;
  short_run.frames = 3 * soak_cycle_length(c) * c.every - 1;
  EXPECT_THROW(finish_soak_config(short_run, "cuda"), std::runtime_error);
  SoakConfig bad_scene;
  bad_scene.scenes = {"/nowhere/scene.toml"};
  EXPECT_THROW(finish_soak_config(bad_scene, "cpu"), std::exception);
}

// A SoakConfig filled in code meets the checks the flags make: NaN would have turned the memory
// check off (no growth compares greater than it), and the CPU backend takes at most 2^24.
TEST(SoakPlan, NonFiniteGrowthAndCountsAboveTheBackendsLimitAreRefused) {
  for (const double growth : {std::nan(""), HUGE_VAL, -1.0, 1000.5}) {
    SoakConfig c;
    c.scenes = {kScenes + "galaxy.toml"};
    c.counts = {1000};
    c.max_growth_percent = growth;
    EXPECT_THROW(finish_soak_config(c, "cpu"), std::runtime_error) << growth;
  }
  SoakConfig c;
  c.scenes = {kScenes + "galaxy.toml"};
  c.counts = {1000, (1u << 24) + 1};
  try {
    finish_soak_config(c, "cpu");
    ADD_FAILURE() << "accepted 2^24 + 1 particles on the CPU";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(),
                 "--counts: 16777217 particles are more than the cpu backend takes (at most "
                 "16777216, 2^24)");
  }
  c.counts = {1000};
  finish_soak_config(c, "cpu");
  ASSERT_EQ(c.inputs.size(), 1u);  // what the scenes read, which no output may replace
  EXPECT_EQ(c.inputs[0].path, kScenes + "galaxy.toml");
}

std::vector<SoakSample> samples_of(const std::vector<std::uint64_t>& rss) {
  std::vector<SoakSample> out;
  for (std::uint64_t v : rss) {
    SoakSample s;
    s.rss_bytes = v;
    out.push_back(s);
  }
  return out;
}

TEST(SoakGrowth, ComparesFloorsOfTheCycleAfterTheWarmupAndTheLastFullOne) {
  // Cycles of 3: the warm-up (ignored), steady cycles with a transient peak, a partial cycle.
  const auto steady = soak_growth(
      samples_of({50, 90, 70, 100, 150, 120, 100, 180, 120, 100, 150, 120, 999}), 3, false);
  ASSERT_TRUE(steady.percent);
  EXPECT_EQ(*steady.after_warmup, 100u);
  EXPECT_EQ(*steady.at_end, 100u);  // the last full cycle's, not the partial one's
  EXPECT_EQ(*steady.peak, 180u);    // reported, not judged
  EXPECT_DOUBLE_EQ(*steady.percent, 0.0);

  const auto leak =
      soak_growth(samples_of({50, 90, 70, 100, 150, 120, 102, 152, 122, 105, 155, 125}), 3, false);
  ASSERT_TRUE(leak.percent);
  EXPECT_NEAR(*leak.percent, 5.0, 1e-9);  // 105 / 100

  EXPECT_FALSE(soak_growth(samples_of({1, 2, 3, 4, 5, 6, 7, 8}), 3, false).percent);    // 2 cycles
  EXPECT_FALSE(soak_growth(samples_of({1, 2, 3, 4, 5, 6, 7, 8, 9}), 3, true).percent);  // no device
}

using Result = particles::test::CommandResult;
using particles::test::run_command;

TEST(SoakCommand, ShortCpuSoakPasses) {
  const auto out = std::filesystem::temp_directory_path() / "particles-soak-test";
  std::filesystem::remove_all(out);
  // Cycles of 5 segments (the algorithms) of 40 frames: 600 frames are three full cycles, with
  // scenes given by name and by path. Three short cycles leave the CPU backend's RSS floor a few
  // MiB of allocator noise (arenas of its threads and Mesa's settle over thousands of frames):
  // the 1% bar is the long soak's (docs/reliability.md); here a leak must be gross to fail.
  // Under AddressSanitizer, RSS grows by design while freed blocks fill its quarantine (up to
  // 256 MiB), so there the bar is lifted and LeakSanitizer, which runs at exit, judges leaks.
#if defined(__SANITIZE_ADDRESS__)
  const std::string max_growth = "1000";
#else
  const std::string max_growth = "10";
#endif
  const Result r = run_command(std::string(PARTICLES_BINARY) +
                               " soak --backend cpu --frames 720 --every 30 " + "--scenes galaxy," +
                               kScenes + "fountain.toml --counts 2000,3000 --size 320x180 " +
                               "--max-growth " + max_growth + " --out " + out.string());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("| mis-sorted frames | 0 |"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("PASSED"), std::string::npos) << r.output;

  std::ifstream json_file(out / "summary.json");
  ASSERT_TRUE(json_file);
  const nlohmann::json s = nlohmann::json::parse(json_file);
  EXPECT_EQ(s.at("backend"), "cpu");
  EXPECT_EQ(s.at("frames"), 720);
  EXPECT_EQ(s.at("switches"), 23);  // 24 segments of 30 frames
  EXPECT_EQ(s.at("order_checks"), 72);
  EXPECT_EQ(s.at("mis_sorted"), 0);
  EXPECT_EQ(s.at("errors"), 0);
  EXPECT_TRUE(s.at("passed").get<bool>());
  EXPECT_TRUE(s.at("host_rss").at("growth_percent").is_number());
  EXPECT_TRUE(s.at("device_memory").at("growth_percent").is_null());  // none on the CPU

  std::ifstream csv(out / "samples.csv");
  std::string line;
  std::getline(csv, line);
  EXPECT_EQ(line, "segment,frame,scene,count,algorithm,key_mode,renderer,rss_bytes,device_bytes");
  int rows = 0;
  while (std::getline(csv, line)) ++rows;
  EXPECT_EQ(rows, 24);
}

TEST(SoakCommand, RejectsARunShorterThanThreeCycles) {
  const Result r =
      run_command(std::string(PARTICLES_BINARY) +
                  " soak --backend cpu --frames 140 --every 50 --scenes galaxy --counts 1000 "
                  "--size 64x64 --out " +
                  (std::filesystem::temp_directory_path() / "particles-soak-short").string());
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("less than three cycles"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace particles
