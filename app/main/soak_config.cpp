// `particles soak`: its flags, its plan of segments and cycles, and how memory growth is judged.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <tuple>

#include "app/main/soak.hpp"
#include "app/scene/paths.hpp"
#include "app/scene/scene_loader.hpp"
#include "core/backend_limits.hpp"

namespace particles {

std::vector<std::uint32_t> soak_default_counts(const std::string& backend_name) {
  if (backend_name == "cpu") return {1u << 14, 1u << 16};
  return {1u << 16, 1u << 20, 1u << 22};
}

int soak_cycle_length(const SoakConfig& c) {
  // Long enough for every list, and for each key mode under each renderer (soak_settings).
  const std::size_t longest =
      std::max({c.scenes.size(), c.counts.size(), c.algorithms.size(), c.key_modes.size(),
                c.renderers.size(), c.key_modes.size() * c.renderers.size(), std::size_t{1}});
  return static_cast<int>(longest);
}

SoakSettings soak_settings(const SoakConfig& c, int segment) {
  const auto p = static_cast<std::size_t>(segment % soak_cycle_length(c));
  auto pick = [p](std::size_t size) { return size == 0 ? 0 : p % size; };
  SoakSettings s;
  s.scene = pick(c.scenes.size());
  s.count = pick(c.counts.size());
  s.algorithm = pick(c.algorithms.size());
  s.key_mode = pick(c.key_modes.size());
  // The renderer steps once per round of key modes, which pairs each key mode with each renderer
  // within key modes x renderers segments (four with two of each).
  s.renderer = c.renderers.empty()
                   ? 0
                   : (p / std::max<std::size_t>(c.key_modes.size(), 1)) % c.renderers.size();
  return s;
}

FrameChoices segment_choices(const SoakConfig& c, const SoakSettings& s) {
  FrameChoices choices = c.choices;
  choices.algorithm = c.algorithms[s.algorithm];
  choices.key_mode = c.key_modes[s.key_mode];
  choices.renderer = c.renderers[s.renderer];
  return choices;
}

void finish_soak_config(SoakConfig& c, const std::string& backend_name) {
  if (c.scenes.empty()) c.scenes = list_scene_files();
  if (c.scenes.empty()) throw std::runtime_error("no scenes/*.toml found for the soak");
  c.inputs.clear();
  for (const auto& scene : c.scenes) {
    // Throws SceneError naming the file; what it read, no output may replace.
    for (RunInput& input : scene_inputs(load_scene(scene))) c.inputs.push_back(std::move(input));
  }
  if (c.counts.empty()) c.counts = soak_default_counts(backend_name);
  for (const std::uint32_t count : c.counts) check_backend_count(backend_name, count, "--counts");
  // The flag's check refuses NaN too; this is for a SoakConfig filled in code. NaN would turn
  // the memory check off (no growth compares greater than it).
  if (!std::isfinite(c.max_growth_percent) || c.max_growth_percent < 0.0 ||
      c.max_growth_percent > kMaxGrowthPercent) {
    throw std::runtime_error("--max-growth must be a finite number in [0, 1000], not " +
                             std::to_string(c.max_growth_percent));
  }
  if (c.algorithms.empty()) c.algorithms.assign(kAllAlgorithms.begin(), kAllAlgorithms.end());
  if (c.key_modes.empty()) c.key_modes = {KeyMode::exact, KeyMode::quantized};
  if (c.renderers.empty()) c.renderers = renderers_on(backend_name);
  if (c.every < 1) throw std::runtime_error("--every must be at least 1");
  if (c.verify_every < 1) throw std::runtime_error("--verify-every must be at least 1");
  const std::int64_t cycle_frames = std::int64_t{soak_cycle_length(c)} * c.every;
  if (c.frames < 3 * cycle_frames) {
    throw std::runtime_error(
        "--frames " + std::to_string(c.frames) + " holds less than three cycles of " +
        std::to_string(soak_cycle_length(c)) + " segments x " + std::to_string(c.every) +
        " frames (" + std::to_string(3 * cycle_frames) +
        "): the first is the warm-up, and memory after it is compared with the last");
  }
}

SoakGrowth soak_growth(const std::vector<SoakSample>& samples, int cycle_length, bool device) {
  SoakGrowth g;
  const std::size_t cycle = static_cast<std::size_t>(std::max(cycle_length, 1));
  const std::size_t full_cycles = samples.size() / cycle;
  if (full_cycles < 3) return g;
  std::vector<std::uint64_t> values;
  for (std::size_t i = cycle; i < full_cycles * cycle; ++i) {
    const auto v = device ? samples[i].device_bytes : samples[i].rss_bytes;
    if (!v) return g;
    values.push_back(*v);
  }
  auto floor_of = [&](std::size_t c) {  // c counts cycles after the warm-up
    const auto first = values.begin() + static_cast<std::ptrdiff_t>(c * cycle);
    return *std::min_element(first, first + static_cast<std::ptrdiff_t>(cycle));
  };
  g.after_warmup = floor_of(0);
  g.at_end = floor_of(full_cycles - 2);
  g.peak = *std::max_element(values.begin(), values.end());
  if (*g.after_warmup > 0) {
    g.percent = 100.0 * (double(*g.at_end) / double(*g.after_warmup) - 1.0);
  }
  return g;
}

CLI::App* add_soak_command(CLI::App& cli, SoakFlags& f) {
  CLI::App* soak = cli.add_subcommand(
      "soak",
      "Headless soak: switch scene, count, algorithm, key mode and renderer every --every "
      "frames, check the draw order and the image of every --verify-every-th frame, sample "
      "host RSS and GPU memory at each switch; exit 1 on a mis-sorted frame, a frame all "
      "background where particles should show, an error or memory growth");
  soak->add_option("--frames", f.frames, "Frames in all (default 20000)")
      ->type_name("N")
      ->check(CLI::Range(1, 100000000));
  soak->add_option("--every", f.every, "Frames between switches (default 300)")
      ->type_name("N")
      ->check(CLI::Range(1, 1000000));
  soak->add_option("--verify-every", f.verify_every,
                   "Check the draw order and the image of every Nth frame (default 10)")
      ->type_name("N")
      ->check(CLI::Range(1, 1000000));
  soak->add_option("--scenes", f.scenes, "Scene files or names (default: every scenes/*.toml)")
      ->delimiter(',')
      ->type_name("FILE,...");
  soak->add_option("--counts", f.counts,
                   "Particle counts (default: 65536,1048576,4194304 on CUDA, 16384,65536 on "
                   "the CPU); each backend's limit is listed below")
      ->delimiter(',')
      ->type_name("N,...")
      ->check(CLI::Range(1u, kMaxCount));
  soak->add_option("--algorithms", f.algorithms, "Sort algorithms (default: all)")
      ->delimiter(',')
      ->type_name("NAME,...")
      ->check(one_of(algorithm_names(), "algorithm"));
  soak->add_option("--key-modes", f.key_modes, "Depth key modes (default: both)")
      ->delimiter(',')
      ->type_name("MODE,...")
      ->check(one_of({"exact", "quantized"}, "key mode"));
  soak->add_option("--renderers", f.renderers,
                   "Renderers (default: all, " + renderer_names_text(", ") + ")")
      ->delimiter(',')
      ->type_name("NAME,...")
      ->check(one_of(renderer_names(), "renderer"));
  soak->add_option("--max-growth", f.max_growth,
                   "Memory growth after the warm-up cycle that fails the soak, in % (default 1)")
      ->type_name("PERCENT")
      ->check(finite_range(0.0, kMaxGrowthPercent));
  soak->add_option("--size", f.size, "Framebuffer size (default 1280x720)")
      ->type_name("WxH")
      ->check(size_validator());
  soak->add_option("--backend", f.backend,
                   "cuda, cpu or auto (default auto: CUDA when a device is usable, else the CPU)")
      ->type_name("NAME")
      ->check(one_of({"cuda", "cpu", "auto"}, "backend"));
  soak->add_option("--out", f.out_dir,
                   "Output directory (default soak-out): samples.csv and summary.json there are "
                   "replaced")
      ->type_name("DIR")
      ->check(output_path_validator());
  soak->footer("\n" + backend_limits_help() + "\n\n" + scene_names_help());
  return soak;
}

SoakConfig resolve_soak_config(const SoakFlags& f) {
  SoakConfig c;
  for (const auto& s : f.scenes) {
    if (s.empty()) throw std::runtime_error("--scenes: an empty path names no scene");
    const auto path = resolve_scene_argument(s);
    if (const std::string problem = scene_file_error(path); !problem.empty()) {
      throw std::runtime_error("--scenes: " + problem);
    }
    c.scenes.push_back(path);
  }
  c.counts = f.counts;
  for (const auto& a : f.algorithms) {
    const auto algorithm = algorithm_from_string(a);
    if (!algorithm) throw std::runtime_error("unknown algorithm '" + a + "'");
    c.algorithms.push_back(*algorithm);
  }
  for (const auto& m : f.key_modes) {
    if (m != "exact" && m != "quantized") throw std::runtime_error("unknown key mode '" + m + "'");
    c.key_modes.push_back(m == "quantized" ? KeyMode::quantized : KeyMode::exact);
  }
  c.renderers = renderers_named(f.renderers);
  c.frames = f.frames;
  c.every = f.every;
  c.verify_every = f.verify_every;
  c.max_growth_percent = f.max_growth;
  if (!f.size.empty()) {
    const auto wh = parse_size(f.size);
    if (!wh) throw std::runtime_error("bad --size '" + f.size + "'");
    std::tie(c.width, c.height) = *wh;
  }
  c.backend = f.backend == "cuda"  ? BackendChoice::cuda
              : f.backend == "cpu" ? BackendChoice::cpu
                                   : BackendChoice::automatic;
  c.out_dir = f.out_dir;
  return c;
}

}  // namespace particles
