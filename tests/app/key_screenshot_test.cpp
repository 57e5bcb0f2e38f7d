// Issue 64: the P key's screenshot threw out of the window loop when it could not be written,
// ending the session (and losing whatever the user was watching). It now reports and goes on.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/main/key_screenshot.hpp"
#include "tests/support/temp_dir.hpp"

namespace particles {
namespace {

namespace fs = std::filesystem;

gl::Image tiny_image() {
  gl::Image image;
  image.width = image.height = 2;
  image.rgba.assign(16, 200);
  return image;
}

class KeyScreenshot : public ::testing::Test {
 protected:
  const particles::test::TempDir temp_{"key_screenshot_test"};
  const fs::path dir_ = temp_.path();
};

TEST_F(KeyScreenshot, WritesANewNameEachTimeAndSaysWhere) {
  std::ofstream(dir_ / "screenshot-7.png") << "an earlier run's";
  std::ostringstream log;
  EXPECT_EQ(save_key_screenshot(tiny_image(), dir_, 7, log),
            "wrote " + (dir_ / "screenshot-7-2.png").string());
  EXPECT_EQ(save_key_screenshot(tiny_image(), dir_, 7, log),
            "wrote " + (dir_ / "screenshot-7-3.png").string());
  EXPECT_EQ(log.str(), "wrote " + (dir_ / "screenshot-7-2.png").string() + "\nwrote " +
                           (dir_ / "screenshot-7-3.png").string() + "\n");
  EXPECT_GT(fs::file_size(dir_ / "screenshot-7-3.png"), 0u);
}

// The window's folder (kKeyScreenshotDir) is made on the first screenshot, parents and all.
TEST_F(KeyScreenshot, MakesItsFolderOnFirstUse) {
  const fs::path folder = dir_ / "run" / kKeyScreenshotDir;
  std::ostringstream log;
  EXPECT_EQ(save_key_screenshot(tiny_image(), folder, 4, log),
            "wrote " + (folder / "screenshot-4.png").string());
  EXPECT_TRUE(fs::is_regular_file(folder / "screenshot-4.png"));
  EXPECT_EQ(save_key_screenshot(tiny_image(), folder, 5, log),
            "wrote " + (folder / "screenshot-5.png").string());
}

// `--screenshot screenshot-7.png` is written at the end of the run: a P at frame 7 must not take
// that name first and lose its image to it. Any spelling of the name counts.
TEST_F(KeyScreenshot, NeverTakesTheNameOfAFileTheRunWritesAtItsEnd) {
  std::ostringstream log;
  EXPECT_EQ(save_key_screenshot(tiny_image(), dir_, 7, log,
                                {dir_ / "." / "screenshot-7.png", dir_ / "screenshot-7-2.png"}),
            "wrote " + (dir_ / "screenshot-7-3.png").string());
  EXPECT_FALSE(fs::exists(dir_ / "screenshot-7.png"));
}

// A folder that cannot hold the file (here a regular file where the folder should be, which
// fails as root too): no exception, an error on the log, the HUD's line says why.
TEST_F(KeyScreenshot, AWriteThatFailsIsReportedAndDoesNotThrow) {
  std::ofstream(dir_ / "not-a-folder") << "x";
  std::ostringstream log;
  std::string message;
  EXPECT_NO_THROW(message = save_key_screenshot(tiny_image(), dir_ / "not-a-folder", 3, log));
  EXPECT_TRUE(message.starts_with("screenshot not saved: cannot write " +
                                  (dir_ / "not-a-folder" / "screenshot-3.png").string()))
      << message;
  EXPECT_EQ(log.str(), "error: " + message + "\n");
  // Nothing else appeared.
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

}  // namespace
}  // namespace particles
