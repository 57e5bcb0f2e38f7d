#include "app/main/bench_cli.hpp"

#include <CLI/CLI.hpp>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "app/scene/paths.hpp"
#include "core/backend_limits.hpp"

namespace particles {

namespace {

// What the bench runs: the matrix of scenes, algorithms, counts, key modes, renderers and
// orders.
void add_matrix_options(CLI::App& bench, BenchFlags& f) {
  // The run's own spellings (--scene, --count) work too: one value or a list either way.
  bench
      .add_option("--scenes,--scene", f.scenes,
                  "Scene files or names (galaxy: scenes/galaxy.toml; default galaxy; the "
                  "scenes are listed below)")
      ->delimiter(',')
      ->type_name("FILE,...")
      ->check(
          [](const std::string& scene) -> std::string {
            // As the bench will look for it: a path from here, else a name.
            if (scene.empty()) return "an empty path names no scene";
            return scene_file_error(resolve_scene_argument(scene));
          },
          "FILE|NAME");
  bench
      .add_option("--algorithms,--algorithm", f.algorithms,
                  "Sort algorithms (default all: radix,oddeven,quicksort,cub,auto; on the CPU "
                  "backend each is its own CPU sort, cub being std::stable_sort, see "
                  "`particles --help`)")
      ->delimiter(',')
      ->type_name("NAME,...")
      ->check(one_of(algorithm_names(), "algorithm"));
  bench
      .add_option("--counts,--count", f.counts,
                  "Particle counts (default: each scene's); each backend's limit is listed below")
      ->delimiter(',')
      ->type_name("N,...")
      ->check(CLI::Range(1u, kMaxCount));
  bench.add_option("--key-modes", f.key_modes, "Depth key modes (default exact)")
      ->delimiter(',')
      ->type_name("MODE,...")
      ->check(one_of({"exact", "quantized"}, "key mode"));
  bench
      .add_option("--renderers", f.renderers,
                  "Renderers: " + renderer_names_text(", ") + " (default: the backend's, " +
                      std::string(to_string(default_renderer("cuda"))) + " on CUDA, " +
                      std::string(to_string(default_renderer("cpu"))) + " on the CPU)")
      ->delimiter(',')
      ->type_name("NAME,...")
      ->check(one_of(renderer_names(), "renderer"));
  bench
      .add_option("--orders", f.orders,
                  "Draw orders (default exact): exact, unsorted, stale, eye, coarse; approximate "
                  "ones report their descents and pixels off")
      ->delimiter(',')
      ->type_name("NAME,...")
      ->check(one_of(draw_order_names(), "draw order"));
}

// How each run of the matrix runs, and where the results go.
void add_run_options(CLI::App& bench, BenchFlags& f) {
  // Defaults from BenchConfig itself, so the help cannot drift from what runs.
  const BenchConfig defaults;
  const FrameChoices& default_choices = defaults.choices;
  bench
      .add_option("--order-period", f.order_period,
                  "Frames per sort of the stale order (default " +
                      std::to_string(default_choices.order_period) + ")")
      ->type_name("N")
      ->check(CLI::Range(1, kMaxOrderPeriod));
  bench
      .add_option(
          "--key-bits", f.key_bits,
          "Bits per quantized key (default " + std::to_string(default_choices.key_bits) + ")")
      ->type_name("B")
      ->check(CLI::Range(1, 32));
  bench
      .add_option("--frames", f.frames,
                  "Measured frames per run (default " + std::to_string(defaults.frames) + ")")
      ->type_name("N")
      ->check(CLI::Range(1, 1000000));
  bench
      .add_option("--warmup", f.warmup,
                  "Unrecorded frames before measuring, per run (default " +
                      std::to_string(defaults.warmup) + ")")
      ->type_name("N")
      ->check(CLI::Range(0, 100000));
  bench
      .add_option("--stage-every", f.stage_every,
                  "Time each stage on every Nth frame, the others' span alone (default " +
                      std::to_string(default_choices.stage_sample_period) +
                      "; 1: every frame, whose stage boundaries then slow it)")
      ->type_name("N")
      ->check(CLI::Range(1, 100000));
  bench.add_option("--size", f.size, "Framebuffer size the frames are drawn at (default 1280x720)")
      ->type_name("WxH")
      ->check(size_validator());
  bench.add_flag("--verify", f.verify,
                 "Check every frame's draw order is exactly sorted (exact order), and that no "
                 "frame is all background where particles should show (every order)");
  bench.add_flag("--no-draw", f.no_draw, "Skip the particle draw: time the backend's stages alone");
  bench.add_flag("--no-fuse", f.no_fuse,
                 "CUDA: run simulate, extents and keys as separate kernels (per-stage times)");
  bench
      .add_option("--backend", f.backend,
                  "cuda, cpu or auto (default auto: CUDA when a device is usable, else the CPU)")
      ->type_name("NAME")
      ->check(one_of({"cuda", "cpu", "auto"}, "backend"));
  bench
      .add_option("--out", f.out_dir,
                  "Output directory (default bench-out): frames.csv, summary.json and chart.svg "
                  "there are replaced")
      ->type_name("DIR")
      ->check(output_path_validator());
}

}  // namespace

CLI::App* add_bench_command(CLI::App& cli, BenchFlags& f) {
  CLI::App* bench = cli.add_subcommand(
      "bench",
      "Headless benchmark: scenes x counts x key modes x draw orders x algorithms x renderers, N "
      "frames each; "
      "writes frames.csv, summary.json and chart.svg and prints a table");
  bench->add_option("--file", f.file, "Bench file (TOML, see bench/*.toml)")
      ->type_name("FILE")
      ->check(CLI::ExistingFile);
  // In the order --help lists them.
  add_matrix_options(*bench, f);
  add_run_options(*bench, f);
  bench->footer("\n" + backend_limits_help() + "\n\n" + scene_names_help());
  return bench;
}

BenchConfig resolve_bench_config(const BenchFlags& f) {
  BenchConfig c;
  if (!f.file.empty()) load_bench_file(f.file, c);
  if (!f.scenes.empty()) {
    c.scenes.clear();
    for (const auto& s : f.scenes) c.scenes.push_back(resolve_scene_argument(s));
  }
  if (!f.algorithms.empty()) {
    c.algorithms.clear();
    for (const auto& a : f.algorithms) c.algorithms.push_back(*algorithm_from_string(a));
  }
  if (!f.counts.empty()) c.counts = f.counts;
  if (!f.key_modes.empty()) {
    c.key_modes.clear();
    for (const auto& m : f.key_modes) {
      c.key_modes.push_back(m == "quantized" ? KeyMode::quantized : KeyMode::exact);
    }
  }
  if (!f.renderers.empty()) c.renderers = renderers_named(f.renderers);
  if (!f.orders.empty()) {
    c.orders.clear();
    for (const auto& name : f.orders) {
      const auto o = draw_order_from_string(name);
      if (!o) throw std::runtime_error("unknown draw order '" + name + "'");
      c.orders.push_back(*o);
    }
  }
  if (f.order_period) c.choices.order_period = *f.order_period;
  if (f.key_bits) c.choices.key_bits = *f.key_bits;
  if (f.frames) c.frames = *f.frames;
  if (f.warmup) c.warmup = *f.warmup;
  if (f.stage_every) c.choices.stage_sample_period = *f.stage_every;
  if (!f.size.empty()) std::tie(c.width, c.height) = *parse_size(f.size);
  if (f.verify) c.verify = true;
  if (f.no_draw) c.draw = false;
  if (f.no_fuse) c.choices.fuse_stages = false;
  c.backend = f.backend == "cuda"  ? BackendChoice::cuda
              : f.backend == "cpu" ? BackendChoice::cpu
                                   : BackendChoice::automatic;
  c.out_dir = f.out_dir;
  finish_bench_config(c);
  return c;
}

}  // namespace particles
