// Runs the real `particles bench` on the CPU backend with bench/ci.toml and checks the files it
// writes: their structure, one CSV row per frame, and that every frame passed verification.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "core/frame_types.hpp"

namespace {

struct Result {
  int status;
  std::string output;
};

Result run(const std::string& command) {
  Result r{-1, {}};
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return r;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe)) r.output += buffer;
  const int status = pclose(pipe);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::filesystem::path fresh_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / name;
  std::filesystem::remove_all(dir);
  return dir;
}

// Writes `contents` as <name>.toml in a fresh directory and runs `particles bench` on it.
Result run_bench_file(const std::string& name, const std::string& contents) {
  const auto dir = fresh_dir("particles-bench-" + name);
  std::filesystem::create_directories(dir);
  const auto file = dir / (name + ".toml");
  std::ofstream(file) << contents;
  return run(std::string(PARTICLES_BINARY) + " bench --backend cpu --file " + file.string() +
             " --out " + (dir / "out").string());
}

TEST(BenchCommand, CpuMatrixWritesVerifiedResults) {
  const auto out = fresh_dir("particles-bench-test");
  const Result r = run(std::string(PARTICLES_BINARY) + " bench --backend cpu --file " +
                       PARTICLES_SOURCE_DIR "/bench/ci.toml --out " + out.string());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("| scene | backend | algorithm"), std::string::npos) << r.output;

  std::ifstream json_file(out / "summary.json");
  ASSERT_TRUE(json_file) << "summary.json missing";
  const nlohmann::json summary = nlohmann::json::parse(json_file);
  EXPECT_TRUE(summary.at("verify").get<bool>());
  const auto& runs = summary.at("runs");
  // 2 scenes x 1 count x 2 key modes x 2 algorithms
  ASSERT_EQ(runs.size(), 8u);
  for (const auto& run : runs) {
    EXPECT_EQ(run.at("backend"), "cpu");
    EXPECT_EQ(run.at("count"), 2000);
    EXPECT_EQ(run.at("frames"), 20);
    EXPECT_EQ(run.at("verified_frames"), 20) << run.dump();
    EXPECT_EQ(run.at("verify_failures"), 0);
    for (const char* stage : {"simulate", "extents", "keys", "sort", "order"}) {
      const auto& s = run.at("stages").at(stage);
      EXPECT_EQ(s.at("samples"), 20) << stage;
      EXPECT_GE(s.at("median_ms").get<double>(), 0.0);
      EXPECT_GE(s.at("p99_ms").get<double>(), s.at("median_ms").get<double>());
    }
    EXPECT_GT(run.at("frame").at("median_ms").get<double>(), 0.0);
    // The CPU backend times every stage of every frame, and its span with them; the period the
    // summary reports is the default one, which this run did not change.
    EXPECT_EQ(run.at("stage_every"), particles::kDefaultStageSamplePeriod);
    EXPECT_EQ(run.at("span").at("samples"), 20);
    EXPECT_GT(run.at("span").at("median_ms").get<double>(), 0.0);
    // Each auto run is measured against the radix run of its scene and keys.
    if (run.at("algorithm") == "auto") {
      EXPECT_GT(run.at("span_vs_radix").get<double>(), 0.0) << run.dump();
    } else {
      EXPECT_FALSE(run.contains("span_vs_radix")) << run.dump();
    }
  }
  EXPECT_NE(
      r.output.find("| scene | backend | algorithm | keys | count | span | radix span | x radix |"),
      std::string::npos)
      << r.output;

  std::ifstream csv(out / "frames.csv");
  std::string header;
  ASSERT_TRUE(std::getline(csv, header));
  EXPECT_EQ(header,
            "run,scene,backend,algorithm,key_mode,count,frame,simulate_ms,extents_ms,keys_ms,"
            "sort_ms,order_ms,span_ms,draw_ms,frame_ms,sort_path,verified");
  int rows = 0;
  for (std::string line; std::getline(csv, line); ++rows) {
    EXPECT_EQ(line.back(), '1') << "frame not verified: " << line;
  }
  EXPECT_EQ(rows, 8 * 20);

  // The chart is a real PNG of plausible size.
  std::ifstream png(out / "chart.png", std::ios::binary);
  char signature[8] = {};
  png.read(signature, 8);
  EXPECT_EQ(std::string(signature + 1, 3), "PNG");
  EXPECT_GT(std::filesystem::file_size(out / "chart.png"), 2000u);
}

TEST(BenchCommand, BadBenchFileNamesLineAndColumn) {
  const Result r = run_bench_file("bad", "frames = 10\nalgorithms = [\"radix\", \"bogo\"]\n");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("bad.toml:2:24"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("unknown algorithm"), std::string::npos) << r.output;
}

TEST(BenchCommand, NonBooleanFuseStagesNamesLineAndColumn) {
  const Result r = run_bench_file("fuse", "frames = 10\nfuse_stages = \"yes\"\n");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("fuse.toml:2:15"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("fuse_stages must be true or false"), std::string::npos) << r.output;
}

TEST(BenchCommand, StageEveryOutOfRangeIsRejected) {
  const Result flag = run(std::string(PARTICLES_BINARY) + " bench --stage-every 0");
  EXPECT_EQ(flag.status, 2) << flag.output;
  EXPECT_NE(flag.output.find("--stage-every"), std::string::npos) << flag.output;
  const Result file = run_bench_file("every", "frames = 10\nstage_every = 0\n");
  EXPECT_NE(file.status, 0);
  EXPECT_NE(file.output.find("every.toml:2:15"), std::string::npos) << file.output;
  EXPECT_NE(file.output.find("stage_every must be in [1, 100000]"), std::string::npos)
      << file.output;
}

TEST(BenchCommand, UnknownAlgorithmFlagIsAUsageError) {
  const Result r = run(std::string(PARTICLES_BINARY) + " bench --algorithms radix,bogo");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("bogo"), std::string::npos) << r.output;
}

}  // namespace
