// parse_options: defaults, every flag, --help, and usage errors (exit code 2, message on err).
#include <gtest/gtest.h>
#include <CLI/CLI.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "app/scene/options.hpp"
#include "app/scene/paths.hpp"
#include "tests/support/temp_dir.hpp"

namespace particles {
namespace {

const std::string kGalaxy = std::string(PARTICLES_SCENES_DIR) + "/galaxy.toml";

struct Parsed {
  ParseOutcome outcome;
  std::string out, err;
};

Parsed parse(std::vector<std::string> args) {
  args.insert(args.begin(), "particles");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  Parsed p{parse_options(static_cast<int>(argv.size()), argv.data(), out, err), {}, {}};
  p.out = out.str();
  p.err = err.str();
  return p;
}

// Headless defaults depend on the display; pin it per test.
class OptionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const char* d = std::getenv("DISPLAY")) saved_display_ = d;
    if (const char* w = std::getenv("WAYLAND_DISPLAY")) saved_wayland_ = w;
    ::setenv("DISPLAY", ":0", 1);
    ::unsetenv("WAYLAND_DISPLAY");
  }
  void TearDown() override {
    restore("DISPLAY", saved_display_);
    restore("WAYLAND_DISPLAY", saved_wayland_);
  }

 private:
  static void restore(const char* name, const std::string& value) {
    if (value.empty()) {
      ::unsetenv(name);
    } else {
      ::setenv(name, value.c_str(), 1);
    }
  }
  std::string saved_display_, saved_wayland_;
};

TEST_F(OptionsTest, Defaults) {
  const Parsed p = parse({});
  ASSERT_TRUE(p.outcome.options) << p.err;
  const Options& o = *p.outcome.options;
  EXPECT_EQ(p.outcome.exit_code, 0);
  EXPECT_EQ(o.scene.filename(), "galaxy.toml");
  EXPECT_TRUE(std::filesystem::exists(o.scene));
  EXPECT_FALSE(o.count);
  EXPECT_EQ(o.choices.algorithm, Algorithm::radix);
  EXPECT_EQ(o.backend, BackendChoice::automatic);
  EXPECT_FALSE(o.headless);
  EXPECT_FALSE(o.frames);
  EXPECT_TRUE(o.screenshot.empty());
  EXPECT_TRUE(o.report.empty());
  EXPECT_TRUE(o.record.empty());
  EXPECT_EQ(o.record_fps, 60);
  EXPECT_EQ(o.choices.key_mode, KeyMode::exact);
  EXPECT_EQ(o.choices.key_bits, 16);
  EXPECT_EQ(o.width, 1280);
  EXPECT_EQ(o.height, 720);
  EXPECT_EQ(o.choices.order, DrawOrder::exact);
  EXPECT_EQ(o.choices.order_period, kDefaultOrderPeriod);
  EXPECT_FALSE(o.choices.compare);
  EXPECT_FALSE(o.renderer_given);  // the backend picks its own
  EXPECT_TRUE(o.vsync);
}

// --renderer sets the choice and says it was given, so that the backend's default does not
// replace it.
TEST_F(OptionsTest, RendererGivenIsKept) {
  for (const RendererKind r : kAllRenderers) {
    const Parsed p = parse({"--renderer", std::string(to_string(r))});
    ASSERT_TRUE(p.outcome.options) << p.err;
    EXPECT_EQ(p.outcome.options->choices.renderer, r);
    EXPECT_TRUE(p.outcome.options->renderer_given);
  }
}

// --help names every renderer of the table with its few words, and --renderer takes no name
// outside it (the check lists the table's names).
TEST_F(OptionsTest, HelpListsEveryRendererOfTheTable) {
  const Parsed help = parse({"--help"});
  for (const RendererInfo& r : kRenderers) {
    EXPECT_NE(help.out.find(std::string(r.name) + " (" + std::string(r.description) + ")"),
              std::string::npos)
        << r.name << " missing from --help:\n"
        << help.out;
  }
  const Parsed bad = parse({"--renderer", "gl"});
  EXPECT_FALSE(bad.outcome.options);
  for (const RendererInfo& r : kRenderers) {
    EXPECT_NE(bad.err.find(std::string(r.name)), std::string::npos) << bad.err;
  }
}

TEST_F(OptionsTest, SceneByName) {
  const Parsed p = parse({"--scene", "fountain"});
  ASSERT_TRUE(p.outcome.options) << p.err;
  EXPECT_EQ(p.outcome.options->scene.filename(), "fountain.toml");
  EXPECT_TRUE(std::filesystem::is_regular_file(p.outcome.options->scene));
  const Parsed missing = parse({"--scene", "no_such_scene"});
  EXPECT_EQ(missing.outcome.exit_code, kUsageExitCode);
  // A name that is no scene lists the scenes there are.
  EXPECT_EQ(missing.err.rfind("error: --scene: scene file not found: no_such_scene; scenes: ", 0),
            0u)
      << missing.err;
  EXPECT_NE(missing.err.find("fountain, galaxy, "), std::string::npos) << missing.err;
  EXPECT_EQ(missing.err.find("did you mean"), std::string::npos) << missing.err;
}

// A mistyped scene name gets the nearest shipped scene suggested (#63: `--scene galaxi` gave no
// list and no suggestion).
TEST_F(OptionsTest, AMistypedSceneNameGetsTheNearestSuggested) {
  const Parsed typo = parse({"--scene", "galaxi"});
  EXPECT_EQ(typo.outcome.exit_code, kUsageExitCode);
  EXPECT_NE(typo.err.find("scene file not found: galaxi (did you mean 'galaxy'?); scenes: "),
            std::string::npos)
      << typo.err;
  // A path is not a name: no list after it.
  const Parsed path = parse({"--scene", "scenes/galaxi.toml"});
  EXPECT_EQ(path.err, "error: --scene: scene file not found: scenes/galaxi.toml\n");
}

TEST_F(OptionsTest, EveryFlag) {
  const Parsed p =
      parse({"--scene",   kGalaxy,        "--count",    "5000",       "--algorithm", "quicksort",
             "--backend", "cpu",          "--headless", "--frames",   "12",          "--screenshot",
             "out.png",   "--report",     "r.json",     "--key-mode", "quantized",   "--key-bits",
             "24",        "--size",       "640x480",    "--unsorted", "--no-vsync",  "--record",
             "rec",       "--record-fps", "30"});
  ASSERT_TRUE(p.outcome.options) << p.err;
  const Options& o = *p.outcome.options;
  EXPECT_EQ(o.scene, kGalaxy);
  EXPECT_EQ(o.count, 5000u);
  EXPECT_EQ(o.choices.algorithm, Algorithm::quicksort);
  EXPECT_EQ(o.backend, BackendChoice::cpu);
  EXPECT_TRUE(o.headless);
  EXPECT_EQ(o.frames, 12);
  EXPECT_EQ(o.screenshot, "out.png");
  EXPECT_EQ(o.report, "r.json");
  EXPECT_EQ(o.record, "rec");
  EXPECT_EQ(o.record_fps, 30);
  EXPECT_EQ(o.choices.key_mode, KeyMode::quantized);
  EXPECT_EQ(o.choices.key_bits, 24);
  EXPECT_EQ(o.width, 640);
  EXPECT_EQ(o.height, 480);
  EXPECT_EQ(o.choices.order, DrawOrder::unsorted);
  EXPECT_FALSE(o.vsync);
}

TEST_F(OptionsTest, AlgorithmAndBackendNames) {
  for (Algorithm a : kAllAlgorithms) {
    const Parsed p = parse({"--algorithm", std::string(to_string(a))});
    ASSERT_TRUE(p.outcome.options) << p.err;
    EXPECT_EQ(p.outcome.options->choices.algorithm, a);
  }
  EXPECT_EQ(parse({"--backend", "cuda"}).outcome.options->backend, BackendChoice::cuda);
  EXPECT_EQ(parse({"--backend", "auto"}).outcome.options->backend, BackendChoice::automatic);
}

TEST_F(OptionsTest, DrawOrdersByName) {
  for (DrawOrder order : kAllDrawOrders) {
    const Parsed p = parse({"--order", std::string(to_string(order))});
    ASSERT_TRUE(p.outcome.options) << p.err;
    EXPECT_EQ(p.outcome.options->choices.order, order);
  }
  const Parsed p = parse({"--order", "stale", "--order-period", "30", "--compare"});
  ASSERT_TRUE(p.outcome.options) << p.err;
  EXPECT_EQ(p.outcome.options->choices.order, DrawOrder::stale);
  EXPECT_EQ(p.outcome.options->choices.order_period, 30);
  EXPECT_TRUE(p.outcome.options->choices.compare);
  EXPECT_EQ(parse({"--unsorted"}).outcome.options->choices.order, DrawOrder::unsorted);
}

TEST_F(OptionsTest, HeadlessDefaultsTo600Frames) {
  const Parsed p = parse({"--headless"});
  ASSERT_TRUE(p.outcome.options) << p.err;
  EXPECT_EQ(p.outcome.options->frames, kDefaultHeadlessFrames);
}

TEST_F(OptionsTest, NoDisplayMeansHeadless) {
  ::unsetenv("DISPLAY");
  const Parsed p = parse({});
  ASSERT_TRUE(p.outcome.options) << p.err;
  EXPECT_TRUE(p.outcome.options->headless);
  EXPECT_EQ(p.outcome.options->frames, 600);
}

TEST_F(OptionsTest, HelpPrintsUsageAndExitsZero) {
  const Parsed p = parse({"--help"});
  EXPECT_FALSE(p.outcome.options);
  EXPECT_EQ(p.outcome.exit_code, 0);
  EXPECT_TRUE(p.err.empty()) << p.err;
  for (const char* flag :
       {"--scene", "--count", "--algorithm", "--backend", "--headless", "--frames", "--screenshot",
        "--report", "--key-mode", "--key-bits", "--size", "--unsorted", "--no-vsync", "--order",
        "--order-period", "--compare"}) {
    EXPECT_NE(p.out.find(flag), std::string::npos) << flag;
  }
}

TEST_F(OptionsTest, UsageErrorsExitTwoWithAMessage) {
  const std::pair<std::vector<std::string>, std::string> cases[] = {
      {{"--bogus"}, "--bogus"},
      {{"--count", "0"}, "--count"},
      {{"--count", "134217729"}, "--count"},
      {{"--count", "many"}, "--count"},
      {{"--algorithm", "bubble"}, "bubble"},
      {{"--backend", "opencl"}, "opencl"},
      {{"--frames", "0"}, "--frames"},
      {{"--key-mode", "fuzzy"}, "fuzzy"},
      {{"--key-bits", "33"}, "--key-bits"},
      {{"--key-bits", "0"}, "--key-bits"},
      {{"--size", "1280"}, "WIDTHxHEIGHT"},
      {{"--size", "0x720"}, "WIDTHxHEIGHT"},
      {{"--scene"}, "--scene"},
      {{"--order", "sorted"}, "sorted"},
      {{"--order", "eye_distance"}, "eye_distance"},
      {{"--order-period", "0"}, "--order-period"},
      {{"--order-period", "often"}, "--order-period"},
      {{"--order-period", "100001"}, "--order-period"},
      {{"--compare", "yes"}, "yes"},
      // An empty output path is no request for the default one (issue 64).
      {{"--screenshot", ""}, "--screenshot: an empty path names no file"},
      {{"--report", ""}, "--report: an empty path names no file"},
      {{"--record", ""}, "--record: an empty path names no file"},
      // Above the CPU backend's limit, named when the backend is (auto is checked once it chose).
      {{"--backend", "cpu", "--count", "16777217"},
       "--count: 16777217 particles are more than the cpu backend takes (at most 16777216, "
       "2^24)"},
  };
  for (const auto& [args, phrase] : cases) {
    const Parsed p = parse(args);
    EXPECT_FALSE(p.outcome.options) << args[0];
    EXPECT_EQ(p.outcome.exit_code, kUsageExitCode) << args[0];
    EXPECT_EQ(p.err.rfind("error: ", 0), 0u) << p.err;
    EXPECT_NE(p.err.find(phrase), std::string::npos) << p.err;
  }
}

TEST_F(OptionsTest, CountsUpToEachBackendsLimitAreAccepted) {
  EXPECT_EQ(parse({"--backend", "cpu", "--count", "16777216"}).outcome.options->count, 1u << 24);
  EXPECT_EQ(parse({"--backend", "cuda", "--count", "134217728"}).outcome.options->count, 1u << 27);
}

TEST_F(OptionsTest, HelpPrintsEachBackendsCountLimit) {
  const Parsed p = parse({"--help"});
  EXPECT_NE(p.out.find("  cuda  1 to 134217728 (2^27)\n  cpu   1 to 16777216 (2^24)"),
            std::string::npos)
      << p.out;
}

TEST(FiniteRange, NotANumberAndInfinityAreRefused) {
  const CLI::Validator check = finite_range(0.0, 1000.0);
  for (std::string ok : {"0", "1", "2.5", "1000", "1e3"}) EXPECT_EQ(check(ok), "") << ok;
  for (std::string bad :
       {"nan", "NaN", "-nan", "inf", "-inf", "infinity", "-1", "1000.5", "1e9", "", "1x", "x"}) {
    EXPECT_NE(check(bad), "") << bad;
  }
  std::string nan = "nan";
  EXPECT_EQ(check(nan), "expected a finite number in [0, 1000], got 'nan'");
}

TEST_F(OptionsTest, MissingSceneFile) {
  const Parsed p = parse({"--scene", "/nonexistent/scene.toml"});
  EXPECT_FALSE(p.outcome.options);
  EXPECT_EQ(p.outcome.exit_code, 2);
  EXPECT_EQ(p.err, "error: --scene: scene file not found: /nonexistent/scene.toml\n");
}

// Issue 64: `--scene` given a directory, /dev/null or a FIFO said "scene file not found" (and
// the loader would have blocked opening the FIFO); `--scene ""` silently ran the galaxy.
TEST_F(OptionsTest, SceneThatIsNoRegularFileIsNamedAsWhatItIs) {
  const test::TempDir temp("particles-options");
  const std::filesystem::path& dir = temp.path();
  const std::filesystem::path fifo = dir / "scene.toml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::pair<std::string, std::string> cases[] = {
      {dir.string(), "error: --scene: " + dir.string() + " is a directory\n"},
      {"/dev/null", "error: --scene: /dev/null is not a regular file (it is a character device)\n"},
      {fifo.string(),
       "error: --scene: " + fifo.string() + " is not a regular file (it is a FIFO)\n"},
  };
  for (const auto& [scene, expected] : cases) {
    const Parsed p = parse({"--scene", scene});
    EXPECT_FALSE(p.outcome.options) << scene;
    EXPECT_EQ(p.outcome.exit_code, kUsageExitCode) << scene;
    EXPECT_EQ(p.err, expected);
  }
  const Parsed empty = parse({"--scene", ""});
  EXPECT_FALSE(empty.outcome.options);
  EXPECT_EQ(empty.outcome.exit_code, kUsageExitCode);
  EXPECT_NE(empty.err.find("--scene: an empty path names no scene"), std::string::npos)
      << empty.err;
  // A path with an escape sequence in it is echoed escaped.
  const Parsed escaped = parse({"--scene", "/nowhere/\x1b[31mred.toml"});
  EXPECT_EQ(escaped.err, "error: --scene: scene file not found: /nowhere/\\x1b[31mred.toml\n");
  std::filesystem::remove_all(dir);
}

TEST(Paths, ExecutableDirHoldsThisTest) {
  const auto dir = executable_dir();
  ASSERT_FALSE(dir.empty());
  EXPECT_TRUE(std::filesystem::is_directory(dir));
}

TEST(Paths, FindResourceFallsBackToTheSourceTree) {
  EXPECT_TRUE(std::filesystem::exists(find_resource("scenes/galaxy.toml")));
  EXPECT_FALSE(find_resource("no/such/file").empty());
}

}  // namespace
}  // namespace particles
