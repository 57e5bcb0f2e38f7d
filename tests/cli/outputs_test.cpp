// The real binary never destroys what the user did not name (issue 64): a device node, FIFO or
// symbolic link given as an output is refused and left as it was, the scene's own files are
// never outputs, a headless run writes nothing unasked, and an empty output path is an error
// before any frame. The runs are short (3 frames): a binary that did not refuse would finish
// and do the damage, and the test would see it.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/file_bytes.hpp"
#include "tests/support/run_command.hpp"
#include "tests/support/temp_dir.hpp"

namespace {

namespace fs = std::filesystem;

using Result = particles::test::CommandResult;
using particles::test::shell_quoted;

const std::string kBinary = PARTICLES_BINARY;
constexpr const char* kSmallRun = "--headless --backend cpu --count 2000 --size 64x48 --frames 3";
constexpr const char* kLongRun =
    "--headless --backend cpu --count 2000 --size 64x48 --frames 1000000";

std::string bytes_of(const fs::path& file) {
  return particles::file_bytes(file).value_or("");
}

class Outputs : public ::testing::Test {
 protected:
  // The binary with `args` (shell words), run in the test's folder.
  Result run(const std::string& args) const {
    return particles::test::run_command("cd " + shell_quoted(dir_.string()) + " && " +
                                        shell_quoted(kBinary) + " " + args);
  }
  std::string at(const std::string& name) const { return shell_quoted((dir_ / name).string()); }
  std::string listing() const {
    std::string names;
    for (const auto& e : fs::directory_iterator(dir_)) names += e.path().filename().string() + ";";
    return names;
  }

  const particles::test::TempDir temp_{"cli_outputs"};
  const fs::path dir_ = temp_.path();
};

// The issue's `--screenshot /dev/null` as root, on scratch nodes: the run used to rename its
// PNG over the node, leaving a plain file where the device was.
TEST_F(Outputs, ADeviceNodeOrFifoIsRefusedAndLeftAsItWas) {
  ASSERT_EQ(::mkfifo((dir_ / "fifo").c_str(), 0644), 0);
  std::vector<std::pair<std::string, fs::file_type>> nodes = {{"fifo", fs::file_type::fifo}};
  if (::geteuid() == 0) {
    ASSERT_EQ(::mknod((dir_ / "null").c_str(), S_IFCHR | 0666, makedev(1, 3)), 0);
    nodes.push_back({"null", fs::file_type::character});
  }
  for (const auto& [name, type] : nodes) {
    for (const char* flag : {"--screenshot", "--report"}) {
      const Result r = run(std::string(kSmallRun) + " " + flag + " " + at(name));
      EXPECT_EQ(r.status, 1) << flag << " " << name << ": " << r.output;
      EXPECT_NE(
          r.output.find(std::string("error: ") + flag + ": " + (dir_ / name).string() + " is a "),
          std::string::npos)
          << r.output;
      EXPECT_NE(r.output.find("not a regular file"), std::string::npos) << r.output;
      EXPECT_EQ(fs::symlink_status(dir_ / name).type(), type) << flag << " " << name;
    }
  }
}

TEST_F(Outputs, ASymbolicLinkIsRefusedAndNeitherItNorItsTargetChanges) {
  std::ofstream(dir_ / "photo.png") << "a photo";
  fs::create_symlink(dir_ / "photo.png", dir_ / "link.png");
  const Result r = run(std::string(kSmallRun) + " --screenshot " + at("link.png"));
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(
      r.output.find("error: --screenshot: " + (dir_ / "link.png").string() + " is a symbolic link"),
      std::string::npos)
      << r.output;
  EXPECT_TRUE(fs::is_symlink(dir_ / "link.png"));
  EXPECT_EQ(bytes_of(dir_ / "photo.png"), "a photo");
}

TEST_F(Outputs, TheScenesOwnFilesAreNeverOutputs) {
  // A points scene and its PLY, copied here; the scene names the PLY relative to itself.
  const fs::path scenes = fs::path(kBinary).parent_path() / "scenes";
  fs::create_directories(dir_ / "data");
  fs::copy_file(scenes / "points.toml", dir_ / "points.toml");
  fs::copy_file(scenes / "data" / "sample.ply", dir_ / "data" / "sample.ply");
  const std::string scene = bytes_of(dir_ / "points.toml");
  const std::string cloud = bytes_of(dir_ / "data" / "sample.ply");
  const std::pair<std::string, std::string> cases[] = {
      {"--screenshot " + at("points.toml"), "is the scene file of 'Point cloud (trefoil knot)'"},
      {"--screenshot points.toml", "is the scene file of"},  // relative: the same file
      {"--report " + at("data/sample.ply"), "is the point cloud of scene"},
  };
  for (const auto& [args, phrase] : cases) {
    const Result r = run(std::string(kSmallRun) + " --scene " + at("points.toml") + " " + args);
    EXPECT_EQ(r.status, 1) << args << ": " << r.output;
    EXPECT_NE(r.output.find(phrase), std::string::npos) << args << ": " << r.output;
    EXPECT_NE(r.output.find("this run reads; name another file"), std::string::npos) << r.output;
  }
  EXPECT_EQ(bytes_of(dir_ / "points.toml"), scene);
  EXPECT_EQ(bytes_of(dir_ / "data" / "sample.ply"), cloud);
}

TEST_F(Outputs, ABenchFileIsNeverAnOutput) {
  fs::create_directories(dir_ / "out");
  std::ofstream(dir_ / "out" / "summary.json") << "counts = [2000]\nframes = 2\nwarmup = 0\n";
  const std::string bench = bytes_of(dir_ / "out" / "summary.json");
  const Result r = run("bench --backend cpu --size 64x48 --algorithms radix --file " +
                       at("out/summary.json") + " --out " + at("out"));
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("error: --out: " + (dir_ / "out" / "summary.json").string() +
                          " is the bench file this run reads"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(bytes_of(dir_ / "out" / "summary.json"), bench);
}

// It used to write ./out/particles.png and ./out/frame_times.csv unasked, over earlier ones.
TEST_F(Outputs, AHeadlessRunWritesNoFileUnasked) {
  const Result r = run(kSmallRun);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(listing(), "");
  EXPECT_NE(r.output.find("no files written: --screenshot FILE, --report FILE"), std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("screenshot: "), std::string::npos) << r.output;
}

TEST_F(Outputs, WhatIsAskedForIsWritten) {
  const Result r = run(std::string(kSmallRun) + " --screenshot shot.png --report times.csv");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output.find("no files written"), std::string::npos) << r.output;
  EXPECT_GT(fs::file_size(dir_ / "shot.png"), 0u);
  EXPECT_GT(fs::file_size(dir_ / "times.csv"), 0u);
}

// Each would run for a long time if the path were only tried at the end; `bench --out ""` used
// to run every frame and then fail to create "", losing the results.
TEST_F(Outputs, AnEmptyOutputPathIsAnErrorBeforeAnyFrame) {
  const std::pair<std::string, std::string> cases[] = {
      {std::string(kLongRun) + " --screenshot ''", "--screenshot"},
      {std::string(kLongRun) + " --report ''", "--report"},
      {std::string(kLongRun) + " --record ''", "--record"},
      {"bench --backend cpu --counts 2000 --size 64x48 --frames 100000 --out ''", "--out"},
      {"soak --backend cpu --counts 2000 --size 64x48 --frames 1000000 --out ''", "--out"},
  };
  for (const auto& [args, flag] : cases) {
    const Result r = run(args);
    EXPECT_EQ(r.status, 2) << args << ": " << r.output;
    EXPECT_NE(r.output.find(flag + ": an empty path names no file"), std::string::npos)
        << args << ": " << r.output;
    EXPECT_LT(r.seconds, 30.0) << args;
  }
  EXPECT_EQ(listing(), "");
}

// Two outputs that are one file: the report used to be written over the screenshot at the end.
// Refused before any frame (each run asks for 10^6 frames), whatever the spelling, and nothing
// is created, not even the --record folder.
TEST_F(Outputs, TwoOutputsThatAreOneFileAreRefusedBeforeAnyFrame) {
  fs::create_directories(dir_ / "sub");
  const std::pair<std::string, std::string> cases[] = {
      {"--screenshot x.png --report x.png", "error: --report: x.png is also the --screenshot"},
      {"--screenshot x.png --report ./sub/../x.png", "is also the --screenshot output (x.png)"},
      {"--screenshot " + at("x.png") + " --report x.png", "is also the --screenshot output"},
      {"--screenshot rec/x.png --record rec",
       "error: --screenshot: rec/x.png is inside the "
       "--record folder rec"},
      {"--report rec --record rec/", "is also the --report output"},
  };
  for (const auto& [args, phrase] : cases) {
    const Result r = run(std::string(kLongRun) + " " + args);
    EXPECT_EQ(r.status, 1) << args << ": " << r.output;
    EXPECT_NE(r.output.find(phrase), std::string::npos) << args << ": " << r.output;
    EXPECT_LT(r.seconds, 30.0) << args;
  }
  EXPECT_EQ(listing(), "sub;");
}

}  // namespace
