// The CPU backend's sort against the standard library's, on real frame keys: each scene run by
// the CPU pipeline for 30 frames of its camera path, then the next frame's keys sorted by every
// candidate. Prints a table; every output is checked against std::stable_sort's order.
//   cpu_sort_bench [--reps R] [--counts N,...] [scene.toml ...]
// PARTICLES_THREADS sets the "all cores" thread count.
#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>
#ifdef PARTICLES_HAVE_TBB
#include <execution>
#endif

#include "app/scene/paths.hpp"
#include "app/scene/scene_loader.hpp"
#include "bench/option_value.hpp"
#include "bench/scene_bench_args.hpp"
#include "core/cpu_frame_sort.hpp"
#include "core/cpu_pipeline.hpp"
#include "core/parallel_for.hpp"

namespace particles::bench {
namespace {

constexpr int kWarmFrames = 30;

struct FrameKeys {
  std::vector<std::uint32_t> keys;        // by particle
  std::vector<std::uint32_t> last_order;  // the frame before's draw order
  int bits = 0;                           // bits in which the keys differ
};

FrameKeys frame_keys(const SceneDesc& scene, std::uint32_t count, KeyMode mode) {
  CpuPipeline pipeline;
  pipeline.reset(scene.params, count);
  float t = 0.0f;
  FrameKeys f;
  for (int frame = 0; frame <= kWarmFrames; ++frame, t += scene.time_step) {
    if (frame == kWarmFrames) f.last_order.assign(pipeline.order().begin(), pipeline.order().end());
    pipeline.run_frame(scene_frame_settings(scene, t, Algorithm::automatic, mode));
  }
  f.keys.assign(pipeline.keys().begin(), pipeline.keys().end());
  const auto [lo, hi] = std::minmax_element(f.keys.begin(), f.keys.end());
  f.bits = static_cast<int>(std::bit_width(*hi - *lo));
  return f;
}

std::vector<std::uint32_t> stable_order(const std::vector<std::uint32_t>& keys,
                                        std::vector<std::uint32_t> order) {
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
  return order;
}

// One candidate: sorts `order` in place by keys, stably.
struct Candidate {
  std::string name;
  unsigned threads;
  bool from_last_order;  // starts from last frame's order rather than index order
  std::function<void(const std::vector<std::uint32_t>&, std::vector<std::uint32_t>&)> sort;
};

std::vector<Candidate> candidates(unsigned all) {
  std::vector<Candidate> c;
  // std::sort is not stable: it sorts (key, position) words, which are all distinct.
  c.push_back({"std::sort (key, position) words", 1, false, [](const auto& keys, auto& order) {
                 std::vector<std::uint64_t> words(order.size());
                 for (std::size_t i = 0; i < order.size(); ++i) {
                   words[i] = std::uint64_t{keys[order[i]]} << 32 | i;
                 }
                 std::sort(words.begin(), words.end());
                 std::vector<std::uint32_t> in = order;
                 for (std::size_t i = 0; i < order.size(); ++i) {
                   order[i] = in[static_cast<std::uint32_t>(words[i])];
                 }
               }});
  c.push_back({"std::stable_sort", 1, false, [](const auto& keys, auto& order) {
                 std::stable_sort(
                     order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
               }});
#ifdef PARTICLES_HAVE_TBB
  c.push_back({"std::stable_sort(par) (oneTBB)", all, false, [](const auto& keys, auto& order) {
                 std::stable_sort(
                     std::execution::par, order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
               }});
#endif
  auto scratch = std::make_shared<SortScratch>();
  const std::vector<unsigned> thread_counts =
      all == 1 ? std::vector<unsigned>{1} : std::vector<unsigned>{1, all};
  for (unsigned threads : thread_counts) {
    for (int digit : {8, 11, 12}) {
      c.push_back({"radix, digits <= " + std::to_string(digit) + " bits", threads, false,
                   [=](const auto& keys, auto& order) {
                     cpu_sort_order(keys, order, *scratch, threads, digit);
                   }});
    }
  }
  c.push_back({"frame-to-frame (auto)", all, true, [=](const auto& keys, auto& order) {
                 cpu_sort_from_last_order(keys, order, *scratch, all);
               }});
  return c;
}

const char* path_name(FrameSortPath p) {
  switch (p) {
    case FrameSortPath::already_sorted:
      return "already sorted";
    case FrameSortPath::insertion:
      return "insertion";
    case FrameSortPath::radix:
      return "radix";
  }
  return "?";
}

int run(int argc, char** argv) {
  int reps = 11;
  std::vector<std::uint32_t> counts = {131072, 1048576};
  std::vector<std::string> scenes;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--reps") {
      reps = static_cast<int>(whole_number_option(argc, argv, i, 1, 1000));
    } else if (arg == "--counts") {
      if (i + 1 >= argc) throw std::invalid_argument("--counts needs a value");
      counts.clear();
      std::string list = argv[++i];
      for (std::size_t at = 0; at <= list.size();) {
        const std::size_t comma = std::min(list.find(',', at), list.size());
        counts.push_back(static_cast<std::uint32_t>(std::stoul(list.substr(at, comma - at))));
        at = comma + 1;
      }
    } else if (arg.starts_with("-")) {
      throw std::invalid_argument("unknown option " + std::string(arg));
    } else {
      scenes.emplace_back(arg);
    }
  }
  if (scenes.empty()) scenes = {"scenes/galaxy.toml", "scenes/fountain.toml"};
  const unsigned all = parallel_threads();
  std::printf("# cpu_sort_bench: median of %d sorts per row, %u threads for \"all\"\n\n", reps,
              all);
  std::printf(
      "| scene | keys | N | key bits | sort | threads | ms | M pairs/s | x std::sort | "
      "equal |\n|---|---|---:|---:|---|---:|---:|---:|---:|---|\n");
  for (const std::string& file : scenes) {
    const SceneDesc scene = load_scene(find_resource(file));
    for (std::uint32_t n : counts) {
      for (KeyMode mode : {KeyMode::exact, KeyMode::quantized}) {
        const FrameKeys f = frame_keys(scene, n, mode);
        std::vector<std::uint32_t> iota(n);
        std::iota(iota.begin(), iota.end(), 0u);
        const std::vector<std::uint32_t> want = stable_order(f.keys, iota);
        const std::vector<std::uint32_t> want_from_last = stable_order(f.keys, f.last_order);
        double std_sort_ms = 0.0;
        for (const Candidate& c : candidates(all)) {
          std::vector<double> ms;
          std::vector<std::uint32_t> order;
          std::string path;
          for (int r = 0; r < reps; ++r) {
            order = c.from_last_order ? f.last_order : iota;
            const auto start = std::chrono::steady_clock::now();
            c.sort(f.keys, order);
            ms.push_back(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count());
          }
          if (c.from_last_order) {
            SortScratch s;
            std::vector<std::uint32_t> probe = f.last_order;
            path = std::string(" (") +
                   path_name(cpu_sort_from_last_order(f.keys, probe, s, all).path) + ")";
          }
          const double m = median(ms);
          if (std_sort_ms == 0.0) std_sort_ms = m;
          const bool equal = order == (c.from_last_order ? want_from_last : want);
          std::printf("| %s | %s | %u | %d | %s%s | %u | %.2f | %.1f | %.2fx | %s |\n",
                      scene.name.c_str(), mode == KeyMode::exact ? "exact" : "quantized 16", n,
                      f.bits, c.name.c_str(), path.c_str(), c.threads, m, n / m / 1000.0,
                      std_sort_ms / m, equal ? "yes" : "NO");
          std::fflush(stdout);
        }
      }
    }
  }
  return 0;
}

}  // namespace
}  // namespace particles::bench

int main(int argc, char** argv) {
  try {
    return particles::bench::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cpu_sort_bench: %s\n", e.what());
    return 1;
  }
}
