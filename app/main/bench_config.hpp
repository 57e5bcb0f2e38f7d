#pragma once
// What `particles bench` runs: a matrix of scenes x counts x key modes x draw orders x algorithms
// x renderers, N frames each, from a bench file (bench/*.toml) and/or flags (flags win).
#include <cstdint>
#include <filesystem>
#include <string_view>
#include <vector>

#include "app/scene/options.hpp"
#include "core/frame_choices.hpp"

namespace particles {

struct BenchConfig {
  std::vector<std::filesystem::path> scenes;
  std::vector<std::uint32_t> counts;  // empty: each scene's own count for the backend in use
  // Every run's choices but those the lists below vary: key bits, the stale order's period,
  // stage fusion (false: CUDA stages run apart, for the per-stage breakdown) and the stage
  // timing period.
  FrameChoices choices;
  std::vector<Algorithm> algorithms;
  std::vector<KeyMode> key_modes;
  // Empty: the backend's default renderer (composite on CUDA, raster on the CPU).
  std::vector<RendererKind> renderers;
  // Empty: exact alone. Approximate orders' frames report their descents and pixels off; --verify
  // checks only the exact order's.
  std::vector<DrawOrder> orders;
  int frames = 300;  // measured frames per run
  int warmup = 30;   // frames run before measuring, not recorded
  bool verify = false;
  bool draw = true;  // false: backend stages only, to time the pipeline without the raster
  BackendChoice backend = BackendChoice::automatic;
  std::filesystem::path out_dir = "bench-out";
  std::filesystem::path file;  // the bench file read (load_bench_file); no output may replace it
  int width = 1280, height = 720;
};

// Reads a bench file; throws std::runtime_error naming file:line:column on bad content.
// A scene is a path relative to the bench file's folder (or absolute), else a scene's name
// ("galaxy": scenes/galaxy.toml, found by find_resource); every scene must be a regular file.
// A list key given as [] is an error, not the default.
void load_bench_file(const std::filesystem::path& file, BenchConfig& config);

// The same on bench-file text already in memory; `source_name` stands for the file in messages.
void parse_bench_text(std::string_view toml_text, const std::filesystem::path& source_name,
                      BenchConfig& config);

// Fills what neither the file nor the flags gave, and checks ranges; throws with the reason.
void finish_bench_config(BenchConfig& config);

}  // namespace particles
