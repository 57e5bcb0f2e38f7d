#pragma once
// `particles soak`: a long headless run that keeps switching what the frame does (scene, count,
// algorithm, key mode, renderer) every few hundred frames through the window's own switching
// path (scene_switch.hpp) and frame path (FrameRunner), checks the draw order of every Nth frame
// from the GL buffers, and samples host RSS and device memory at every switch. It fails (exit 1)
// on a mis-sorted frame, an error, or memory that grows after the warm-up cycle.
//
// The run is a sequence of segments of `every` frames. Segment s sits at position
// p = s % cycle_length() of a cycle, and p alone picks its settings (each list indexed by p
// modulo its length), so every cycle runs the same settings in the same order and visits every
// value of every list; the first cycle is the warm-up. Memory is compared between cycles, where
// the same settings make the same allocations, by each cycle's floor (its smallest sample): a
// leak raises every later sample, so it raises the floor, while the allocator's transient peaks
// (freed arenas, thread caches; several MiB on the CPU backend) do not.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "app/scene/options.hpp"
#include "core/frame_choices.hpp"
#include "core/output_file.hpp"

namespace CLI {
class App;
}

namespace particles {

struct SoakConfig {
  std::vector<std::filesystem::path> scenes;  // default: every scenes/*.toml
  std::vector<std::uint32_t> counts;          // empty: soak_default_counts(backend)
  std::vector<Algorithm> algorithms;          // default: all
  std::vector<KeyMode> key_modes;             // default: exact, quantized
  std::vector<RendererKind> renderers;        // default: raster, composite
  // Every segment's choices but those the lists above vary (segment_choices).
  FrameChoices choices;
  int frames = 20000;
  int every = 300;        // frames per segment: settings switch after each
  int verify_every = 10;  // frames 0, N, 2N, ... have their draw order checked
  double max_growth_percent = 1.0;
  BackendChoice backend = BackendChoice::automatic;
  int width = 1280, height = 720;
  std::filesystem::path out_dir = "soak-out";
  // The files the scenes were read from (finish_soak_config), which no output may replace.
  std::vector<RunInput> inputs;
};

// --max-growth's upper end, in percent.
inline constexpr double kMaxGrowthPercent = 1000.0;

// Counts a soak cycles through when none are given: 64K, 1M and 4M on CUDA; 16K and 64K on the
// CPU.
std::vector<std::uint32_t> soak_default_counts(const std::string& backend_name);

// Segments per cycle: the longest of the lists (a cycle visits every value of each).
int soak_cycle_length(const SoakConfig& config);

// What segment `segment` runs; indexes into the config's lists.
struct SoakSettings {
  std::size_t scene = 0, count = 0, algorithm = 0, key_mode = 0, renderer = 0;
};
SoakSettings soak_settings(const SoakConfig& config, int segment);
// The choices those settings run: the config's, with the algorithm, key mode and renderer
// they pick.
FrameChoices segment_choices(const SoakConfig& config, const SoakSettings& settings);

// Fills the defaults (every shipped scene, soak_default_counts(backend_name), every algorithm,
// key mode and renderer) and checks what the flags cannot: the scenes load (their files become
// `inputs`), the counts are within the backend's limit (core/backend_limits.hpp), max_growth is
// finite, and at least three full cycles fit in `frames` (the warm-up, one to compare with, and
// the last). Throws std::runtime_error with the reason.
void finish_soak_config(SoakConfig& config, const std::string& backend_name);

// One memory sample, taken after a segment's last frame, before the next switch.
struct SoakSample {
  int segment = 0;
  std::int64_t frame = 0;  // frames run so far
  std::string scene, algorithm, key_mode, renderer;
  std::uint32_t count = 0;
  std::optional<std::uint64_t> rss_bytes, device_bytes;
};

// A memory figure after the warm-up against the end of the run.
struct SoakGrowth {
  std::optional<std::uint64_t> after_warmup;  // the floor of the cycle after the warm-up
  std::optional<std::uint64_t> at_end;        // the floor of the last full cycle
  std::optional<std::uint64_t> peak;          // the largest sample after the warm-up
  std::optional<double> percent;              // at_end / after_warmup - 1, in percent
};

// Compares the cycle after the warm-up (samples cycle_length .. 2 cycle_length - 1) with the
// last full one; nothing when fewer than three full cycles were sampled or a sample lacks the
// figure. `device` picks device_bytes, else rss_bytes.
SoakGrowth soak_growth(const std::vector<SoakSample>& samples, int cycle_length, bool device);

struct SoakFlags {
  std::vector<std::string> scenes, algorithms, key_modes, renderers;
  std::vector<std::uint32_t> counts;
  int frames = 20000, every = 300, verify_every = 10;
  double max_growth = 1.0;
  std::string size;
  std::string backend = "auto";
  std::string out_dir = "soak-out";
};

// Adds the subcommand to `cli`; `flags` must outlive it.
CLI::App* add_soak_command(CLI::App& cli, SoakFlags& flags);

// The flags as a SoakConfig (finish_soak_config runs once the backend is known); throws
// std::runtime_error with the reason.
SoakConfig resolve_soak_config(const SoakFlags& flags);

// Runs the soak; prints the table, writes samples.csv and summary.json to config.out_dir, and
// returns 0 when every check passed, else 1.
int run_soak(SoakConfig config, const std::string& command);

}  // namespace particles
