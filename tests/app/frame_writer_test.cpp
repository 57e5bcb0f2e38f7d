// The recording's writer thread (app/main/frame_writer.hpp): frames come out in order as RGB
// PNGs, finish() waits for all of them, and a write that fails surfaces as an exception naming
// the file, from finish() and from every later push().
#include "app/main/frame_writer.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace particles {
namespace {

namespace fs = std::filesystem;

gl::Image image_of(std::uint8_t value) {
  gl::Image image;
  image.width = 3;
  image.height = 2;
  image.rgba.assign(24, value);
  return image;
}

fs::path fresh_dir(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("frame_writer_test_" + std::to_string(::getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

fs::path frame_file(const fs::path& dir, int i) {
  char name[32];
  std::snprintf(name, sizeof name, "f%d.png", i);
  return dir / name;
}

TEST(FrameWriter, WritesEveryQueuedFrameBeforeFinishReturns) {
  const fs::path dir = fresh_dir("all");
  FrameWriter writer(2);  // a queue shorter than the frames: push waits for room
  for (int i = 0; i < 10; ++i) {
    writer.push(frame_file(dir, i), image_of(std::uint8_t(10 * i)));
  }
  writer.finish();
  for (int i = 0; i < 10; ++i) {
    const fs::path file = frame_file(dir, i);
    ASSERT_TRUE(fs::is_regular_file(file)) << file;
    EXPECT_GT(fs::file_size(file), 0u);
  }
}

TEST(FrameWriter, AFailedWriteIsThrownNamingTheFile) {
  const fs::path dir = fresh_dir("fails");
  std::ofstream(dir / "a file") << "not a folder\n";
  const fs::path bad = dir / "a file" / "f.png";  // fails as root too
  FrameWriter writer;
  writer.push(bad, image_of(1));
  try {
    writer.finish();
    FAIL() << "finish() did not throw";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(bad.string()), std::string::npos) << e.what();
  }
  EXPECT_THROW(writer.push(dir / "g.png", image_of(2)), std::runtime_error);
  EXPECT_FALSE(fs::exists(dir / "g.png"));
}

}  // namespace
}  // namespace particles
