#pragma once
// The `particles bench` subcommand: its flags, and how they combine with a bench file.
#include <optional>
#include <string>
#include <vector>

#include "app/main/bench_config.hpp"

namespace CLI {
class App;
}

namespace particles {

struct BenchFlags {
  std::string file;  // bench/*.toml; flags below override what it says
  std::vector<std::string> scenes, algorithms, key_modes, renderers, orders;
  std::vector<std::uint32_t> counts;
  std::optional<int> key_bits, frames, warmup, stage_every, order_period;
  std::string size;  // WxH; empty: the file's, else 1280x720
  bool verify = false;
  bool no_draw = false;
  bool no_fuse = false;
  std::string backend = "auto";
  std::string out_dir = "bench-out";
};

// Adds the subcommand to `cli`; `flags` must outlive it.
CLI::App* add_bench_command(CLI::App& cli, BenchFlags& flags);

// The file first, then the flags; throws std::runtime_error with the reason.
BenchConfig resolve_bench_config(const BenchFlags& flags);

}  // namespace particles
