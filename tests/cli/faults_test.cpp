// The real binary where its surroundings fail: no display, no shaders, no GL, output paths that
// cannot be written. Each is a clear message and an exit status, never a crash or a hang, and
// an output path is refused before the run starts (these runs ask for far more frames than the
// test could wait for).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/run_command.hpp"

namespace {

namespace fs = std::filesystem;

const std::string kBinary = PARTICLES_BINARY;

using Result = particles::test::CommandResult;

// `env` goes before the binary (e.g. "env -u DISPLAY"); both are passed to the shell as they are.
Result run(const std::string& env, const std::string& args) {
  return particles::test::run_command(env + " " + particles::test::shell_quoted(kBinary) + " " +
                                      args);
}

class Faults : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("cli_faults_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::ofstream(dir_ / "plain") << "a file where a folder should be\n";
  }
  void TearDown() override { fs::remove_all(dir_); }
  // The path of `name` in the test's folder, quoted for the shell.
  std::string at(const std::string& name) const {
    std::string quoted(1, '\'');
    quoted.append((dir_ / name).string()).push_back('\'');
    return quoted;
  }
  fs::path dir_;
};

constexpr const char* kSmallRun = "--backend cpu --count 2000 --size 64x48";

TEST_F(Faults, WithoutADisplayTheWindowRunBecomesHeadless) {
  const Result r = run("env -u DISPLAY -u WAYLAND_DISPLAY",
                       std::string(kSmallRun) + " --frames 3 --screenshot " + at("shot.png") +
                           " --report " + at("frames.csv"));
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find(", headless, GL "), std::string::npos) << r.output;
  EXPECT_TRUE(fs::is_regular_file(dir_ / "shot.png"));
  EXPECT_TRUE(fs::is_regular_file(dir_ / "frames.csv"));
}

TEST_F(Faults, AMissingShaderFolderIsNamedAndNothingIsWritten) {
  const Result r =
      run("PARTICLES_SHADER_DIR=/nonexistent/shaders",
          std::string(kSmallRun) + " --headless --frames 100000 --screenshot " + at("shot.png"));
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("error: PARTICLES_SHADER_DIR=/nonexistent/shaders has no particle.vert"),
            std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(dir_ / "shot.png"));
}

TEST_F(Faults, NoGlContextIsAnErrorNotACrash) {
  // libglvnd finds no EGL driver: no headless context can be made.
  const Result r = run("__EGL_VENDOR_LIBRARY_FILENAMES=/nonexistent/egl_vendor.json",
                       std::string(kSmallRun) + " --headless --frames 100000");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("error: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("EGL"), std::string::npos) << r.output;
}

TEST_F(Faults, AMissingSceneIsNamedByTheBenchAndTheSoak) {
  for (const std::string command : {"bench --scenes nosuchscene", "soak --scenes nosuchscene"}) {
    const Result r = run("", command + " --backend cpu --out " + at("out"));
    EXPECT_NE(r.status, 0) << command << ": " << r.output;
    EXPECT_NE(r.output.find("nosuchscene"), std::string::npos) << command << ": " << r.output;
    EXPECT_NE(r.output.find("not found"), std::string::npos) << command << ": " << r.output;
  }
}

// Each would run for many minutes if the path were only tried at the end.
TEST_F(Faults, UnwritableOutputPathsStopTheRunBeforeItStarts) {
  const std::string plain = (dir_ / "plain").string();
  const std::pair<std::string, std::string> cases[] = {
      {"--headless --frames 1000000 --screenshot " + at("plain/shot.png"),
       "--screenshot: cannot create directory " + plain},
      {"--headless --frames 1000000 --screenshot " + at(""), "--screenshot: "},
      {"--headless --frames 1000000 --report " + at("plain/frames.csv"),
       "--report: cannot create directory " + plain},
      {"--headless --frames 1000000 --record " + at("plain/rec"), "--record: cannot create"},
      {"bench --frames 100000 --out " + at("plain/bench"),
       "--out: cannot create directory " + plain},
      {"soak --frames 1000000 --out " + at("plain/soak"),
       "--out: cannot create directory " + plain},
  };
  for (const auto& [args, phrase] : cases) {
    const bool sub = args.rfind("bench", 0) == 0 || args.rfind("soak", 0) == 0;
    const std::string line = sub ? args + " --backend cpu --counts 2000 --size 64x48"
                                 : std::string(kSmallRun) + " " + args;
    const Result r = run("", line);
    EXPECT_EQ(r.status, 1) << line << ": " << r.output;
    EXPECT_NE(r.output.find("error: " + phrase), std::string::npos) << line << ": " << r.output;
    EXPECT_LT(r.seconds, 30.0) << line;
  }
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

// Every file a run writes is whole and alone: no temporary file is left beside it.
TEST_F(Faults, WrittenFilesLeaveNoTemporaryFilesBehind) {
  const Result r = run("", std::string(kSmallRun) + " --headless --frames 3 --screenshot " +
                               at("shot.png") + " --report " + at("frames.csv"));
  ASSERT_EQ(r.status, 0) << r.output;
  const Result b = run("",
                       "bench --backend cpu --counts 2000 --size 64x48 --frames 3 --warmup 1 "
                       "--algorithms radix,auto --out " +
                           at("bench"));
  ASSERT_EQ(b.status, 0) << b.output;
  std::string names;
  for (const auto& e : fs::recursive_directory_iterator(dir_)) {
    names += e.path().filename().string() + ";";
  }
  EXPECT_EQ(names.find(".tmp-"), std::string::npos) << names;
  for (const char* f :
       {"shot.png", "frames.csv", "bench/frames.csv", "bench/summary.json", "bench/chart.svg"}) {
    EXPECT_GT(fs::file_size(dir_ / f), 0u) << f;
  }
}

}  // namespace

namespace {

// Mesa's llvmpipe gave the first GL_TIME_ELAPSED query of a fresh context its end's raw clock
// (the uptime) when it began before the context's first clear: a 5-frame bench printed
// `draw ... p99 1624355 ms`. The draw's query now begins after the clear (frame_runner.cpp).
TEST_F(Faults, TheFirstFramesDrawTimeIsReal) {
  const Result r = run("",
                       "bench --backend cpu --counts 2000 --size 64x48 --frames 4 --warmup 0 "
                       "--algorithms radix --renderers raster --out " +
                           at("bench"));
  ASSERT_EQ(r.status, 0) << r.output;
  std::ifstream csv(dir_ / "bench" / "frames.csv");
  std::string header;
  std::getline(csv, header);
  std::size_t column = 0;
  for (std::size_t at = 0, i = 0; at != std::string::npos; ++i) {
    const std::size_t next = header.find(',', at);
    if (header.substr(at, next == std::string::npos ? next : next - at) == "draw_ms") column = i;
    at = next == std::string::npos ? next : next + 1;
  }
  ASSERT_GT(column, 0u) << header;
  int rows = 0;
  for (std::string line; std::getline(csv, line); ++rows) {
    std::size_t at = 0;
    for (std::size_t i = 0; i < column; ++i) at = line.find(',', at) + 1;
    const double draw_ms = std::stod(line.substr(at));
    EXPECT_GE(draw_ms, 0.0) << line;
    EXPECT_LT(draw_ms, 1000.0) << "frame " << rows << ": " << line;
  }
  EXPECT_EQ(rows, 4);
}

}  // namespace
