// composite_bench: the tile compositor alone (GL-free), on frames of the shipped scenes made by
// the CUDA pipeline: GPU time of a whole composite (CUDA events, median of many), the host's wall
// time for it (it waits for the scan's total once), the entries it binned, and the bytes-moved
// floor (every particle's vertex and draw index read once, the image written once, at the 4.2
// TB/s copy bandwidth measured on the H200). One row per scene, image size and binning sort.
// "from a graph": the same composite captured once in a CUDA graph and replayed, so that the
// host's launches (some twenty) do not pace the GPU: what it costs inside a frame's graph.
// Usage: composite_bench [--reps R] [scene.toml ...] (scene files given: each at 1280x720 instead
// of the issue's four cases)
#include <chrono>
#include <cstdio>
#include <glm/gtc/type_ptr.hpp>
#include <string>
#include <vector>

#include "app/scene/paths.hpp"
#include "app/scene/scene_loader.hpp"
#include "bench/scene_bench_args.hpp"
#include "core/camera.hpp"
#include "core/scene_models.hpp"
#include "cuda/common/cuda_handles.hpp"
#include "cuda/common/graph_capture.hpp"
#include "cuda/composite/tile_compositor.hpp"
#include "cuda/pipeline/device_pipeline.hpp"

using namespace particles;
using Clock = std::chrono::steady_clock;

namespace {

constexpr double kCopyBytesPerSecond = 4.2e12;

struct Case {
  const char* scene;
  int width, height;
};

// `enqueue`'s work captured once into a CUDA graph, then replayed `reps` times after 10 warm-up
// replays: the median GPU milliseconds of a replay (CUDA events).
template <class Enqueue>
double median_graph_ms(cudaStream_t stream, int reps, Enqueue&& enqueue) {
  // Relaxed: the compositor polls its earlier reports' events while it records.
  const cuda::GraphExec exec = cuda::capture_graph(stream, enqueue, cudaStreamCaptureModeRelaxed);
  cuda::Event start = cuda::Event::create(true), stop = cuda::Event::create(true);
  std::vector<double> ms;
  for (int r = 0; r < reps + 10; ++r) {
    CUDA_CHECK(cudaEventRecord(start.get(), stream));
    CUDA_CHECK(cudaGraphLaunch(exec.get(), stream));
    CUDA_CHECK(cudaEventRecord(stop.get(), stream));
    CUDA_CHECK(cudaEventSynchronize(stop.get()));
    float elapsed = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&elapsed, start.get(), stop.get()));
    if (r >= 10) ms.push_back(elapsed);
  }
  return bench::median(ms);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const bench::CompositeBenchArgs args = bench::parse_composite_bench_args(argc, argv);
    const int reps = args.reps;
    // The issue's sizes by default; scene files given: each at 1280x720.
    std::vector<Case> cases = {{"scenes/galaxy.toml", 1280, 720},
                               {"scenes/fountain.toml", 1280, 720},
                               {"scenes/galaxy.toml", 3840, 2160},
                               {"scenes/galaxy_dense.toml", 1280, 720}};
    if (!args.scene_files.empty()) {
      cases.clear();
      for (const std::string& f : args.scene_files) cases.push_back({f.c_str(), 1280, 720});
    }
    std::printf("# composite_bench: median of %d composites per row, after 10 warm-up\n\n", reps);
    std::printf(
        "| scene | particles | image | binning | entries | longest tile list | composite (GPU) | "
        "from a graph | host wall | floor | x floor |\n"
        "|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const Case& c : cases) {
      const SceneDesc scene = load_scene(find_resource(c.scene));
      cuda::DevicePipeline pipeline;
      pipeline.reset(scene.params, scene.count);
      cuda::DeviceBuffer<ParticleVertex> vertices(scene.count);
      cuda::DeviceBuffer<std::uint32_t> order(scene.count);
      const bool scaled = model_scales_sprites(scene.params.model);
      cuda::DeviceBuffer<float> sprite_scales(scaled ? scene.count : 0);
      cuda::DeviceBuffer<PixelF> image(std::size_t(c.width) * c.height);
      // Sixty frames of the scene as the bench runs it, framed on its extents where it asks.
      CameraPose pose = scene.camera;
      CameraMatrices camera;
      float time = 0.0f;
      for (int f = 0; f < 60; ++f) {
        if (!scene.camera_path.empty())
          pose = camera_on_path(scene.camera, scene.camera_path, time);
        camera = camera_matrices(pose, float(c.width) / float(c.height), 0.05f, 2000.0f);
        FrameSettings settings;
        settings.dt = scene.time_step;
        settings.view = depth_frame(camera);
        settings.algorithm = Algorithm::automatic;
        const FrameInfo info = pipeline.run_frame(
            settings,
            {vertices.data(), order.data(), nullptr, scaled ? sprite_scales.data() : nullptr});
        if (f == 1 && scene.camera_auto_frame && !info.extents.empty()) {
          pose = frame_extents(pose, info.extents);
        }
        time += scene.time_step;
      }
      pipeline.synchronize();
      SpriteCamera sprite;
      std::memcpy(sprite.view, glm::value_ptr(camera.view), sizeof sprite.view);
      std::memcpy(sprite.projection, glm::value_ptr(camera.projection), sizeof sprite.projection);
      sprite.width = c.width;
      sprite.height = c.height;
      sprite.sprite_size = scene.sprite_size;
      sprite.point_size_min = 1.0f;
      sprite.point_size_max = 2047.0f;  // NVIDIA's GL_POINT_SIZE_RANGE on the H200
      const PixelF background = premultiplied(scene.background.r, scene.background.g,
                                              scene.background.b, scene.background.a);
      // Each particle's vertex and draw index read once, the float image written once.
      const double floor_ms = (double(scene.count) * (sizeof(ParticleVertex) + 4) +
                               double(c.width) * c.height * sizeof(PixelF)) /
                              kCopyBytesPerSecond * 1e3;
      for (const Algorithm binning : {Algorithm::cub, Algorithm::radix}) {
        cuda::TileCompositor compositor(cuda::kDefaultMaxEntriesPerPass, binning);
        cuda::Stream stream = cuda::Stream::create();
        cuda::Event start = cuda::Event::create(true), stop = cuda::Event::create(true);
        std::vector<double> gpu, host;
        for (int r = 0; r < reps + 10; ++r) {
          const auto t0 = Clock::now();
          CUDA_CHECK(cudaEventRecord(start.get(), stream.get()));
          compositor.composite(stream.get(), vertices.data(),
                               scaled ? sprite_scales.data() : nullptr, order.data(), scene.count,
                               sprite, background, cuda::CompositeOutput{0, image.data()});
          CUDA_CHECK(cudaEventRecord(stop.get(), stream.get()));
          CUDA_CHECK(cudaEventSynchronize(stop.get()));
          const double wall = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
          float ms = 0.0f;
          CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
          if (r >= 10) {
            gpu.push_back(ms);
            host.push_back(wall);
          }
        }
        const double g = bench::median(gpu);
        const double replayed = median_graph_ms(stream.get(), reps, [&] {
          compositor.composite(stream.get(), vertices.data(),
                               scaled ? sprite_scales.data() : nullptr, order.data(), scene.count,
                               sprite, background, cuda::CompositeOutput{0, image.data()});
        });
        std::printf(
            "| %s | %u | %dx%d | %s | %llu | %u | %.3f ms | %.3f ms | %.3f ms | %.3f ms | %.1f |\n",
            scene.name.c_str(), scene.count, c.width, c.height,
            std::string(to_string(binning)).c_str(),
            static_cast<unsigned long long>(compositor.last_entries(stream.get())),
            compositor.longest_tile_list(stream.get()), g, replayed, bench::median(host), floor_ms,
            g / floor_ms);
      }
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "composite_bench: %s\n", e.what());
    return 1;
  }
}
