// switch_bench: what switching the sort algorithm (or key mode) at run time costs the frame in
// which it happens. Drives DevicePipeline directly (no GL: the draw does not change with the
// algorithm) on a scene file, timing each frame's host wall time from run_frame to the end of
// its GPU work, so a graph capture + instantiate on the switch frame shows in full.
//
// Two cycles over the same list of settings: the first visits every graph shape for the first
// time (capture + instantiate), the second comes back to shapes already built (cached graphs).
// Usage: switch_bench [scene.toml] [--count N] [--frames-per-setting F]   (malformed: exit 1)
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "app/scene/scene_loader.hpp"
#include "bench/scene_bench_args.hpp"
#include "cuda/common/check.hpp"
#include "cuda/common/device_buffer.hpp"
#include "cuda/pipeline/device_pipeline.hpp"

using namespace particles;
using Clock = std::chrono::steady_clock;

namespace {

struct Setting {
  Algorithm algorithm;
  KeyMode mode;
  std::string name() const {
    return std::string(to_string(algorithm)) + (mode == KeyMode::exact ? " exact" : " q16");
  }
};

}  // namespace

int main(int argc, char** argv) {
  try {
    const bench::SceneBenchArgs args =
        bench::parse_scene_bench_args(argc, argv, "--frames-per-setting", 30, 2);
    const std::string& scene_file = args.scene_file;
    const int per_setting = args.frames;
    const SceneDesc scene = load_scene(scene_file);
    const std::uint32_t count = args.count != 0 ? args.count : scene.count;
    cuda::DevicePipeline pipeline;
    const auto reset_start = Clock::now();
    pipeline.reset(scene.params, count);
    const double reset_ms =
        std::chrono::duration<double, std::milli>(Clock::now() - reset_start).count();
    cuda::DeviceBuffer<ParticleVertex> vertices(count);
    cuda::DeviceBuffer<std::uint32_t> order(count);

    const std::vector<Setting> settings = {
        {Algorithm::radix, KeyMode::exact},     {Algorithm::cub, KeyMode::exact},
        {Algorithm::oddeven, KeyMode::exact},   {Algorithm::quicksort, KeyMode::exact},
        {Algorithm::automatic, KeyMode::exact}, {Algorithm::radix, KeyMode::quantized},
    };
    float sim_time = 0.0f;
    auto frame = [&](const Setting& s) {
      const FrameSettings f = bench::scene_frame_settings(scene, sim_time, s.algorithm, s.mode);
      const auto start = Clock::now();
      pipeline.run_frame(f, {vertices.data(), order.data()});
      pipeline.synchronize();
      sim_time += scene.time_step;
      return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    };

    for (int i = 0; i < per_setting; ++i) frame(settings[0]);  // warm-up on the first setting
    std::printf(
        "# switch_bench: %s, %u particles, %d frames per setting; reset (makes every "
        "sorter) %.1f ms\n\n",
        scene_file.c_str(), count, per_setting, reset_ms);
    std::printf(
        "| switch to | first visit: switch frame ms | revisit: switch frame ms | "
        "steady median ms |\n|---|---|---|---|\n");
    std::vector<std::vector<double>> switch_ms(settings.size()), steady(settings.size());
    for (int cycle = 0; cycle < 2; ++cycle) {
      for (std::size_t k = 0; k < settings.size(); ++k) {
        const std::size_t s = (k + 1) % settings.size();  // start by leaving the warm-up setting
        switch_ms[s].push_back(frame(settings[s]));
        for (int i = 1; i < per_setting; ++i) steady[s].push_back(frame(settings[s]));
      }
    }
    for (std::size_t s = 0; s < settings.size(); ++s) {
      std::printf("| %s | %.3f | %.3f | %.3f |\n", settings[s].name().c_str(), switch_ms[s][0],
                  switch_ms[s][1], bench::median(steady[s]));
    }
    std::printf("\ngraphs built in all: %llu\n",
                static_cast<unsigned long long>(pipeline.graphs_built()));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "switch_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
