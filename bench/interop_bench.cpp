// interop_bench: where the host time of a CUDA backend frame goes (GL buffer map, the frame's
// enqueue and wait for the previous frame, unmap), per algorithm, on a headless GL context: no
// draw, only CUDA-GL interop around DevicePipeline, as the app runs it; then the same frames into
// plain device buffers, to tell interop's cost apart. (This is how auto's conditional graph node
// was found to cost about 2 ms of host time per frame under interop on the H200; auto now enables
// its sorts with device words instead: docs/notes/auto.md, "Auto's CPU frame time".) Last,
// composite frames at 1280x720, each followed by the GL blit a present makes, with and without
// waiting for GL to finish; and what alternating the two APIs costs apart from their work.
//
// Usage: interop_bench [scene.toml] [--count N] [--frames F]   (malformed arguments: exit 1)
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include <glm/gtc/type_ptr.hpp>

#include "app/gl/gl_context.hpp"
#include "app/gl/particle_buffers.hpp"
#include "app/gl/render_target.hpp"
#include "app/scene/scene_loader.hpp"
#include "bench/scene_bench_args.hpp"
#include "cuda/common/check.hpp"
#include "cuda/common/device_buffer.hpp"
#include "cuda/pipeline/cuda_pipeline.hpp"

using namespace particles;

using bench::median;

int main(int argc, char** argv) {
  try {
    const bench::SceneBenchArgs args =
        bench::parse_scene_bench_args(argc, argv, "--frames", 300, 10);
    const std::string& scene_file = args.scene_file;
    const int frames = args.frames;
    const SceneDesc scene = load_scene(scene_file);
    const std::uint32_t count = args.count != 0 ? args.count : scene.count;
    const auto context = gl::make_headless_context(64, 64);
    gl::ParticleBuffers buffers(count);
    cuda::CudaPipeline pipeline;
    pipeline.reset(scene.params, count, buffers.vertex_buffer(), buffers.index_buffer());
    std::printf("# interop_bench: %s, %u particles, %d frames per row, median host ms\n\n",
                scene_file.c_str(), count, frames);
    std::printf(
        "| algorithm | frame | map | enqueue + wait | unmap |\n"
        "|---|---|---|---|---|\n");
    float t = 0.0f;
    auto settings = [&](Algorithm a) {
      const FrameSettings s = bench::scene_frame_settings(scene, t, a);
      t += scene.time_step;
      return s;
    };
    for (Algorithm a : {Algorithm::radix, Algorithm::automatic, Algorithm::cub}) {
      std::vector<double> total, map, run, unmap;
      for (int f = 0; f < frames + 20; ++f) {
        pipeline.run_frame(settings(a));
        if (f < 20) continue;  // warm-up (graph build)
        const auto& h = pipeline.last_host_times();
        map.push_back(h.map_ms);
        run.push_back(h.run_ms);
        unmap.push_back(h.unmap_ms);
        total.push_back(h.map_ms + h.run_ms + h.unmap_ms);
      }
      std::printf("| %s | %.3f | %.3f | %.3f | %.3f |\n", std::string(to_string(a)).c_str(),
                  median(total), median(map), median(run), median(unmap));
    }
    // The same frames into plain device buffers (no map/unmap), the GL context still current:
    // tells interop apart from the mere presence of a GL context.
    cuda::DevicePipeline plain;
    plain.reset(scene.params, count);
    cuda::DeviceBuffer<ParticleVertex> vertices(count);
    cuda::DeviceBuffer<std::uint32_t> order(count);
    std::printf("\n| algorithm | no interop, GL context current: frame ms |\n|---|---|\n");
    for (Algorithm a : {Algorithm::radix, Algorithm::automatic}) {
      std::vector<double> total;
      for (int f = 0; f < frames + 20; ++f) {
        const auto start = std::chrono::steady_clock::now();
        plain.run_frame(settings(a), {vertices.data(), order.data()});
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();
        if (f >= 20) total.push_back(ms);
      }
      std::printf("| %s | %.3f |\n", std::string(to_string(a)).c_str(), median(total));
    }
    // Composite frames: the image texture mapped, the particles in device memory.
    const glm::ivec2 size{1280, 720};
    gl::RenderTarget image(size);
    gl::RenderTarget screen(size, gl::TargetFormat::window_rgba8);
    std::printf(
        "\n| algorithm | GL finished each frame | composite frame + present | map | enqueue + wait "
        "| composite enqueue | unmap |\n|---|---|---|---|---|---|---|\n");
    struct Row {
      bool finish;
      Algorithm algorithm;
    };
    for (const auto [finish, a] :
         {Row{true, Algorithm::radix}, Row{true, Algorithm::automatic},
          Row{false, Algorithm::radix}, Row{false, Algorithm::automatic}}) {
      std::vector<double> total, map, run, composite, unmap;
      for (int f = 0; f < frames + 20; ++f) {
        const FrameSettings s = settings(a);
        cuda::CompositeJob job;
        const CameraMatrices camera =
            camera_matrices(scene.camera, float(size.x) / float(size.y), 0.05f, 2000.0f);
        for (int i = 0; i < 16; ++i) {
          job.camera.view[i] = glm::value_ptr(camera.view)[i];
          job.camera.projection[i] = glm::value_ptr(camera.projection)[i];
        }
        job.camera.width = size.x;
        job.camera.height = size.y;
        job.camera.sprite_size = scene.sprite_size;
        job.camera.point_size_max = 64.0f;
        job.background = premultiplied(0.0f, 0.0f, 0.0f, 1.0f);
        job.texture = image.color_texture();
        job.texture_generation = image.generation();
        const auto start = std::chrono::steady_clock::now();
        pipeline.run_frame(s, &job);
        image.blit_to(screen.framebuffer(), size);
        if (finish) glFinish();
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();
        if (f < 20) continue;
        const auto& h = pipeline.last_host_times();
        total.push_back(ms);
        map.push_back(h.map_ms);
        run.push_back(h.run_ms);
        composite.push_back(h.composite_ms);
        unmap.push_back(h.unmap_ms);
      }
      std::printf("| %s | %s | %.3f | %.3f | %.3f | %.3f | %.3f |\n",
                  std::string(to_string(a)).c_str(), finish ? "yes" : "no", median(total),
                  median(map), median(run), median(composite), median(unmap));
    }
    // What alternating between the two APIs costs, apart from their work: a tiny CUDA step (a
    // 4-byte memset, waited for), a tiny GL step (a clear of one pixel, glFinish), each alone and
    // the two in turn, and the present's blit alone and after a CUDA step.
    cuda::DeviceBuffer<std::uint32_t> word(1);
    const cudaStream_t stream = plain.stream();
    const auto cuda_step = [&] {
      CUDA_CHECK(cudaMemsetAsync(word.data(), 0, sizeof(std::uint32_t), stream));
      CUDA_CHECK(cudaStreamSynchronize(stream));
    };
    const auto gl_step = [&] {
      glBindFramebuffer(GL_DRAW_FRAMEBUFFER, screen.framebuffer());
      glEnable(GL_SCISSOR_TEST);
      glScissor(0, 0, 1, 1);
      const float black[4] = {0.0f, 0.0f, 0.0f, 1.0f};
      glClearNamedFramebufferfv(screen.framebuffer(), GL_COLOR, 0, black);
      glDisable(GL_SCISSOR_TEST);
      glFinish();
    };
    const auto blit_step = [&] {
      image.blit_to(screen.framebuffer(), size);
      glFinish();
    };
    const auto time_loop = [&](auto&& body) {
      std::vector<double> times;
      for (int f = 0; f < frames + 20; ++f) {
        const auto start = std::chrono::steady_clock::now();
        body();
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();
        if (f >= 20) times.push_back(ms);
      }
      return median(times);
    };
    std::printf("\n| API alternation (host ms, median) | ms |\n|---|---|\n");
    std::printf("| CUDA step alone | %.3f |\n", time_loop(cuda_step));
    std::printf("| GL step alone | %.3f |\n", time_loop(gl_step));
    std::printf("| CUDA step, then GL step | %.3f |\n", time_loop([&] {
                  cuda_step();
                  gl_step();
                }));
    std::printf("| present blit alone | %.3f |\n", time_loop(blit_step));
    std::printf("| CUDA step, then present blit | %.3f |\n", time_loop([&] {
                  cuda_step();
                  blit_step();
                }));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "interop_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
