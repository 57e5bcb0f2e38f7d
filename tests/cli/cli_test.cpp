// Runs the real `particles` binary on good and bad command lines and checks what a user sees:
// the exit status and the text on stdout/stderr (captured together).
#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <string>
#include <utility>

#include "tests/support/run_command.hpp"

namespace {

const std::string kBinary = PARTICLES_BINARY;
const std::string kData = PARTICLES_TEST_DATA_DIR "/scenes";

using Result = particles::test::CommandResult;

Result run(const std::string& args) {
  return particles::test::run_command(particles::test::shell_quoted(kBinary) + " " + args);
}

TEST(Cli, HelpExitsZeroAndListsTheFlags) {
  const Result r = run("--help");
  EXPECT_EQ(r.status, 0) << r.output;
  for (const char* flag :
       {"--scene",      "--count",      "--algorithm",    "--backend",  "--headless",
        "--frames",     "--screenshot", "--report",       "--key-mode", "--key-bits",
        "--size",       "--unsorted",   "--no-vsync",     "--renderer", "--record",
        "--record-fps", "--order",      "--order-period", "--compare",  "--compare-mode"}) {
    EXPECT_NE(r.output.find(flag), std::string::npos) << flag << " missing from:\n" << r.output;
  }
}

TEST(Cli, UnknownFlagIsNamed) {
  const Result r = run("--frobnicate");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.status, -1);
  EXPECT_NE(r.output.find("--frobnicate"), std::string::npos) << r.output;
}

TEST(Cli, BadFlagValueIsRejected) {
  const Result r = run("--algorithm bubble");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("bubble"), std::string::npos) << r.output;
}

TEST(Cli, BadRendererIsRejected) {
  const Result r = run("--renderer splat");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("splat"), std::string::npos) << r.output;
}

TEST(Cli, EitherRendererRunsHeadlessAndWritesItsScreenshot) {
  // The CPU backend everywhere: GL rasterization, then the CPU compositor into the same target.
  for (const char* renderer : {"raster", "composite"}) {
    const std::string shot = ::testing::TempDir() + "cli_" + renderer + ".png";
    std::remove(shot.c_str());
    const Result r =
        run(std::string("--headless --backend cpu --count 5000 --frames 12 --size 200x120 "
                        "--renderer ") +
            renderer + " --screenshot " + shot + " --report " + ::testing::TempDir() + "cli_" +
            renderer + ".csv");
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find(std::string(renderer) + " renderer"), std::string::npos) << r.output;
    FILE* png = std::fopen(shot.c_str(), "rb");
    ASSERT_NE(png, nullptr) << shot << " not written:\n" << r.output;
    std::fclose(png);
    if (std::string(renderer) == "composite") {
      // The composite times reach the summary: its line counts frames.
      const auto at = r.output.find("composite  median");
      ASSERT_NE(at, std::string::npos) << r.output;
      const std::string line = r.output.substr(at, r.output.find('\n', at) - at);
      EXPECT_EQ(line.find("(0 frames)"), std::string::npos) << line;
    }
  }
}

// Each draw order runs headless, with the comparison view, and the report's last column, the
// order error in %, is 0 for the exact order and above 0 for index order.
TEST(Cli, EachDrawOrderRunsAndReportsItsOrderError) {
  for (const char* order : {"exact", "unsorted", "stale", "eye", "coarse"}) {
    const std::string report = ::testing::TempDir() + "cli_order_" + order + ".csv";
    const std::string shot = ::testing::TempDir() + "cli_order_" + order + ".png";
    std::remove(report.c_str());
    const Result r = run(std::string("--headless --backend cpu --count 4000 --frames 8 --size "
                                     "160x100 --compare --order-period 3 --order ") +
                         order + " --report " + report + " --screenshot " + shot);
    ASSERT_EQ(r.status, 0) << order << ": " << r.output;
    std::FILE* csv = std::fopen(report.c_str(), "r");
    ASSERT_NE(csv, nullptr) << report;
    char line[1024];
    double last_error = -2.0;
    int rows = 0;
    while (std::fgets(line, sizeof line, csv) != nullptr) {
      if (rows++ == 0) continue;  // the header
      const std::string row(line);
      last_error = std::stod(row.substr(row.rfind(',') + 1));
      EXPECT_GE(last_error, 0.0) << order << ": " << row;
    }
    std::fclose(csv);
    EXPECT_EQ(rows, 9) << order;
    if (std::string(order) == "exact") {
      EXPECT_EQ(last_error, 0.0);
    } else if (std::string(order) == "unsorted") {
      EXPECT_GT(last_error, 10.0);
    }
  }
}

TEST(Cli, EitherRendererRunsInAWindowWithItsTimes) {
  // Under a display (scripts/test.sh starts Xvfb): the window loop, the HUD and the present.
  const char* display = std::getenv("DISPLAY");
  if (display == nullptr || *display == '\0') GTEST_SKIP() << "no display";
  for (const char* renderer : {"raster", "composite"}) {
    const std::string report = ::testing::TempDir() + "window_" + renderer + ".csv";
    std::remove(report.c_str());
    const Result r = run(std::string("--backend cpu --count 5000 --frames 30 --size 320x200 "
                                     "--no-vsync --renderer ") +
                         renderer + " --report " + report);
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_EQ(r.output.find("running headless"), std::string::npos) << r.output;
    std::FILE* csv = std::fopen(report.c_str(), "r");
    ASSERT_NE(csv, nullptr) << report << " not written:\n" << r.output;
    // Columns: ... renderer, composite_ms, present_ms, order_error last. Some frame's present
    // (and, for the compositor, composite) time arrived.
    char line[1024];
    bool present = false, composite = false;
    while (std::fgets(line, sizeof line, csv) != nullptr) {
      std::string row(line);
      row.erase(row.rfind(','));  // the order error
      const auto last = row.rfind(',');
      const auto before = row.rfind(',', last - 1);
      if (last == std::string::npos || before == std::string::npos) continue;
      present |= row.compare(last + 1, 2, "-1") != 0 && std::isdigit(row[last + 1]);
      composite |= row.compare(before + 1, 2, "-1") != 0 && std::isdigit(row[before + 1]);
    }
    std::fclose(csv);
    EXPECT_TRUE(present) << renderer << ": no present time in " << report;
    EXPECT_EQ(composite, std::string(renderer) == "composite") << renderer << ", " << report;
  }
}

TEST(Cli, EveryBadFlagValueIsAUsageErrorNamingTheFlag) {
  const std::pair<const char*, const char*> cases[] = {
      {"--scene /nonexistent/dir/scene.toml", "--scene: scene file not found"},
      {"--scene", "--scene"},
      {"--count 0", "--count"},
      {"--count many", "--count"},
      {"--algorithm bubble", "--algorithm"},
      {"--renderer splat", "--renderer"},
      {"--backend metal", "--backend"},
      {"--frames 0", "--frames"},
      {"--key-mode fuzzy", "--key-mode"},
      {"--key-bits 33", "--key-bits"},
      {"--size 64", "--size"},
      {"--headless=maybe", "--headless"},
      {"--screenshot", "--screenshot"},
      {"--report", "--report"},
      {"--record", "--record"},
      {"--record-fps 0", "--record-fps"},
      {"--record-fps fast", "--record-fps"},
      {"--order sorted", "--order"},
      {"--order-period 0", "--order-period"},
      {"--order-period x", "--order-period"},
      {"--compare-mode hot", "--compare-mode"},
      {"--compare-mode", "--compare-mode"},
  };
  for (const auto& [args, flag] : cases) {
    const Result r = run(args);
    EXPECT_EQ(r.status, 2) << args << ": " << r.output;
    EXPECT_NE(r.output.find(flag), std::string::npos) << args << ": " << r.output;
  }
}

TEST(Cli, MissingSceneFile) {
  const Result r = run("--scene /nonexistent/dir/scene.toml");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("scene file not found"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("/nonexistent/dir/scene.toml"), std::string::npos) << r.output;
}

TEST(Cli, BadSceneFileNamesFileLineColumn) {
  // Headless CPU run of one frame, in case a bad scene were (wrongly) accepted.
  const std::string file = kData + "/out_of_range.toml";
  const Result r = run("--headless --backend cpu --frames 1 --scene '" + file + "'");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find(file + ":7:9:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("camera.pitch"), std::string::npos) << r.output;
}

TEST(Cli, SyntaxErrorNamesFileLineColumn) {
  const std::string file = kData + "/syntax_error.toml";
  const Result r = run("--headless --backend cpu --frames 1 --scene '" + file + "'");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find(file + ":3:15:"), std::string::npos) << r.output;
}

}  // namespace
