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

// The binary with `args` must stop with a usage error (status 2) whose output says `text`.
void expect_usage_error(const std::string& args, const std::string& text) {
  const Result r = run(args);
  EXPECT_EQ(r.status, 2) << args << ": " << r.output;
  EXPECT_NE(r.output.find(text), std::string::npos) << args << ": " << r.output;
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

// Each draw order runs headless, with the comparison view, and the report's last two columns,
// the descents and the pixels off in %, are 0 for the exact order; index order's descents are
// above 10% and its pixels further off, frame for frame summed, than an order sorted every third
// frame (the comparison view measures them on every frame, core/pixels_off.hpp).
TEST(Cli, EachDrawOrderRunsAndReportsItsOrderError) {
  double pixels_off_sum[2] = {0.0, 0.0};  // unsorted, stale
  for (const char* order : {"exact", "unsorted", "stale", "eye", "coarse"}) {
    const std::string report = ::testing::TempDir() + "cli_order_" + order + ".csv";
    const std::string shot = ::testing::TempDir() + "cli_order_" + order + ".png";
    std::remove(report.c_str());
    // The smoke: large, overlapping sprites whose order shows (the sparse galaxy's faint ones
    // barely change the picture at this size).
    const Result r = run(std::string("--headless --backend cpu --scene smoke --count 4000 "
                                     "--frames 8 --size 160x100 --compare --order-period 3 "
                                     "--order ") +
                         order + " --report " + report + " --screenshot " + shot);
    ASSERT_EQ(r.status, 0) << order << ": " << r.output;
    std::FILE* csv = std::fopen(report.c_str(), "r");
    ASSERT_NE(csv, nullptr) << report;
    char line[1024];
    double last_descents = -2.0, last_pixels_off = -2.0, pixels_off = 0.0;
    int rows = 0;
    while (std::fgets(line, sizeof line, csv) != nullptr) {
      if (rows++ == 0) {
        EXPECT_TRUE(std::string(line).ends_with(",descents_pct,pixels_off_pct\n")) << line;
        continue;
      }
      std::string row(line);
      last_pixels_off = std::stod(row.substr(row.rfind(',') + 1));
      row.erase(row.rfind(','));
      last_descents = std::stod(row.substr(row.rfind(',') + 1));
      EXPECT_GE(last_descents, 0.0) << order << ": " << line;
      EXPECT_GE(last_pixels_off, 0.0) << order << ": " << line;
      pixels_off += last_pixels_off;
    }
    std::fclose(csv);
    EXPECT_EQ(rows, 9) << order;
    if (std::string(order) == "exact") {
      EXPECT_EQ(last_descents, 0.0);
      EXPECT_EQ(pixels_off, 0.0);
    } else if (std::string(order) == "unsorted") {
      EXPECT_GT(last_descents, 10.0);
      pixels_off_sum[0] = pixels_off;
    } else if (std::string(order) == "stale") {
      pixels_off_sum[1] = pixels_off;
    }
  }
  EXPECT_GT(pixels_off_sum[0], pixels_off_sum[1]);
  EXPECT_GT(pixels_off_sum[0], 8 * 5.0);  // index order: over 5% of lit pixels each frame
}

// --camera overrides the scene's camera, its path and its framing: two scenes that differ only
// in their cameras (one on a path, one framed on its particles) draw the same bytes from the
// same --camera, and a scene seen through --camera differs from its own view. A bad value is an
// error naming the flag.
TEST(Cli, CameraOverridesTheScenesPosePathAndFraming) {
  const std::string dir = ::testing::TempDir();
  const std::string body =
      "[particles]\ncount = 3000\ncpu_count = 3000\nseed = 3\n"
      "[model]\ntype = \"shells\"\n[model.shells]\nspin = 0.0\n";
  const std::string on_path = dir + "cli_camera_path.toml", framed = dir + "cli_camera_framed.toml";
  {
    std::FILE* f = std::fopen(on_path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs(("name = \"a\"\n" + body +
                "[camera]\ndistance = 30.0\nyaw = 10.0\n[[camera.path]]\ntime = 0.0\nyaw = 0.0\n"
                "[[camera.path]]\ntime = 0.1\nyaw = 90.0\n")
                   .c_str(),
               f);
    std::fclose(f);
    f = std::fopen(framed.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs(("name = \"b\"\n" + body + "[camera]\nauto_frame = true\npitch = 60.0\n").c_str(),
               f);
    std::fclose(f);
  }
  auto shot = [&](const std::string& scene, const std::string& camera, const std::string& png) {
    const Result r = run("--headless --backend cpu --frames 3 --size 120x80 --scene " + scene +
                         camera + " --screenshot " + dir + png);
    EXPECT_EQ(r.status, 0) << r.output;
    std::FILE* f = std::fopen((dir + png).c_str(), "rb");
    std::string bytes;
    if (f == nullptr) return bytes;
    for (int c; (c = std::fgetc(f)) != EOF;) bytes += static_cast<char>(c);
    std::fclose(f);
    return bytes;
  };
  const std::string camera = " --camera eye=4,3,9 target=0,0.5,0 fov=45";
  const std::string a = shot(on_path, camera, "cli_camera_a.png");
  const std::string b = shot(framed, camera, "cli_camera_b.png");
  const std::string own = shot(on_path, "", "cli_camera_own.png");
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(a, b);
  EXPECT_NE(a, own);
  const Result bad = run("--headless --backend cpu --frames 1 --camera eye=0,0,nan target=0,0,0");
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.output.find("--camera"), std::string::npos) << bad.output;
  EXPECT_NE(bad.output.find("eye's z nan is outside"), std::string::npos) << bad.output;
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
    // Columns: ... renderer, composite_ms, present_ms, then descents_pct and pixels_off_pct
    // last. Some frame's present
    // (and, for the compositor, composite) time arrived.
    char line[1024];
    bool present = false, composite = false;
    while (std::fgets(line, sizeof line, csv) != nullptr) {
      std::string row(line);
      row.erase(row.rfind(','));  // the pixels off
      row.erase(row.rfind(','));  // the descents
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
  for (const auto& [args, flag] : cases) expect_usage_error(args, flag);
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

// --help lists every default, the scenes by name, the window's keys, and on the CPU what each
// algorithm runs; the same placeholders name the same things in every command (no CLI11 INT or
// TEXT).
TEST(Cli, HelpListsDefaultsScenesKeysAndConsistentPlaceholders) {
  const Result r = run("--help");
  ASSERT_EQ(r.status, 0) << r.output;
  for (const char* text :
       {"default galaxy", "default radix", "default auto", "default exact", "headless default: 600",
        "Scenes (--scene NAME, or a TOML file): ", "fountain", "smoke",
        "Keys in the window:", "1-5 algorithm", "Tab, F1 hide / show the HUD", "--ui-scale S",
        "cub: std::stable_sort (library baseline", "quicksort: stable 3-way"}) {
    EXPECT_NE(r.output.find(text), std::string::npos) << text << " missing from:\n" << r.output;
  }
  const Result bench = run("bench --help");
  ASSERT_EQ(bench.status, 0) << bench.output;
  for (const char* text : {"Measured frames per run (default 300)", "(default 30)", "default all",
                           "default auto", "default galaxy", "Scenes (--scene"}) {
    EXPECT_NE(bench.output.find(text), std::string::npos) << text << " missing from:\n"
                                                          << bench.output;
  }
  const Result soak = run("soak --help");
  ASSERT_EQ(soak.status, 0) << soak.output;
  for (const Result* help : {&r, &bench, &soak}) {
    for (const char* generic : {" INT", " TEXT", " FLOAT", " UINT"}) {
      EXPECT_EQ(help->output.find(generic), std::string::npos) << generic << " in:\n"
                                                               << help->output;
    }
  }
}

TEST(Cli, VersionSaysWhatWasBuiltAndWhatCanRun) {
  const Result r = run("--version");
  EXPECT_EQ(r.status, 0) << r.output;
  for (const char* text : {"particles ", "commit ", "build type ",
                           "CUDA architectures: ", "backends: cpu available; cuda "}) {
    EXPECT_NE(r.output.find(text), std::string::npos) << text << " missing from:\n" << r.output;
  }
}

// A misspelt algorithm (or other named value) gets the nearest name and the list, on the run and
// the bench alike.
TEST(Cli, MisspeltValuesAreSuggested) {
  const std::pair<const char*, const char*> cases[] = {
      {"--algorithm radx",
       "'radx' is no algorithm (did you mean 'radix'?): radix, oddeven, "
       "quicksort, cub, auto"},
      {"--renderer compsite", "did you mean 'composite'?"},
      {"--order stael", "did you mean 'stale'?"},
      {"--backend cpuu", "did you mean 'cpu'?"},
      {"bench --algorithms radix,qucksort", "did you mean 'quicksort'?"},
      {"soak --algorithms odeven", "did you mean 'oddeven'?"},
  };
  for (const auto& [args, text] : cases) expect_usage_error(args, text);
  // Nothing near: the list alone.
  const Result far = run("--algorithm bubble");
  EXPECT_EQ(far.output.find("did you mean"), std::string::npos) << far.output;
  EXPECT_NE(far.output.find("radix, oddeven, quicksort, cub, auto"), std::string::npos)
      << far.output;
}

// A misspelt flag gets the nearest flag of its command; another command's flag says whose it is.
TEST(Cli, MisspeltFlagsAreSuggested) {
  const std::pair<const char*, const char*> cases[] = {
      {"--frmes 10", "--frmes: did you mean '--frames'?"},
      {"--algoritm radix", "did you mean '--algorithm'?"},
      {"--scenes galaxy",
       "--scenes: a flag of 'particles bench', 'particles soak'; did you mean "
       "'--scene'?"},
      {"bench --warmpu 3", "did you mean '--warmup'?"},
  };
  for (const auto& [args, text] : cases) expect_usage_error(args, text);
}

// Without a usable CUDA backend, --backend cuda says what is missing and what runs instead, not
// the CUDA runtime's "driver version is insufficient".
TEST(Cli, BackendCudaWithoutCudaSaysWhatIsMissing) {
  if (run("--version").output.find("cuda available") != std::string::npos) {
    GTEST_SKIP() << "a CUDA device is usable here";
  }
  const Result r = run("--headless --backend cuda --frames 1 --size 64x64");
  EXPECT_NE(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("--backend cuda: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--backend cpu runs without CUDA"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("driver version is insufficient"), std::string::npos) << r.output;
}

}  // namespace
