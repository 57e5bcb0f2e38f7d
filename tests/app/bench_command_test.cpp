// Runs the real `particles bench` on the CPU backend with bench/ci.toml and checks the files it
// writes: their structure, one CSV row per frame, and that every frame passed verification; and
// how a bench file and the flags make a BenchConfig (in-process, no backend needed).
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "app/main/bench_cli.hpp"
#include "app/main/bench_config.hpp"
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
    EXPECT_EQ(run.at("renderer"), "raster");  // the CPU backend's default
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
  EXPECT_NE(r.output.find("| scene | backend | algorithm | keys | renderer | count | span | "
                          "radix span | x radix |"),
            std::string::npos)
      << r.output;

  std::ifstream csv(out / "frames.csv");
  std::string header;
  ASSERT_TRUE(std::getline(csv, header));
  EXPECT_EQ(header,
            "run,scene,backend,algorithm,key_mode,order,renderer,count,frame,simulate_ms,"
            "extents_ms,keys_ms,sort_ms,order_ms,span_ms,composite_ms,draw_ms,present_ms,frame_ms,"
            "sort_path,verified,descents_pct,pixels_off_pct,psnr_db");
  int rows = 0;
  for (std::string line; std::getline(csv, line); ++rows) {
    // verified, then the descents, the pixels off and the PSNR: the exact order of exact keys is
    // the exact image (0, 0, inf) unmeasured, quantized keys' is not measured (-1).
    EXPECT_TRUE(line.ends_with(",1,0,0,inf") || line.ends_with(",1,-1,-1,-1"))
        << "not verified: " << line;
  }
  EXPECT_EQ(rows, 8 * 20);

  // The chart is an SVG with a bar per run (bench_results_test checks it is well-formed).
  std::ifstream svg_file(out / "chart.svg");
  ASSERT_TRUE(svg_file) << "chart.svg missing";
  std::ostringstream svg;
  svg << svg_file.rdbuf();
  EXPECT_EQ(svg.str().rfind("<svg", 0), 0u);
  EXPECT_NE(svg.str().find("/ auto / raster"), std::string::npos);
  EXPECT_TRUE(svg.str().ends_with("</svg>\n"));
}

// The orders axis: one run per draw order, each approximate one with its descents and the share
// of lit pixels its image gets wrong; only the exact order is verified, and the others do not
// fail the run. The pixels follow the picture: the exact order is 0 and index order is further
// off than an order sorted every third frame.
TEST(BenchCommand, OrdersAxisReportsEachOrdersError) {
  const auto out = fresh_dir("particles-bench-orders");
  const Result r = run(std::string(PARTICLES_BINARY) +
                       " bench --backend cpu --scenes smoke --counts 3000 --algorithms radix "
                       "--orders exact,unsorted,stale,eye,coarse --order-period 3 --frames 6 "
                       "--warmup 1 --verify --out " +
                       out.string());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("| descents % | pixels off |"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("not checked"), std::string::npos) << r.output;
  std::ifstream json_file(out / "summary.json");
  const nlohmann::json summary = nlohmann::json::parse(json_file);
  const auto& runs = summary.at("runs");
  ASSERT_EQ(runs.size(), 5u);
  const char* orders[] = {"exact", "unsorted", "stale", "eye", "coarse"};
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto& run = runs[i];
    EXPECT_EQ(run.at("order"), orders[i]);
    EXPECT_EQ(run.at("verify_failures"), 0) << run.dump();
    if (i == 0) {  // exact keys sorted exactly: 0, not measured
      EXPECT_EQ(run.at("verified_frames"), 6);
      EXPECT_EQ(run.at("order_descents_pct").at("max"), 0.0) << run.dump();
      EXPECT_EQ(run.at("order_pixels_off_pct").at("max"), 0.0) << run.dump();
      continue;
    }
    EXPECT_EQ(run.at("verified_frames"), 0) << run.dump();
    for (const char* measure : {"order_descents_pct", "order_pixels_off_pct"}) {
      const auto& error = run.at(measure);
      EXPECT_EQ(error.at("samples"), 6) << measure << ": " << run.dump();
      EXPECT_GE(error.at("min").get<double>(), 0.0) << measure << ": " << run.dump();
      EXPECT_LE(error.at("max").get<double>(), 100.0) << measure;
    }
    EXPECT_GT(run.at("order_descents_pct").at("max").get<double>(), 0.0) << run.dump();
  }
  EXPECT_EQ(runs[2].at("order_period"), 3);
  EXPECT_GT(runs[1].at("order_descents_pct").at("median").get<double>(), 20.0);  // index order
  const double unsorted = runs[1].at("order_pixels_off_pct").at("mean").get<double>();
  const double stale = runs[2].at("order_pixels_off_pct").at("mean").get<double>();
  EXPECT_GT(unsorted, stale) << summary.dump();
  EXPECT_GT(unsorted, 5.0) << summary.dump();
}

// A sort-free renderer's picture is the approximation: its error against the exact sorted
// composite is measured in the exact order too, where the tile compositor's own is nothing.
TEST(BenchCommand, SortFreeRenderersReportTheirImageError) {
  const auto out = fresh_dir("particles-bench-sort-free");
  const Result r = run(std::string(PARTICLES_BINARY) +
                       " bench --backend cpu --scenes smoke --counts 3000 --algorithms radix "
                       "--renderers composite,wboit,stochastic --frames 4 --warmup 1 --out " +
                       out.string());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("| pixels off | PSNR dB |"), std::string::npos) << r.output;
  std::ifstream json_file(out / "summary.json");
  const nlohmann::json summary = nlohmann::json::parse(json_file);
  const auto& runs = summary.at("runs");
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0].at("renderer"), "composite");
  // The same image: an infinite ratio, null in JSON.
  EXPECT_TRUE(runs[0].at("image_psnr_db").at("median").is_null()) << runs[0].dump();
  EXPECT_EQ(runs[0].at("order_pixels_off_pct").at("max"), 0.0) << runs[0].dump();
  for (std::size_t i = 1; i < runs.size(); ++i) {
    const auto& run = runs[i];
    EXPECT_EQ(run.at("order"), "exact");
    EXPECT_EQ(run.at("order_pixels_off_pct").at("samples"), 4) << run.dump();
    EXPECT_GT(run.at("order_pixels_off_pct").at("median").get<double>(), 0.0) << run.dump();
    const double psnr = run.at("image_psnr_db").at("median").get<double>();
    EXPECT_GT(psnr, 10.0) << run.dump();  // the same smoke, not another picture
    EXPECT_LT(psnr, 60.0) << run.dump();  // but not the sorted one
  }
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

TEST(BenchCommand, UnknownRendererFlagIsAUsageError) {
  const Result r = run(std::string(PARTICLES_BINARY) + " bench --renderers raster,splat");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("splat"), std::string::npos) << r.output;
}

TEST(BenchCommand, EveryBadFlagValueIsAUsageErrorNamingTheFlag) {
  const std::pair<const char*, const char*> cases[] = {
      {"--file /nonexistent/bench.toml", "--file"},
      {"--scenes /nonexistent/scene.toml", "--scenes"},
      {"--scene /nonexistent/scene.toml", "--scenes"},  // the alias: named as the flag's list
      {"--counts 0", "--counts"},
      {"--count many", "--counts"},
      {"--counts 5,134217729", "--counts"},
      {"--key-modes fuzzy", "--key-modes"},
      {"--key-bits 0", "--key-bits"},
      {"--frames 0", "--frames"},
      {"--warmup -1", "--warmup"},
      {"--stage-every x", "--stage-every"},
      {"--backend metal", "--backend"},
      {"--verify=maybe", "--verify"},
      {"--out", "--out"},
      {"--orders exact,sorted", "--orders"},
      {"--order-period 0", "--order-period"},
      {"--order-period 100001", "--order-period"},
  };
  for (const auto& [args, flag] : cases) {
    const Result r = run(std::string(PARTICLES_BINARY) + " bench " + args);
    EXPECT_EQ(r.status, 2) << args << ": " << r.output;
    EXPECT_NE(r.output.find(flag), std::string::npos) << args << ": " << r.output;
  }
}

TEST(BenchCommand, BadSizeFlagIsAUsageErrorNamingIt) {
  for (const char* size : {"640", "0x480", "640x", "20000x100"}) {
    const Result r = run(std::string(PARTICLES_BINARY) + " bench --size " + size);
    EXPECT_EQ(r.status, 2) << size << ": " << r.output;
    EXPECT_NE(r.output.find(std::string("got '") + size + "'"), std::string::npos) << r.output;
  }
}

TEST(BenchCommand, BadRendererInFileNamesLineColumnAndName) {
  const Result r = run_bench_file("renderer", "frames = 10\nrenderers = [\"raster\", \"splat\"]\n");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find(
                "renderer.toml:2:24: unknown renderer 'splat' (raster|composite|wboit|stochastic)"),
            std::string::npos)
      << r.output;
}

// --- BenchConfig from a bench file and flags, in-process ---

const std::string kGalaxy = PARTICLES_SOURCE_DIR "/scenes/galaxy.toml";

// Writes `contents` as <name>.toml in a fresh directory; returns its path.
std::filesystem::path bench_file(const std::string& name, const std::string& contents) {
  const auto dir = fresh_dir("particles-bench-config-" + name);
  std::filesystem::create_directories(dir);
  const auto file = dir / (name + ".toml");
  std::ofstream(file) << contents;
  return file;
}

// The message load_bench_file throws for `contents`, or "" if it accepts them.
// Bench file text (as "memory.toml") that must be refused with a message starting `expected`.
void expect_refused_text(const std::string& text, const std::string& expected) {
  particles::BenchConfig config;
  try {
    particles::parse_bench_text(text, "memory.toml", config);
    ADD_FAILURE() << "accepted " << text;
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind(expected, 0), 0u) << e.what();
  }
}

std::string load_error(const std::string& name, const std::string& contents) {
  particles::BenchConfig config;
  try {
    particles::load_bench_file(bench_file(name, contents), config);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(BenchConfig, SizeComesFromTheFileAndABadOneNamesFileLineAndColumn) {
  particles::BenchConfig config;
  particles::load_bench_file(bench_file("size", "size = \"3840x2160\"\n"), config);
  EXPECT_EQ(config.width, 3840);
  EXPECT_EQ(config.height, 2160);
  for (const char* bad : {"size = \"3840\"\n", "size = \"0x10\"\n", "size = 1280\n"}) {
    const std::string error = load_error("badsize", bad);
    EXPECT_NE(error.find("badsize.toml:1:8: size must be \"WIDTHxHEIGHT\""), std::string::npos)
        << bad << " -> " << error;
  }
}

TEST(BenchConfig, RenderersComeFromTheFileInItsOrder) {
  particles::BenchConfig config;
  particles::load_bench_file(bench_file("both", "renderers = [\"composite\", \"raster\"]\n"),
                             config);
  EXPECT_EQ(config.renderers,
            (std::vector{particles::RendererKind::composite, particles::RendererKind::raster}));
}

// `particles bench` takes the run's spellings, --scene and --count, as well as --scenes and
// --counts, each with one value or a list.
TEST(BenchConfig, SceneAndCountAreAliasesOfScenesAndCounts) {
  const std::string fountain = PARTICLES_SOURCE_DIR "/scenes/fountain.toml";
  for (const bool singular : {false, true}) {
    CLI::App cli;
    particles::BenchFlags flags;
    particles::add_bench_command(cli, flags);
    const std::string scene_flag = singular ? "--scene" : "--scenes";
    const std::string count_flag = singular ? "--count" : "--counts";
    std::vector<std::string> args = {"particles", "bench", scene_flag, kGalaxy + "," + fountain,
                                     count_flag,  "4096"};
    std::vector<const char*> argv;
    for (const auto& a : args) argv.push_back(a.c_str());
    cli.parse(static_cast<int>(argv.size()), argv.data());
    const particles::BenchConfig config = particles::resolve_bench_config(flags);
    EXPECT_EQ(config.scenes, (std::vector<std::filesystem::path>{kGalaxy, fountain})) << scene_flag;
    EXPECT_EQ(config.counts, std::vector<std::uint32_t>{4096}) << count_flag;
  }
}

TEST(BenchConfig, RenderersDefaultToTheBackendsOwn) {
  particles::BenchFlags flags;
  flags.scenes = {kGalaxy};
  const particles::BenchConfig config = particles::resolve_bench_config(flags);
  EXPECT_TRUE(config.renderers.empty());  // the runner picks the backend's default
}

TEST(BenchConfig, BadRenderersInTheFileNameFileLineAndColumn) {
  const std::string unknown =
      load_error("unknown", "frames = 10\nrenderers = [\"raster\", \"gl\"]\n");
  EXPECT_NE(
      unknown.find("unknown.toml:2:24: unknown renderer 'gl' (raster|composite|wboit|stochastic)"),
      std::string::npos)
      << unknown;
  const std::string number = load_error("number", "renderers = [1]\n");
  EXPECT_NE(number.find("number.toml:1:14: renderers entries must be strings"), std::string::npos)
      << number;
  const std::string scalar = load_error("scalar", "renderers = \"raster\"\n");
  EXPECT_NE(scalar.find("scalar.toml:1:13: renderers must be an array"), std::string::npos)
      << scalar;
}

TEST(BenchConfig, RendererFlagsWinOverTheFile) {
  particles::BenchFlags flags;
  flags.file =
      bench_file("override", "scenes = [\"" + kGalaxy + "\"]\nrenderers = [\"composite\"]\n")
          .string();
  EXPECT_EQ(particles::resolve_bench_config(flags).renderers,
            std::vector{particles::RendererKind::composite});
  flags.renderers = {"raster", "composite"};
  EXPECT_EQ(particles::resolve_bench_config(flags).renderers,
            (std::vector{particles::RendererKind::raster, particles::RendererKind::composite}));
}

TEST(BenchConfig, UnknownRendererFlagIsAnErrorNamingIt) {
  particles::BenchFlags flags;
  flags.scenes = {kGalaxy};
  flags.renderers = {"raster", "splat"};
  try {
    particles::resolve_bench_config(flags);
    FAIL() << "accepted renderer 'splat'";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("unknown renderer 'splat'"), std::string::npos)
        << e.what();
  }
}

TEST(BenchConfig, ScenesMayBeNamedInFlagsAndFiles) {
  particles::BenchFlags flags;
  flags.scenes = {"galaxy", PARTICLES_SOURCE_DIR "/scenes/fountain.toml"};
  const particles::BenchConfig config = particles::resolve_bench_config(flags);
  ASSERT_EQ(config.scenes.size(), 2u);
  EXPECT_EQ(config.scenes[0].filename(), "galaxy.toml");
  EXPECT_TRUE(std::filesystem::is_regular_file(config.scenes[0]));
  EXPECT_EQ(config.scenes[1], PARTICLES_SOURCE_DIR "/scenes/fountain.toml");

  particles::BenchConfig from_file;
  particles::load_bench_file(bench_file("named", "scenes = [\"smoke\", \"snow\"]\n"), from_file);
  ASSERT_EQ(from_file.scenes.size(), 2u);
  EXPECT_EQ(from_file.scenes[0].filename(), "smoke.toml");
  EXPECT_TRUE(std::filesystem::is_regular_file(from_file.scenes[1]));

  flags.scenes = {"no_such_scene"};
  try {
    particles::resolve_bench_config(flags);
    FAIL() << "accepted scene 'no_such_scene'";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("scene file not found: no_such_scene"), std::string::npos)
        << e.what();
  }
}

// Issue 64: a relative scene path in a bench file was looked for from the current folder and
// then the source tree, never beside the bench file; names still mean scenes/NAME.toml.
TEST(BenchConfig, RelativeScenesAreBesideTheBenchFile) {
  const auto file =
      bench_file("relative", "scenes = [\"mine.toml\", \"sub/other.toml\", \"galaxy\"]\n");
  const auto dir = file.parent_path();
  std::filesystem::create_directories(dir / "sub");
  std::filesystem::copy_file(kGalaxy, dir / "mine.toml");
  std::filesystem::copy_file(kGalaxy, dir / "sub" / "other.toml");
  particles::BenchConfig config;
  particles::load_bench_file(file, config);
  ASSERT_EQ(config.scenes.size(), 3u);
  EXPECT_EQ(config.scenes[0], dir / "mine.toml");
  EXPECT_EQ(config.scenes[1], dir / "sub" / "other.toml");
  EXPECT_EQ(config.scenes[2].filename(), "galaxy.toml");
  EXPECT_EQ(config.scenes[2].parent_path().filename(), "scenes");
  // A relative path that is not there is named with the bench file's position.
  const std::string missing =
      load_error("missing", "frames = 10\nscenes = [\"galaxy\", \"gone.toml\"]\n");
  const auto where =
      std::filesystem::temp_directory_path() / "particles-bench-config-missing" / "missing.toml";
  EXPECT_EQ(missing.rfind(where.string() + ":2:21: scene file not found: ", 0), 0u) << missing;
}

// Issue 64: `scenes = [""]` failed without the bench file's position, and an empty list meant
// the defaults (every algorithm, the galaxy) without a word.
TEST(BenchConfig, EmptyScenesAndEmptyListsAreErrorsAtTheirPosition) {
  const std::pair<const char*, const char*> cases[] = {
      {"scenes = [\"\"]\n", "memory.toml:1:11: scenes entries must not be empty"},
      {"scenes = []\n", "memory.toml:1:10: scenes = [] lists nothing"},
      {"frames = 5\nalgorithms = []\n", "memory.toml:2:14: algorithms = [] lists nothing"},
      {"counts = []\n", "memory.toml:1:10: counts = [] lists nothing"},
      {"renderers = []\n", "memory.toml:1:13: renderers = [] lists nothing"},
      {"scenes = [\"/dev/null\"]\n",
       "memory.toml:1:11: /dev/null is not a regular file (it is a character device)"},
  };
  for (const auto& [text, expected] : cases) expect_refused_text(text, expected);
}

// toml++ 3.3.0 reaches undefined behaviour on some non-ASCII characters outside strings (found
// by fuzz/scene_loader_fuzz.cpp), so the bench loader refuses them first too.
TEST(BenchConfig, TextFromMemoryAndNonAsciiOutsideStringsNamesLineAndColumn) {
  particles::BenchConfig config;
  particles::parse_bench_text("frames = 7 # \xc2\xa7\n", "memory.toml", config);
  EXPECT_EQ(config.frames, 7);
  try {
    particles::parse_bench_text("frames = 7\nwarmup\xc8\x9c = 1\n", "memory.toml", config);
    FAIL() << "accepted a non-ASCII key";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("memory.toml:2:7: non-ASCII character outside", 0), 0u)
        << e.what();
  }
}

// Found by fuzz/bench_file_fuzz.cpp: a float where an integer goes was converted to one before
// its type was checked, undefined behaviour for 1.3e34 (toml++'s value<int64_t>).
TEST(BenchConfig, HugeFloatsWhereIntegersGoAreRefused) {
  const std::pair<const char*, const char*> cases[] = {
      {"counts = [1, 1342177e28]\n", "memory.toml:1:14: counts entries must be integers"},
      {"frames = 1e30\n", "memory.toml:1:10: frames must be an integer"},
      {"warmup = -inf\n", "memory.toml:1:10: warmup must be an integer"},
      {"key_bits = nan\n", "memory.toml:1:12: key_bits must be an integer"},
  };
  for (const auto& [text, expected] : cases) expect_refused_text(text, expected);
}

TEST(BenchConfig, AnUnreadableFileIsNamed) {
  particles::BenchConfig config;
  const auto dir = fresh_dir("particles-bench-config-dir");
  std::filesystem::create_directories(dir);
  try {
    particles::load_bench_file(dir, config);
    FAIL() << "read a directory as a bench file";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), dir.string() + ": cannot open bench file: is a directory");
  }
}

TEST(BenchConfig, OrdersAndPeriodComeFromTheFileAndBadOnesAreNamed) {
  particles::BenchConfig config;
  particles::load_bench_file(
      bench_file("orders", "orders = [\"stale\", \"coarse\"]\norder_period = 12\n"), config);
  EXPECT_EQ(config.orders,
            (std::vector{particles::DrawOrder::stale, particles::DrawOrder::coarse}));
  EXPECT_EQ(config.choices.order_period, 12);
  const std::string unknown = load_error("badorder", "orders = [\"exact\", \"sorted\"]\n");
  EXPECT_NE(unknown.find("badorder.toml:1:20: unknown draw order 'sorted' "
                         "(exact|unsorted|stale|eye|coarse)"),
            std::string::npos)
      << unknown;
  const std::string period = load_error("badperiod", "order_period = 0\n");
  EXPECT_NE(period.find("badperiod.toml:1:16: order_period must be in [1, 100000]"),
            std::string::npos)
      << period;
  particles::BenchFlags flags;
  flags.scenes = {PARTICLES_SOURCE_DIR "/scenes/galaxy.toml"};
  EXPECT_EQ(particles::resolve_bench_config(flags).orders,
            std::vector{particles::DrawOrder::exact});
}

}  // namespace
