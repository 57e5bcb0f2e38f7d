// The comparison view as a user gets it (the real binary, headless, CPU backend), with either
// renderer: left of the divider, the pixels of the same frame drawn in the exact order; right of
// it, the pixels of the frame drawn in the chosen order; a white divider between.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/composite/difference_heat.hpp"
#include "tests/support/stb_image_impl.hpp"
// stb_image first (stb_image_impl.hpp)
#include "tests/support/read_png.hpp"
#include "tests/support/run_command.hpp"

namespace particles {
namespace {

namespace fs = std::filesystem;
using particles::test::shell_quoted;

struct Rgba {
  int width = 0, height = 0;
  std::vector<std::uint32_t> pixels;
  std::uint32_t at(int x, int y) const { return pixels[static_cast<std::size_t>(y) * width + x]; }
};

Rgba load(const fs::path& png) {
  const particles::test::PngPixels file = particles::test::read_png(png);
  Rgba image;
  image.width = file.width;
  image.height = file.height;
  image.pixels.resize(file.pixels.size() / 4);
  for (std::size_t i = 0; i < image.pixels.size(); ++i) {
    const unsigned char* p = &file.pixels[4 * i];
    image.pixels[i] = std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 |
                      std::uint32_t{p[3]} << 24;
  }
  return image;
}

// One headless run's last frame; radix over exact keys, so that the exact order is the one the
// comparison view draws on its left (ties by index).
Rgba shot(const std::string& renderer, const std::string& extra, const std::string& name) {
  const fs::path png = fs::temp_directory_path() / ("particles-compare-" + name + ".png");
  fs::remove(png);
  const particles::test::CommandResult r = particles::test::run_command(
      shell_quoted(PARTICLES_BINARY) +
      " --headless --backend cpu --scene shells --count 20000 --size 161x90 --frames 6"
      " --algorithm radix --key-mode exact --renderer " +
      renderer + " " + extra + " --screenshot " + shell_quoted(png.string()));
  EXPECT_EQ(r.status, 0) << r.output;
  return load(png);
}

class CompareView : public ::testing::TestWithParam<const char*> {};

TEST_P(CompareView, LeftIsTheExactOrderRightTheChosenOne) {
  const std::string renderer = GetParam();
  const Rgba exact = shot(renderer, "--order exact", renderer + "-exact");
  const Rgba unsorted = shot(renderer, "--order unsorted", renderer + "-unsorted");
  const Rgba view = shot(renderer, "--order unsorted --compare", renderer + "-compare");
  ASSERT_EQ(view.width, 161);
  ASSERT_EQ(view.height, 90);
  ASSERT_EQ(exact.pixels.size(), view.pixels.size());
  ASSERT_EQ(unsorted.pixels.size(), view.pixels.size());
  const int half = view.width / 2;
  long left_wrong = 0, right_wrong = 0, divider_wrong = 0, orders_differ = 0;
  for (int y = 0; y < view.height; ++y) {
    for (int x = 0; x < view.width; ++x) {
      const std::uint32_t v = view.at(x, y);
      if (x == half - 1 || x == half) {
        divider_wrong += (v & 0x00ffffffu) != 0x00ffffffu;
      } else if (x < half - 1) {
        left_wrong += v != exact.at(x, y);
        orders_differ += exact.at(x, y) != unsorted.at(x, y);
      } else {
        right_wrong += v != unsorted.at(x, y);
      }
    }
  }
  EXPECT_EQ(left_wrong, 0);
  EXPECT_EQ(right_wrong, 0);
  EXPECT_EQ(divider_wrong, 0);
  // Not vacuous: on the left the two orders make different images.
  EXPECT_GT(orders_differ, 100);
}

// The heat map: every pixel is difference_heat of the exact frame's pixel and the chosen order's,
// bit for bit on either renderer (GL's pass does the same integer arithmetic).
TEST_P(CompareView, HeatMapIsTheDifferenceOfTheTwoOrdersImages) {
  const std::string renderer = GetParam();
  const Rgba exact = shot(renderer, "--order exact", renderer + "-heat-exact");
  const Rgba unsorted = shot(renderer, "--order unsorted", renderer + "-heat-unsorted");
  const Rgba view = shot(renderer, "--order unsorted --compare-mode heat", renderer + "-heat");
  ASSERT_EQ(view.pixels.size(), exact.pixels.size());
  ASSERT_EQ(view.pixels.size(), unsorted.pixels.size());
  long wrong = 0, hot = 0;
  for (std::size_t i = 0; i < view.pixels.size(); ++i) {
    const std::uint32_t want = difference_heat_rgba8(exact.pixels[i], unsorted.pixels[i]);
    wrong += view.pixels[i] != want;
    hot += exact.pixels[i] != unsorted.pixels[i];
  }
  EXPECT_EQ(wrong, 0);
  EXPECT_GT(hot, 100);  // not vacuous: the orders differ somewhere
}

INSTANTIATE_TEST_SUITE_P(BothRenderers, CompareView, ::testing::Values("raster", "composite"));

}  // namespace
}  // namespace particles
