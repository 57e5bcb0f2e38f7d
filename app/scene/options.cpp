#include "app/scene/options.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "app/scene/paths.hpp"
#include "app/scene/printable.hpp"
#include "app/scene/suggest.hpp"
#include "core/backend_limits.hpp"
#include "core/cpu_algorithm_sort.hpp"

namespace particles {

CLI::Validator size_validator() {
  return CLI::Validator(
      [](std::string& s) {
        return parse_size(s) ? std::string{}
                             : "expected WIDTHxHEIGHT with each in 1..16384, got '" + s + "'";
      },
      "", "size");
}

CLI::Validator output_path_validator() {
  return CLI::Validator(
      [](std::string& s) { return s.empty() ? std::string("an empty path names no file") : ""; },
      "", "path");
}

CLI::Validator one_of(const std::vector<std::string>& names, const std::string& what) {
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ",") + n;
  return CLI::Validator(
      [names, what](std::string& s) -> std::string {
        if (std::find(names.begin(), names.end(), s) != names.end()) return {};
        std::string all;
        for (const std::string& n : names) all += (all.empty() ? "" : ", ") + n;
        return "'" + printable(s) + "' is no " + what + did_you_mean(s, names) + ": " + all;
      },
      "{" + list + "}", what);
}

CLI::Validator finite_range(double lo, double hi) {
  return CLI::Validator(
      [lo, hi](std::string& s) -> std::string {
        double v = 0.0;
        std::size_t used = 0;
        try {
          v = std::stod(s, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used == 0 || used != s.size() || !std::isfinite(v) || v < lo || v > hi) {
          std::ostringstream range;
          range << "expected a finite number in [" << lo << ", " << hi << "], got '" << s << "'";
          return range.str();
        }
        return {};
      },
      "", "finite range");
}

std::optional<std::pair<int, int>> parse_size(const std::string& text) {
  const auto x = text.find('x');
  if (x == std::string::npos || x == 0 || x + 1 == text.size()) return std::nullopt;
  auto dim = [](const std::string& s) -> int {
    if (s.find_first_not_of("0123456789") != std::string::npos || s.size() > 5) return 0;
    const int v = std::stoi(s);
    return v <= 16384 ? v : 0;
  };
  const int w = dim(text.substr(0, x)), h = dim(text.substr(x + 1));
  if (w <= 0 || h <= 0) return std::nullopt;
  return std::pair{w, h};
}

namespace {

// `--scene ""` used to be taken for no --scene at all, and ran the galaxy.
CLI::Validator scene_argument_validator() {
  return CLI::Validator(
      [](std::string& s) { return s.empty() ? std::string("an empty path names no scene") : ""; },
      "", "scene");
}

// --algorithm's help: the names, the default, and what each runs on the CPU backend, where CUB
// does not exist and every algorithm is a CPU implementation of its own.
std::string algorithm_help() {
  std::string help = "Sort algorithm (default " + std::string(to_string(FrameChoices{}.algorithm)) +
                     "). On the CUDA backend the GPU sorts; on the CPU backend:";
  for (const Algorithm a : kAllAlgorithms) {
    help += "\n  " + std::string(to_string(a)) + ": " + std::string(cpu_algorithm_label(a));
  }
  return help;
}

}  // namespace

std::string renderer_help() {
  return renderer_descriptions() + "; default " + std::string(to_string(default_renderer("cuda"))) +
         " on the CUDA backend, " + std::string(to_string(default_renderer("cpu"))) + " on the CPU";
}

std::string scene_names_help() {
  std::string names;
  for (const auto& file : list_scene_files()) {
    names += (names.empty() ? "" : ", ") + file.stem().string();
  }
  return names.empty() ? "Scenes: none found (scenes/*.toml)"
                       : "Scenes (--scene NAME, or a TOML file): " + names;
}

namespace {

bool has_display() {
  const char* x11 = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  return (x11 && *x11) || (wayland && *wayland);
}

}  // namespace

namespace {

// What runs: the scene, its count, and the sort, renderer and backend that run it.
void add_scene_and_backend_options(CLI::App& app, Options& o) {
  app.add_option_function<std::string>(
         "--scene", [&o](const std::string& s) { o.scene = resolve_scene_argument(s); },
         "Scene file (TOML), or a scene's name (galaxy: scenes/galaxy.toml; the scenes are "
         "listed below; default galaxy)")
      ->type_name("FILE")
      ->check(scene_argument_validator());
  app.add_option_function<std::uint32_t>(
         "--count", [&o](const std::uint32_t& n) { o.count = n; },
         "Particle count (default the scene's: count on CUDA, cpu_count on the CPU); each "
         "backend's limit is listed below")
      ->type_name("N")
      ->check(CLI::Range(1u, kMaxCount));
  app.add_option_function<std::string>(
         "--algorithm",
         [&o](const std::string& s) { o.choices.algorithm = *algorithm_from_string(s); },
         algorithm_help())
      ->type_name("NAME")
      ->check(one_of(algorithm_names(), "algorithm"));
  app.add_option_function<std::string>(
         "--renderer",
         [&o](const std::string& s) {
           o.choices.renderer = *renderer_from_string(s);
           o.renderer_given = true;
         },
         renderer_help())
      ->type_name("NAME")
      ->check(one_of(renderer_names(), "renderer"));
  app.add_option_function<std::string>(
         "--backend",
         [&o](const std::string& s) {
           o.backend = s == "cuda"  ? BackendChoice::cuda
                       : s == "cpu" ? BackendChoice::cpu
                                    : BackendChoice::automatic;
         },
         "Simulation/sort backend (default auto: CUDA when a device is usable, else the CPU)")
      ->type_name("NAME")
      ->check(one_of({"cuda", "cpu", "auto"}, "backend"));
}

// How long it runs, and what it writes: screenshots, reports, recordings; the camera that sees it.
void add_run_and_output_options(CLI::App& app, Options& o) {
  app.add_flag("--headless", o.headless,
               "Render offscreen (EGL), no window; the default when there is no display. Like "
               "a window run it writes no file unless --screenshot, --report or --record asks");
  app.add_option_function<int>(
         "--frames", [&o](const int& n) { o.frames = n; },
         "Frames to run, then exit (headless default: 600)")
      ->type_name("N")
      ->check(CLI::Range(1, std::numeric_limits<int>::max()));
  app.add_option_function<std::string>(
         "--screenshot", [&o](const std::string& s) { o.screenshot = s; },
         "Write the last frame to this PNG (a regular file or a new name; never a link, a "
         "device or the scene's own files)")
      ->type_name("FILE")
      ->check(output_path_validator());
  app.add_option_function<std::string>(
         "--report", [&o](const std::string& s) { o.report = s; },
         "Write per-frame and per-stage timings to this CSV file (the same rules as "
         "--screenshot)")
      ->type_name("FILE")
      ->check(output_path_validator());
  app.add_option_function<std::string>(
         "--record", [&o](const std::string& s) { o.record = s; },
         "Write every frame to DIR as frame_00000.png, frame_00001.png, ... (RGB, written off "
         "the frame's path; DIR is created, or must be an empty folder: nothing else in it is "
         "replaced or removed, and nothing is written outside it) and, when ffmpeg is on the "
         "PATH, encode them to DIR/recording.mp4 after the run, then remove the PNGs (see "
         "--keep-frames). Each frame steps the simulation and the scene's camera path by the "
         "scene's time_step, whatever the wall clock, so a headless run with the same flags "
         "records the same frames")
      ->type_name("DIR")
      ->check(output_path_validator());
  app.add_option_function<std::vector<std::string>>(
         "--camera",
         [&o](const std::vector<std::string>& words) {
           try {
             o.camera = parse_camera_view(words);
           } catch (const std::invalid_argument& e) {
             throw CLI::ValidationError("--camera", e.what());
           }
         },
         "View the scene from here instead of its own camera (pose, path and framing): "
         "eye=x,y,z target=x,y,z [fov=deg] (default fov: the scene's); the window's E key "
         "prints the current camera in this form")
      ->type_name("eye=X,Y,Z target=X,Y,Z [fov=DEG]")
      ->expected(1, 3);
  app.add_flag("--keep-frames", o.keep_frames,
               "Keep --record's PNGs after DIR/recording.mp4 is made (default: they are "
               "removed once it exists)");
  app.add_option("--record-fps", o.record_fps,
                 "Frame rate of DIR/recording.mp4 (default 60); the simulation still steps "
                 "by time_step per frame")
      ->type_name("FPS")
      ->check(CLI::Range(1, 240));
}

// The draw order and its comparison, the depth keys, and the window.
void add_order_and_display_options(CLI::App& app, Options& o) {
  app.add_option_function<std::string>(
         "--key-mode",
         [&o](const std::string& s) {
           o.choices.key_mode = s == "quantized" ? KeyMode::quantized : KeyMode::exact;
         },
         "Depth keys: exact 32-bit floats or quantized to --key-bits (default exact)")
      ->type_name("MODE")
      ->check(one_of({"exact", "quantized"}, "key mode"));
  app.add_option("--key-bits", o.choices.key_bits,
                 "Bits per quantized depth key (default " + std::to_string(kDefaultKeyBits) + ")")
      ->type_name("B")
      ->check(CLI::Range(1, 32));
  app.add_option_function<std::string>(
         "--size",
         [&o](const std::string& s) {
           const auto wh = parse_size(s);  // already validated by the check below
           o.width = wh->first;
           o.height = wh->second;
         },
         "Window / framebuffer size (default 1280x720)")
      ->type_name("WxH")
      ->check(size_validator());
  app.add_option_function<std::string>(
         "--order", [&o](const std::string& s) { o.choices.order = *draw_order_from_string(s); },
         "Draw order: exact (sorted by view depth every frame; the default), unsorted, stale "
         "(sorted every --order-period frames), eye (by distance to the eye), coarse (8-bit depth "
         "keys)")
      ->type_name("NAME")
      ->check(one_of(draw_order_names(), "draw order"));
  app.add_option(
         "--order-period", o.choices.order_period,
         "Frames per sort of the stale order (default " + std::to_string(kDefaultOrderPeriod) + ")")
      ->type_name("N")
      ->check(CLI::Range(1, kMaxOrderPeriod));
  app.add_flag_callback(
      "--unsorted", [&o] { o.choices.order = DrawOrder::unsorted; },
      "Draw in index order (to see what sorting fixes): --order unsorted");
  app.add_flag("--compare", o.choices.compare,
               "Compare with the exact order: split screen (the left half drawn in the exact "
               "order, the right half in --order) or a heat map, see --compare-mode");
  app.add_option_function<std::string>(
         "--compare-mode",
         [&o](const std::string& s) {
           o.choices.compare_mode = *compare_mode_from_string(s);
           o.choices.compare = true;
         },
         "How --compare shows the difference (implies --compare): split (default) or heat (each "
         "pixel coloured by how far the two orders' images differ there)")
      ->type_name("MODE")
      ->check(one_of(compare_mode_names(), "comparison mode"));
  app.add_flag_callback(
      "--no-vsync", [&o] { o.vsync = false; }, "Do not wait for vsync");
  // The range of app/main/hud_layout.hpp's kMinUiScale and kMaxUiScale (this library does not
  // link the app's).
  app.add_option_function<float>(
         "--ui-scale", [&o](const float& s) { o.ui_scale = s; },
         "Scale of the HUD's font and spacing, 0.75 to 3 (default the monitor's content scale, "
         "e.g. 2 on a 200% screen, where the window system reports one; else 1)")
      ->type_name("S")
      ->check(finite_range(0.75, 3.0));
}

}  // namespace

std::unique_ptr<CLI::App> make_cli(Options& o) {
  auto app = std::make_unique<CLI::App>(
      "particles: real-time depth-sorted particle renderer (CUDA or CPU backend, OpenGL)",
      "particles");
  // In the order --help lists them.
  add_scene_and_backend_options(*app, o);
  add_run_and_output_options(*app, o);
  add_order_and_display_options(*app, o);
  app->footer("\n" + backend_limits_help() + "\n\n" + scene_names_help());
  return app;
}

namespace {

std::vector<std::string> long_flags_of(const CLI::App& app) {
  std::vector<std::string> flags;
  for (const CLI::Option* o : app.get_options()) {
    for (const std::string& name : o->get_lnames()) flags.push_back("--" + name);
  }
  return flags;
}

}  // namespace

std::string unexpected_flags_hint(const CLI::App& app) {
  // The command that was parsing: the last subcommand given, else the program itself.
  const CLI::App* at = &app;
  for (const CLI::App* sub : app.get_subcommands()) at = sub;
  const std::vector<std::string> here = long_flags_of(*at);
  const auto every_command = app.get_subcommands(
      std::function<bool(const CLI::App*)>([](const CLI::App*) { return true; }));
  std::string hint;
  for (const std::string& arg : app.remaining(true)) {
    if (arg.rfind("--", 0) != 0) continue;  // a value, or a short flag
    const std::string flag = arg.substr(0, arg.find('='));
    std::string line;
    std::vector<const CLI::App*> commands = every_command;
    commands.insert(commands.begin(), &app);
    for (const CLI::App* other : commands) {
      const std::vector<std::string> theirs = long_flags_of(*other);
      if (other == at || std::find(theirs.begin(), theirs.end(), flag) == theirs.end()) continue;
      const std::string command =
          other == &app ? app.get_name() : app.get_name() + " " + other->get_name();
      line += std::string(line.empty() ? "a flag of '" : ", '") + command + "'";
    }
    const std::string nearest = nearest_name(flag, here);
    if (!nearest.empty()) {
      line += std::string(line.empty() ? "" : "; ") + "did you mean '" + nearest + "'?";
    }
    if (!line.empty()) hint += "\n  " + printable(flag) + ": " + line;
  }
  return hint;
}

int run_cli(CLI::App& app, int argc, const char* const* argv, std::ostream& out,
            std::ostream& err) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help: usage to `out`, exit 0
    return app.exit(e, out, err);
  } catch (const CLI::ParseError& e) {
    // CLI11's own codes (105, 109, ...) mean nothing to a shell user; 2 is the usage-error norm.
    err << "error: " << e.what();
    // (CLI11 names an ExtrasError after the command, so it is told apart by its type.)
    if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) err << unexpected_flags_hint(app);
    err << "\nRun with --help for usage.\n";
    return kUsageExitCode;
  }
  return -1;
}

int finish_options(Options& o, std::ostream& err) {
  const bool given = !o.scene.empty();
  if (!given) o.scene = find_resource("scenes/galaxy.toml");
  // From the file's status: a directory, a device or a FIFO is named as such, and a FIFO is
  // never opened (which would block until something writes to it).
  if (const std::string problem = scene_file_error(o.scene); !problem.empty()) {
    err << "error: " << (given ? "--scene: " : "") << problem << "\n";
    return kUsageExitCode;
  }
  if (o.count && o.backend == BackendChoice::cpu) {
    try {  // --backend auto is checked once it has chosen (app.cpp)
      check_backend_count("cpu", *o.count, "--count");
    } catch (const std::runtime_error& e) {
      err << "error: " << e.what() << "\n";
      return kUsageExitCode;
    }
  }
  if (!has_display()) o.headless = true;  // nothing to open a window on
  if (o.headless && !o.frames) o.frames = kDefaultHeadlessFrames;
  return 0;
}

ParseOutcome parse_options(int argc, const char* const* argv, std::ostream& out,
                           std::ostream& err) {
  Options options;
  const auto app = make_cli(options);
  if (const int code = run_cli(*app, argc, argv, out, err); code >= 0) return {std::nullopt, code};
  if (const int code = finish_options(options, err); code != 0) return {std::nullopt, code};
  return {options, 0};
}

}  // namespace particles
