#pragma once
// The command line of `particles`. parse_options() is the whole story for a plain run; the
// pieces it is made of (make_cli, run_cli, finish_options) are public so a subcommand such as
// `bench` can be added to the same CLI::App without touching the run flags.
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/scene/camera_option.hpp"
#include "core/frame_choices.hpp"
#include "core/renderer_kind.hpp"

namespace CLI {
class App;        // include <CLI/CLI.hpp> to use make_cli
class Validator;  // and size_validator
}  // namespace CLI

namespace particles {

enum class BackendChoice { automatic, cuda, cpu };

inline constexpr int kDefaultRecordFps = 60;

struct Options {
  std::filesystem::path scene;         // default: find_resource("scenes/galaxy.toml")
  std::optional<std::uint32_t> count;  // overrides the scene's count / cpu_count
  // --algorithm, --renderer, --key-mode, --key-bits, --order (--unsorted is --order unsorted),
  // --order-period, --compare, --compare-mode.
  FrameChoices choices;
  // Whether --renderer set choices.renderer; otherwise the backend picks it (default_renderer:
  // composite on the CUDA backend, raster on the CPU backend).
  bool renderer_given = false;
  BackendChoice backend = BackendChoice::automatic;
  bool headless = false;               // --headless, or no DISPLAY / WAYLAND_DISPLAY
  std::optional<int> frames;           // unset: run until closed; headless default 600
  std::filesystem::path screenshot;    // empty: none (headless too: files only when asked)
  std::filesystem::path report;        // empty: none
  std::filesystem::path record;        // empty: no recording; else every frame's PNG goes here
  int record_fps = kDefaultRecordFps;  // frame rate of the recording's MP4
  bool keep_frames = false;  // --keep-frames: the recording's PNGs stay after its MP4 is made
  std::optional<CameraView> camera;  // --camera: overrides the (first) scene's camera
  int width = 1280, height = 720;
  bool vsync = true;
  // --ui-scale: the HUD's font and spacing scale; unset, the monitor's content scale (the window
  // only, app/main/hud_layout.hpp).
  std::optional<float> ui_scale;
};

struct ParseOutcome {
  std::optional<Options> options;  // empty when the program should exit with exit_code
  int exit_code = 0;               // 0 after --help, 2 after a usage error
};

inline constexpr int kUsageExitCode = 2;
inline constexpr int kDefaultHeadlessFrames = 600;

// The renderer a backend ("cuda" or "cpu") draws with when --renderer is not given: the tile
// compositor where it runs on the GPU, GL rasterization where compositing runs on the CPU.
constexpr RendererKind default_renderer(std::string_view backend) {
  return backend == "cuda" ? RendererKind::composite : RendererKind::raster;
}

// --renderer's help: every renderer of the table with its few words, and each backend's default:
// "raster (GL point sprites), composite (the tile compositor); default composite on the CUDA
// backend, raster on the CPU".
std::string renderer_help();

// "1280x720" -> {1280, 720}; nullopt when malformed or a side is outside 1..16384.
std::optional<std::pair<int, int>> parse_size(const std::string& text);
// The check of a --size flag, naming what it expected and got.
CLI::Validator size_validator();
// The check of an output path flag (--screenshot, --out, ...): an empty one names nothing, and
// is an error rather than a default path.
CLI::Validator output_path_validator();
// The check of a flag whose value is one of `names` (an algorithm, a renderer, ...): a value that
// is none says so, suggests the nearest and lists them all: "'radx' is no algorithm (did you mean
// 'radix'?): radix, oddeven, quicksort, cub, auto". `what` names the kind ("algorithm").
CLI::Validator one_of(const std::vector<std::string>& names, const std::string& what);
// "Scenes (--scene NAME, or a TOML file): attractor, fireworks, ...": every shipped scene's name,
// for --help.
std::string scene_names_help();
// The check of a floating-point flag: a finite number in [lo, hi]. CLI::Range alone lets "nan"
// through (every comparison with NaN is false).
CLI::Validator finite_range(double lo, double hi);

// Parses argv; --help goes to `out`, errors to `err` as "error: ...".
ParseOutcome parse_options(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

// Building blocks of parse_options, for adding subcommands:
//   Options o; auto app = make_cli(o); app->add_subcommand("bench", ...);
//   if (int code = run_cli(*app, argc, argv, out, err); code >= 0) return code;
//   if (int code = finish_options(o, err); code != 0) return code;
// make_cli binds the run flags to `options`, which must outlive the returned app.
std::unique_ptr<CLI::App> make_cli(Options& options);
// For the arguments a parse did not expect, one line each for a --flag that is another
// command's ("a flag of 'particles bench'") or near one of this command's ("did you mean
// '--frames'?"); "" when there is nothing to say. run_cli prints it after CLI11's error.
std::string unexpected_flags_hint(const CLI::App& app);
// Returns -1 when parsing succeeded, else the exit code (0 after --help), having printed why.
int run_cli(CLI::App& app, int argc, const char* const* argv, std::ostream& out, std::ostream& err);
// Fills defaults that depend on the environment, checks the scene file exists and, with
// --backend cpu, that --count is within the CPU backend's limit (core/backend_limits.hpp);
// returns 0 or kUsageExitCode after printing the error.
int finish_options(Options& options, std::ostream& err);

}  // namespace particles
