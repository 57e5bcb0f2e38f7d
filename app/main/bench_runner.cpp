#include "app/main/bench_runner.hpp"

#include <glad/gl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <memory>
#include <optional>

#include "app/gl/gl_context.hpp"
#include "app/gl/gpu_timer.hpp"
#include "app/gl/particle_buffers.hpp"
#include "app/gl/particle_renderer.hpp"
#include "app/gl/render_target.hpp"
#include "app/main/backend.hpp"
#include "app/main/bench_results.hpp"
#include "app/main/frame_runner.hpp"
#include "app/main/lit_check.hpp"
#include "app/main/order_check.hpp"
#include "app/scene/scene_loader.hpp"
#include "core/backend_limits.hpp"
#include "core/camera.hpp"
#include "core/output_file.hpp"

namespace particles {
namespace {

using Clock = std::chrono::steady_clock;

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return text;
}

// A one-line progress bar on stderr, only when it is a terminal.
class Progress {
 public:
  explicit Progress(std::size_t total) : total_(total), enabled_(isatty(STDERR_FILENO) != 0) {}
  void update(std::size_t done, const std::string& label) const {
    if (!enabled_) return;
    const int width = 30;
    const int filled = static_cast<int>(width * done / std::max<std::size_t>(total_, 1));
    std::fprintf(stderr, "\r[%.*s%*s] %zu/%zu %-50.50s", filled, "##############################",
                 width - filled, "", done, total_, label.c_str());
    std::fflush(stderr);
  }
  void finish() const {
    if (enabled_) std::fprintf(stderr, "\n");
  }

 private:
  std::size_t total_;
  bool enabled_;
};

// One run of the matrix: the config's choices with the algorithm, key mode, renderer and order
// its lists give this run.
struct RunSpec {
  SceneDesc scene;
  std::uint32_t count;
  FrameChoices choices;
};

class BenchSession {
 public:
  BenchSession(const BenchConfig& config) : config_(config) {
    context_ = gl::make_headless_context(config.width, config.height);
    backend_ = make_backend(config.backend);
    buffers_ = std::make_unique<gl::ParticleBuffers>();
    target_ = std::make_unique<gl::RenderTarget>(glm::ivec2{config.width, config.height});
    // Headless, the window's framebuffer is this stand-in: the present is the same blit.
    screen_ = std::make_unique<gl::RenderTarget>(glm::ivec2{config.width, config.height},
                                                 gl::TargetFormat::window_rgba8);
    renderer_ = std::make_unique<gl::ParticleRenderer>();
  }

  std::string renderer() const { return context_->renderer_description(); }
  std::string backend_name() const { return backend_->name(); }

  BenchRun run(const RunSpec& spec) {
    const FrameChoices& choices = spec.choices;
    BenchRun run;
    run.scene = spec.scene.name;
    run.backend = backend_->name();
    run.fused_stages = choices.fuse_stages;
    run.stage_every = choices.stage_sample_period;
    run.algorithm = std::string(to_string(choices.algorithm));
    run.key_mode = choices.key_mode == KeyMode::exact ? "exact" : "quantized";
    run.renderer = std::string(to_string(choices.renderer));
    run.order = std::string(to_string(choices.order));
    run.order_period = choices.order_period;
    run.count = spec.count;
    // Every run starts from the same initial state, so runs of one scene see the same frames.
    backend_->reset(spec.scene.params, spec.count, *buffers_);
    const int total = config_.warmup + config_.frames;
    run.frames.resize(static_cast<std::size_t>(config_.frames));
    gl::GpuTimer draw_timer;
    gl::GpuTimer present_timer;
    std::int64_t first_stage_frame = -1;
    auto record_stages = [&](const StageTimes& t, std::int64_t run_frame) {
      if (t.frame < 0) return;
      // Stage timings name the backend frame they measured; map it to this run's frame.
      const std::int64_t index = run_frame - config_.warmup;
      if (index >= 0 && index < config_.frames) {
        if (t.has_stages) {
          for (int s = 0; s < kStageCount; ++s) {
            run.frames[index].stage_ms[s] = t.ms[s];
            if (t.in_simulate[s]) run.in_simulate[static_cast<std::size_t>(s)] = true;
          }
        }
        run.frames[index].span_ms = t.span_ms;
      }
    };
    for (BenchFrame& f : run.frames) f.stage_ms.fill(-1.0f);

    FrameRequest request;
    request.choices = choices;
    request.draw = config_.draw;
    // Approximate orders only: the exact order's frames stay as the other benches time them.
    request.measure_order_error = choices.order != DrawOrder::exact;
    // And as a viewer sees it: this frame's, waited for after the frame's time is taken.
    request.measure_pixels_off = request.measure_order_error;
    request.wait_for_pixels_off = true;
    // Only the exact order is sorted as check_draw_order expects.
    const bool verify = config_.verify && choices.order == DrawOrder::exact;
    // Every order's image must show the particles that should light it (lit_check.hpp), and it
    // must be this frame's image when it is read (the CUDA compositor does not wait otherwise).
    const bool verify_lit = config_.verify && config_.draw;
    request.read_back = verify_lit;
    FrameRunner frame_runner(*backend_, *renderer_, *buffers_, *target_, draw_timer);
    double sim_time = 0.0;
    // camera.auto_frame: as in the app, the scene's pose is framed on the first frame's extents
    // once, and a camera path then moves from that framed pose.
    CameraPose base_pose = spec.scene.camera;
    bool frame_pending = spec.scene.camera_auto_frame;
    for (int frame = 0; frame < total; ++frame) {
      const auto start = Clock::now();
      CameraPose pose = base_pose;
      if (!spec.scene.camera_path.empty()) {
        pose = camera_on_path(pose, spec.scene.camera_path, static_cast<float>(sim_time));
      }
      const FrameOutcome outcome =
          frame_runner.run(spec.scene, pose, {config_.width, config_.height}, request);
      const FrameInfo& info = outcome.info;
      const FrameSettings& settings = outcome.settings;
      sim_time += spec.scene.time_step;
      if (frame_pending && !info.extents.empty()) {
        base_pose = frame_extents(base_pose, info.extents);
        frame_pending = false;
      }
      if (first_stage_frame < 0 && info.stages.frame >= 0) first_stage_frame = info.stages.frame;
      record_stages(info.stages, info.stages.frame - first_stage_frame);

      if (info.composite_frame >= 0) {
        // Composite timings name the backend frame, counted from the run's reset.
        const std::int64_t index = info.composite_frame - config_.warmup;
        if (index >= 0 && index < config_.frames)
          run.frames[index].composite_ms = info.composite_ms;
      }
      if (config_.draw) {
        present_timer.begin();
        target_->blit_to(screen_->framebuffer(), screen_->size());
        present_timer.end();
      }

      const std::int64_t index = frame - config_.warmup;
      if (index >= 0) {
        BenchFrame& f = run.frames[index];
        f.path = info.path;
        f.order_error = info.order_error;
        if (verify || verify_lit) {
          const auto vertices = buffers_->read_vertices();
          std::string problem;
          if (verify) {
            const OrderCheck check =
                check_draw_order(vertices, buffers_->read_order(), settings.view, choices.key_mode,
                                 choices.key_bits);
            if (!check.ok) problem = check.problem;
          }
          if (verify_lit && problem.empty()) {
            const LitCheck lit = check_drawn_frame_lit(spec.scene, outcome.camera, *renderer_,
                                                       *target_, *buffers_, vertices);
            if (!lit.ok) problem = lit.problem;
          }
          f.verified = verify && problem.empty();  // "verified": the exact order's frames
          if (!problem.empty() && run.verify_failures++ == 0) {
            run.first_failure = "frame " + std::to_string(index) + ": " + problem;
          }
        }
        f.frame_ms = std::chrono::duration<float, std::milli>(Clock::now() - start).count();
        // After the frame's time is taken: the measure composites both orders' images where
        // the frame did not (the CPU backend here; the CUDA backend enqueued them after the
        // frame's own work, and waits here for their count). Exact keys
        // sorted exactly are the exact order's image: 0, unmeasured, as their descents.
        if (request.measure_order_error) {
          if (const std::optional<PixelsOff> off = frame_runner.pixels_off()) {
            f.pixels_off = static_cast<float>(off->percent());
          }
        } else if (order_error_is_zero(settings)) {
          f.pixels_off = 0.0f;
        }
      }
      while (auto late = draw_timer.poll()) {
        const std::int64_t issued =
            frame - static_cast<std::int64_t>(late->frames_ago) - config_.warmup;
        if (issued >= 0) run.frames[issued].draw_ms = static_cast<float>(late->milliseconds);
      }
      while (auto late = present_timer.poll()) {
        const std::int64_t issued =
            frame - static_cast<std::int64_t>(late->frames_ago) - config_.warmup;
        if (issued >= 0) run.frames[issued].present_ms = static_cast<float>(late->milliseconds);
      }
    }
    glFinish();
    while (auto late = draw_timer.poll()) {
      const std::int64_t issued =
          total - 1 - static_cast<std::int64_t>(late->frames_ago) - config_.warmup;
      if (issued >= 0) run.frames[issued].draw_ms = static_cast<float>(late->milliseconds);
    }
    while (auto late = present_timer.poll()) {
      const std::int64_t issued =
          total - 1 - static_cast<std::int64_t>(late->frames_ago) - config_.warmup;
      if (issued >= 0) run.frames[issued].present_ms = static_cast<float>(late->milliseconds);
    }
    for (const StageTimes& t : backend_->drain_stage_times()) {
      record_stages(t, t.frame - first_stage_frame);
    }
    return run;
  }

 private:
  const BenchConfig& config_;
  std::unique_ptr<gl::GlContext> context_;
  std::unique_ptr<Backend> backend_;
  std::unique_ptr<gl::ParticleBuffers> buffers_;
  std::unique_ptr<gl::RenderTarget> target_;
  std::unique_ptr<gl::RenderTarget> screen_;
  std::unique_ptr<gl::ParticleRenderer> renderer_;
};

}  // namespace

int run_bench(const BenchConfig& config, const std::string& command) {
  std::vector<SceneDesc> scenes;
  std::vector<RunInput> inputs;
  if (!config.file.empty()) inputs.push_back({config.file, "the bench file"});
  for (const auto& path : config.scenes) {
    scenes.push_back(load_scene(path));
    for (RunInput& input : scene_inputs(scenes.back())) inputs.push_back(std::move(input));
  }
  // Before the first frame, not after the last run: a folder that cannot be written, or whose
  // result files could not be (a link, a device, a file the bench reads), stops the bench at
  // once.
  check_output_dir(config.out_dir, "--out", {"frames.csv", "summary.json", "chart.svg"}, inputs);
  BenchSession session(config);
  for (const std::uint32_t count : config.counts) {
    check_backend_count(session.backend_name(), count, "bench counts");
  }
  BenchResults results;
  results.gl_renderer = session.renderer();
  results.date = utc_now();
  results.command = command;
  results.verify = config.verify;

  std::vector<RunSpec> specs;
  std::vector<RendererKind> renderers = config.renderers;
  if (renderers.empty()) renderers.push_back(default_renderer(session.backend_name()));
  for (const SceneDesc& scene : scenes) {
    std::vector<std::uint32_t> counts = config.counts;
    if (counts.empty())
      counts.push_back(session.backend_name() == "cpu" ? scene.cpu_count : scene.count);
    for (std::uint32_t count : counts) {
      for (KeyMode mode : config.key_modes) {
        for (DrawOrder order : config.orders) {
          for (Algorithm algorithm : config.algorithms) {
            for (RendererKind renderer : renderers) {
              FrameChoices choices = config.choices;
              choices.key_mode = mode;
              choices.order = order;
              choices.algorithm = algorithm;
              choices.renderer = renderer;
              specs.push_back({scene, count, choices});
            }
          }
        }
      }
    }
  }
  Progress progress(specs.size());
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const FrameChoices& c = specs[i].choices;
    progress.update(i, specs[i].scene.name + " " + std::string(to_string(c.algorithm)) + " " +
                           std::string(to_string(c.order)) + " " +
                           std::string(to_string(c.renderer)) + " " +
                           std::to_string(specs[i].count));
    results.runs.push_back(session.run(specs[i]));
  }
  progress.update(specs.size(), "done");
  progress.finish();

  write_bench_csv(config.out_dir / "frames.csv", results);
  write_bench_json(config.out_dir / "summary.json", results);
  write_bench_chart(config.out_dir / "chart.svg", results);
  std::cout << "particles bench, " << results.date << ", " << results.gl_renderer << '\n'
            << bench_table(results) << "wrote " << (config.out_dir / "frames.csv").string() << ", "
            << (config.out_dir / "summary.json").string() << ", "
            << (config.out_dir / "chart.svg").string() << '\n';
  std::uint64_t failures = 0;
  for (const BenchRun& run : results.runs) {
    failures += run.verify_failures;
    if (run.verify_failures) {
      std::cerr << "verification failed: " << run.scene << ' ' << run.algorithm << ' ' << run.count
                << ": " << run.first_failure << '\n';
    }
  }
  return failures ? 1 : 0;
}

}  // namespace particles
