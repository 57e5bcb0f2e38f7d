#include "app/main/bench_runner.hpp"

#include <glad/gl.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
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
#include "app/main/headless_rig.hpp"
#include "app/main/lit_check.hpp"
#include "app/main/order_check.hpp"
#include "app/main/utc_now.hpp"
#include "app/scene/scene_loader.hpp"
#include "core/backend_limits.hpp"
#include "core/camera.hpp"
#include "core/camera_director.hpp"
#include "core/output_file.hpp"
#include "core/renderer_kind.hpp"

namespace particles {
namespace {

using Clock = std::chrono::steady_clock;

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
  BenchSession(const BenchConfig& config)
      : config_(config), rig_(config.width, config.height, config.backend) {
    // Headless, the window's framebuffer is this stand-in: the present is the same blit.
    screen_ = std::make_unique<gl::RenderTarget>(glm::ivec2{config.width, config.height},
                                                 gl::TargetFormat::window_rgba8);
  }

  std::string renderer() const { return rig_.context->renderer_description(); }
  std::string backend_name() const { return rig_.backend->name(); }

  BenchRun run(const RunSpec& spec) {
    BenchRun run = describe_run(spec);
    // Every run starts from the same initial state, so runs of one scene see the same frames.
    rig_.backend->reset(spec.scene.params, spec.count, *rig_.buffers);
    const int total = config_.warmup + config_.frames;
    gl::GpuTimer draw_timer;
    gl::GpuTimer present_timer;
    std::int64_t first_stage_frame = -1;
    const FrameRequest request = frame_request(spec.choices);
    FrameRunner frame_runner(*rig_.backend, *rig_.renderer, *rig_.buffers, *rig_.target,
                             draw_timer);
    double sim_time = 0.0;
    CameraDirector camera = CameraDirector::for_scene(spec.scene);  // as the window's
    for (int frame = 0; frame < total; ++frame) {
      const auto start = Clock::now();
      const CameraPose pose = camera.frame_pose(spec.scene.camera_path, sim_time);
      const FrameOutcome outcome =
          frame_runner.run(spec.scene, pose, {config_.width, config_.height}, request);
      const FrameInfo& info = outcome.info;
      sim_time += spec.scene.time_step;
      camera.on_extents(info.extents);
      if (first_stage_frame < 0 && info.stages.frame >= 0) first_stage_frame = info.stages.frame;
      record_stages(run, info.stages, info.stages.frame - first_stage_frame);

      if (info.composite_frame >= 0) {
        // Composite timings name the backend frame, counted from the run's reset.
        const std::int64_t index = info.composite_frame - config_.warmup;
        if (index >= 0 && index < config_.frames)
          run.frames[index].composite_ms = info.composite_ms;
      }
      if (config_.draw) {
        present_timer.begin();
        rig_.target->blit_to(screen_->framebuffer(), screen_->size());
        present_timer.end();
      }
      const std::int64_t index = frame - config_.warmup;
      if (index >= 0) record_frame(run, spec, outcome, request, frame_runner, index, start);
      record_gpu_times(run, draw_timer, present_timer, frame);
    }
    glFinish();
    record_gpu_times(run, draw_timer, present_timer, total - 1);
    for (const StageTimes& t : rig_.backend->drain_stage_times()) {
      record_stages(run, t, t.frame - first_stage_frame);
    }
    return run;
  }

 private:
  // The run's choices, and its frames not yet measured.
  BenchRun describe_run(const RunSpec& spec) const {
    const FrameChoices& choices = spec.choices;
    BenchRun run;
    run.scene = spec.scene.name;
    run.backend = rig_.backend->name();
    run.fused_stages = choices.fuse_stages;
    run.stage_every = choices.stage_sample_period;
    run.algorithm = std::string(to_string(choices.algorithm));
    run.key_mode = choices.key_mode == KeyMode::exact ? "exact" : "quantized";
    run.renderer = std::string(to_string(choices.renderer));
    run.order = std::string(to_string(choices.order));
    run.order_period = choices.order_period;
    run.count = spec.count;
    run.frames.resize(static_cast<std::size_t>(config_.frames));
    for (BenchFrame& f : run.frames) f.stage_ms.fill(-1.0f);
    return run;
  }

  FrameRequest frame_request(const FrameChoices& choices) const {
    FrameRequest request;
    request.choices = choices;
    request.draw = config_.draw;
    // Approximate orders only: the exact order's frames stay as the other benches time them.
    request.measure_order_error = choices.order != DrawOrder::exact;
    // And as a viewer sees it: this frame's, waited for after the frame's time is taken; for a
    // sort-free renderer whatever the order (its picture is the approximation).
    request.measure_pixels_off =
        request.measure_order_error || renderer_info(choices.renderer).sort_free;
    request.wait_for_pixels_off = true;
    // Every order's image must show the particles that should light it (lit_check.hpp), and it
    // must be this frame's image when it is read (the CUDA compositor does not wait otherwise).
    request.read_back = verify_lit();
    return request;
  }

  // Only the exact order is sorted as check_draw_order expects.
  bool verify_order(const FrameChoices& choices) const {
    return config_.verify && choices.order == DrawOrder::exact;
  }
  bool verify_lit() const { return config_.verify && config_.draw; }

  // Stage timings name the backend frame they measured (`run_frame`, counted from the run's
  // first): only the measured frames' are kept.
  void record_stages(BenchRun& run, const StageTimes& t, std::int64_t run_frame) const {
    if (t.frame < 0) return;
    const std::int64_t index = run_frame - config_.warmup;
    if (index < 0 || index >= config_.frames) return;
    if (t.has_stages) {
      for (int s = 0; s < kStageCount; ++s) {
        run.frames[index].stage_ms[s] = t.ms[s];
        if (t.in_simulate[s]) run.in_simulate[static_cast<std::size_t>(s)] = true;
      }
    }
    run.frames[index].span_ms = t.span_ms;
  }

  // Measured frame `index`: its path, its checks, its time (from `start`), then its pixels off.
  void record_frame(BenchRun& run, const RunSpec& spec, const FrameOutcome& outcome,
                    const FrameRequest& request, FrameRunner& frame_runner, std::int64_t index,
                    Clock::time_point start) {
    BenchFrame& f = run.frames[index];
    f.path = outcome.info.path;
    f.order_error = outcome.info.order_error;
    const bool verify = verify_order(spec.choices);
    if (verify || verify_lit()) {
      const std::string problem = check_frame(spec, outcome, verify);
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
    if (request.measure_pixels_off) {
      if (const std::optional<PixelsOff> off = frame_runner.pixels_off()) {
        f.pixels_off = static_cast<float>(off->percent());
        // Not a number where the backend's count has no squared differences: not measured.
        if (!std::isnan(off->psnr_db())) f.psnr_db = static_cast<float>(off->psnr_db());
      }
    } else if (order_error_is_zero(outcome.settings)) {
      f.pixels_off = 0.0f;
      f.psnr_db = std::numeric_limits<float>::infinity();
    }
  }

  // The frame's draw order (when `check_order`) and lit pixels (when verify_lit()); empty
  // when they hold, else the first problem.
  std::string check_frame(const RunSpec& spec, const FrameOutcome& outcome, bool check_order) {
    const auto vertices = rig_.buffers->read_vertices();
    std::string problem;
    if (check_order) {
      const OrderCheck check =
          check_draw_order(vertices, rig_.buffers->read_order(), outcome.settings.view,
                           spec.choices.key_mode, spec.choices.key_bits);
      if (!check.ok) problem = check.problem;
    }
    if (verify_lit() && problem.empty()) {
      const LitCheck lit = check_drawn_frame_lit(spec.scene, outcome.camera, *rig_.renderer,
                                                 *rig_.target, *rig_.buffers, vertices);
      if (!lit.ok) problem = lit.problem;
    }
    return problem;
  }

  // The GPU timings that have come in, each to the frame that issued it (`frame`: the latest).
  void record_gpu_times(BenchRun& run, gl::GpuTimer& draw, gl::GpuTimer& present,
                        std::int64_t frame) const {
    record_timer(run, draw, frame, &BenchFrame::draw_ms);
    record_timer(run, present, frame, &BenchFrame::present_ms);
  }
  void record_timer(BenchRun& run, gl::GpuTimer& timer, std::int64_t frame,
                    float BenchFrame::*field) const {
    while (auto late = timer.poll()) {
      const std::int64_t issued =
          frame - static_cast<std::int64_t>(late->frames_ago) - config_.warmup;
      if (issued >= 0) run.frames[issued].*field = static_cast<float>(late->milliseconds);
    }
  }

  const BenchConfig& config_;
  HeadlessRig rig_;
  std::unique_ptr<gl::RenderTarget> screen_;
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
