#include "app/main/app.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <array>
#include <chrono>
#include <cmath>
#include <iostream>
#include <memory>
#include <optional>

#include "app/gl/gl_context.hpp"
#include "app/gl/gpu_timer.hpp"
#include "app/gl/image.hpp"
#include "app/gl/particle_buffers.hpp"
#include "app/gl/particle_renderer.hpp"
#include "app/gl/render_target.hpp"
#include "app/main/app_state.hpp"
#include "app/main/backend.hpp"
#include "app/main/compare_labels.hpp"
#include "app/main/frame_record.hpp"
#include "app/main/frame_runner.hpp"
#include "app/main/hud.hpp"
#include "app/main/input.hpp"
#include "app/main/key_screenshot.hpp"
#include "app/main/lit_check.hpp"
#include "app/main/recorder.hpp"
#include "app/main/scene_switch.hpp"
#include "app/scene/paths.hpp"
#include "app/scene/scene_loader.hpp"
#include "core/backend_limits.hpp"
#include "core/camera.hpp"
#include "core/cpu_algorithm_sort.hpp"
#include "core/output_file.hpp"

namespace particles {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

class Session {
 public:
  explicit Session(const Options& options) {
    state_.options = options;
    state_.scene = load_scene(options.scene);
    if (options.camera) override_camera(state_.scene, *options.camera);
    state_.choices = options.choices;
    state_.camera = CameraDirector::for_scene(state_.scene);

    // The files the run ends with, checked before any window opens (not after its 600 frames),
    // and never the files it reads. A run writes only the files it is asked for, headless too.
    const std::vector<RunInput> inputs = scene_inputs(state_.scene);
    screenshot_ = options.screenshot;
    report_ = options.report;
    // Before any folder is made for them: two outputs that are one file would have the last
    // write replace the first, and --record's folder takes only its own frames.
    check_distinct_outputs(
        {{screenshot_, "--screenshot"}, {report_, "--report"}, {options.record, "--record", true}});
    if (!screenshot_.empty()) check_output_file(screenshot_, "--screenshot", inputs);
    if (!report_.empty()) check_output_file(report_, "--report", inputs);
    if (report_.empty()) history_.set_keep(std::size_t{1} << 17);
    if (!options.record.empty()) {
      recorder_ =
          std::make_unique<Recorder>(options.record, options.record_fps, options.keep_frames);
      state_.record_dir = recorder_->dir();
      std::cerr << "particles: recording every frame into " << recorder_->dir().string() << '\n';
    }

    headless_ = options.headless || !gl::display_available();
    if (headless_ && !options.headless) {
      std::cerr << "note: no display found, running headless\n";
    }
    context_ = headless_
                   ? gl::make_headless_context(options.width, options.height)
                   : gl::make_window_context(options.width, options.height,
                                             "particles: " + state_.scene.name, options.vsync);
    state_.gl_renderer = context_->renderer_description();

    backend_ = make_backend(options.backend);
    state_.backend_name = backend_->name();
    state_.count = options.count.value_or(default_count(state_.scene, state_.backend_name));
    // Before the buffers grow: --backend auto may have picked the CPU backend only now.
    check_backend_count(state_.backend_name, state_.count, "--count");
    state_.scene_files = list_scene_files();
    state_.count_presets =
        count_presets(state_.backend_name, default_count(state_.scene, state_.backend_name));
    renderer_ = std::make_unique<gl::ParticleRenderer>();
    buffers_ = std::make_unique<gl::ParticleBuffers>();
    target_ = std::make_unique<gl::RenderTarget>(context_->framebuffer_size());
    draw_timer_ = std::make_unique<gl::GpuTimer>();
    present_timer_ = std::make_unique<gl::GpuTimer>();
    if (!options.renderer_given) state_.choices.renderer = default_renderer(state_.backend_name);
    reset_backend(backend_, options.backend, state_.scene.params, state_.count, *buffers_,
                  std::cerr);
    if (backend_->name() != state_.backend_name) {  // auto fell back to the CPU: its presets
      state_.backend_name = backend_->name();
      state_.count_presets =
          count_presets(state_.backend_name, default_count(state_.scene, state_.backend_name));
      if (!options.renderer_given) state_.choices.renderer = default_renderer(state_.backend_name);
    }
    frame_runner_ =
        std::make_unique<FrameRunner>(*backend_, *renderer_, *buffers_, *target_, *draw_timer_);

    if (!headless_) {
      install_input_callbacks(context_->glfw_window(), state_);
      hud_ = std::make_unique<Hud>(context_->glfw_window(), options.ui_scale);
    }
    std::cerr << "particles: " << state_.count << " particles, scene '" << state_.scene.name
              << "', backend " << state_.backend_name << ", algorithm "
              << to_string(state_.choices.algorithm)
              << (state_.backend_name == "cpu"
                      ? " (" + std::string(cpu_algorithm_label(state_.choices.algorithm)) + ")"
                      : std::string())
              << ", renderer " << to_string(state_.choices.renderer) << ", "
              << (headless_ ? "headless" : "windowed") << ", GL " << state_.gl_renderer << '\n';
  }

  int run() {
    const int frames = frames_ = state_.options.frames.value_or(headless_ ? 600 : -1);
    while (!state_.quit_requested && (frames < 0 || state_.frame < std::uint64_t(frames))) {
      if (!headless_ && context_->should_close()) break;
      frame();
    }
    return finish();
  }

 private:
  void frame() {
    const auto frame_start = Clock::now();
    if (!headless_) {
      context_->poll_events();
      apply_mouse(context_->glfw_window(), state_);
    }
    apply_switches();
    move_camera();

    const glm::ivec2 size = context_->framebuffer_size();
    if (size.x <= 0 || size.y <= 0) return;  // minimised window
    // A recording keeps its first frame's size (a video has one); a resized window shows it
    // scaled. Otherwise the image follows the window.
    if (recorder_ && !record_size_) record_size_ = size;
    const glm::ivec2 image_size = record_size_.value_or(size);
    // A change of any setting the times depend on starts the HUD's statistics over.
    state_.stats.begin_frame(run_config(image_size), state_.frame);
    const RendererKind renderer = state_.choices.renderer;
    const FrameOutcome outcome =
        frame_runner_->run(state_.scene, state_.camera.pose, image_size, frame_request());
    state_.last_info = outcome.info;
    last_camera_ = outcome.camera;
    const float pixels_off = compare_pixels_off();
    const double backend_ms = outcome.backend_ms;
    if (!state_.paused) state_.sim_time += state_.scene.time_step;

    save_images();
    state_.image_width = image_size.x;
    state_.image_height = image_size.y;
    if (!headless_) {
      update_heat_share();
      present_timer_->begin();
      target_->blit_to_default_framebuffer(size);
      present_timer_->end();
      hud_->draw(state_);
      context_->swap_buffers();
    }

    FrameRecord record;
    record.frame = state_.frame;
    record.backend_ms = backend_ms;
    record.path = state_.last_info.path;
    record.order_error = state_.last_info.order_error;
    record.pixels_off = pixels_off;
    if (state_.last_info.order_error >= 0.0f) {
      state_.stats.order_error.push(100.0f * state_.last_info.order_error);
    }
    record.renderer = renderer;
    record.frame_ms = ms_since(frame_start);
    history_.push(record);
    record_gpu_times();
    record_composite(state_.last_info);
    record_stages(state_.last_info.stages);
    state_.stats.frame_ms.push(static_cast<float>(record.frame_ms));
    state_.stats.backend_ms.push(static_cast<float>(backend_ms));
    ++state_.frame;
  }

  // Before the frame runs: framed on the last frame's particles when asked (a key, or a scene
  // just loaded), and along the scene's camera path.
  void move_camera() {
    state_.camera.on_extents(state_.last_info.extents);
    state_.camera.frame_pose(state_.scene.camera_path, state_.sim_time);
  }

  FrameRequest frame_request() const {
    FrameRequest request;
    request.choices = state_.choices;
    // The HUD and the report show it (on CUDA a launch pair after the frame's graph).
    request.measure_order_error = true;
    request.paused = state_.paused;
    // The comparison view's order error as a viewer sees it, taken as it arrives.
    request.measure_pixels_off = state_.choices.compare;
    // Frames whose image is read back: recorded, a screenshot asked for, or the run's last one
    // when it writes a screenshot.
    const bool last = frames_ >= 0 && state_.frame + 1 == std::uint64_t(frames_);
    request.read_back =
        recorder_ != nullptr || state_.screenshot_requested || (last && !screenshot_.empty());
    return request;
  }

  // The comparison view's order error as a viewer sees it (both images exist there, or the
  // compositor draws them); on CUDA an earlier frame's, as measures arrive. -1 when none.
  float compare_pixels_off() {
    float pixels_off = -1.0f;
    if (state_.choices.compare) {
      if (const std::optional<PixelsOff> off = frame_runner_->pixels_off()) {
        pixels_off = static_cast<float>(off->percent());
        state_.stats.pixels_off.push(pixels_off);
        // The same images give an infinite ratio: nothing to plot (the share above reads 0).
        if (std::isfinite(off->psnr_db())) {
          state_.stats.psnr_db.push(static_cast<float>(off->psnr_db()));
        }
      }
      // Part of the frame (the CPU backend composites for it): timed, not left in "other".
      state_.stats.pixels_off_ms.push(static_cast<float>(frame_runner_->pixels_off_ms()));
    }
    return pixels_off;
  }

  // The frame's image, as the screenshot reads it (either renderer's, no HUD), to the recording
  // and to a screenshot the E key asked for.
  void save_images() {
    if (recorder_) {
      recorder_->add(target_->read_pixels());
      state_.recorded_frames = recorder_->frames();
    }
    if (state_.screenshot_requested) {
      // Reported on stderr and in the HUD; a failed write does not end the session.
      state_.screenshot_message =
          save_key_screenshot(target_->read_pixels(), kKeyScreenshotDir, state_.frame, std::cerr,
                              {screenshot_, report_});
      state_.screenshot_requested = false;
    }
  }

  // GPU timings arrive a few frames late; each belongs to the frame that issued it.
  // A late timing of an earlier configuration's frame goes to its record, not the statistics.
  void record_gpu_times() {
    record_timer(*draw_timer_, &FrameRecord::draw_ms, state_.stats.draw_ms);
    record_timer(*present_timer_, &FrameRecord::present_ms, state_.stats.present_ms);
  }
  void record_timer(gl::GpuTimer& timer, double FrameRecord::*field, RollingSeries& series) {
    while (auto late = timer.poll()) {
      const std::uint64_t of = state_.frame - late->frames_ago;
      if (FrameRecord* r = history_.find(of)) r->*field = late->milliseconds;
      if (state_.stats.counts(of)) series.push(static_cast<float>(late->milliseconds));
    }
  }

  // The heat view's caption: the share of pixels where the two orders' images differ, counted
  // from the heat image itself (compare_labels.hpp). A read-back waits for the GPU, so after the
  // first count it runs about four times a second, and never outside the heat view. By the clock,
  // not every Nth frame: at the CPU backend's few frames a second a frame count left the caption
  // describing an image seconds old, and a period in frames can fall in step with a stale order's.
  void update_heat_share() {
    constexpr double kHeatCountPeriodMs = 250.0;
    if (!state_.choices.compare || state_.choices.compare_mode != CompareMode::heat) {
      state_.heat_count = {};
    } else if (state_.last_info.compare_order &&
               (state_.heat_count.pixels == 0 ||
                ms_since(last_heat_count_) >= kHeatCountPeriodMs)) {
      state_.heat_count = count_heat_differences(target_->read_pixels().rgba);
      last_heat_count_ = Clock::now();
    }
  }

  // What this frame's times depend on (live_stats.hpp).
  RunConfig run_config(glm::ivec2 image_size) const {
    RunConfig c;
    c.scene = state_.scene.source_path.empty() ? state_.scene.name : state_.scene.source_path;
    c.count = state_.count;
    c.backend = state_.backend_name;
    c.choices = state_.choices;
    c.width = image_size.x;
    c.height = image_size.y;
    return c;
  }

  // A scene or count the HUD or keys asked for, before this frame runs: the backend restarts
  // (its frame numbers from 0) and a new FrameRunner forgets the old scene's extents.
  void apply_switches() {
    if (!state_.requested_scene && !state_.requested_count) return;
    const bool scene_asked = state_.requested_scene.has_value();
    // The old particles' outstanding timings, before the reset forgets them.
    for (const StageTimes& t : backend_->drain_stage_times()) record_stages(t);
    const SwitchResult result = apply_switch_requests(state_, *backend_, *buffers_);
    if (!result.reset) return;
    frame_runner_ =
        std::make_unique<FrameRunner>(*backend_, *renderer_, *buffers_, *target_, *draw_timer_);
    backend_frame_base_ = state_.frame;
    if (!headless_) {
      glfwSetWindowTitle(context_->glfw_window(), ("particles: " + state_.scene.name).c_str());
    }
    std::cerr << "particles: " << (scene_asked ? "switched to scene '" : "scene '")
              << state_.scene.name << "', now " << state_.count << " particles\n";
  }

  // Stage timings name the backend frame they measured, counted from the backend's last reset,
  // which happened at session frame backend_frame_base_.
  void record_stages(const StageTimes& t) {
    if (t.frame < 0) return;
    const std::uint64_t of = backend_frame_base_ + static_cast<std::uint64_t>(t.frame);
    FrameRecord* r = history_.find(of);
    if (r == nullptr || r->timed()) return;  // gone, or already recorded
    const bool counts = state_.stats.counts(of);
    if (t.has_stages) {
      for (int s = 0; s < kStageCount; ++s) {
        r->stage_ms[s] = t.ms[s];
        if (counts) state_.stats.stage_ms[s].push(t.ms[s]);
      }
    }
    if (t.span_ms >= 0.0f) {
      r->span_ms = t.span_ms;
      if (counts) state_.stats.span_ms.push(t.span_ms);
    }
  }

  void record_composite(const FrameInfo& info) {
    if (info.composite_frame < 0) return;
    const std::uint64_t of = backend_frame_base_ + static_cast<std::uint64_t>(info.composite_frame);
    if (state_.stats.counts(of)) state_.stats.composite_ms.push(info.composite_ms);
    if (FrameRecord* r = history_.find(of)) r->composite_ms = info.composite_ms;
  }

  // Writes what the run asked for; returns the exit code (1 when ffmpeg failed on a recording).
  int finish() {
    for (const StageTimes& t : backend_->drain_stage_times()) record_stages(t);
    const std::filesystem::path& screenshot = screenshot_;
    const std::filesystem::path& report = report_;
    int status = 0;
    if (!screenshot.empty()) {
      gl::write_png(screenshot, target_->read_pixels());  // whole or not at all
      std::cout << "screenshot: " << screenshot.string() << '\n';
      status = check_last_frame_lit();
    }
    if (!report.empty()) {
      write_frame_report(report.string(), history_.records(),
                         std::string(to_string(state_.choices.algorithm)), state_.backend_name,
                         state_.count);
      std::cout << "frame-time report: " << report.string() << '\n';
    }
    print_summary();
    if (headless_ && screenshot.empty() && report.empty() && !recorder_) {
      std::cout << "no files written: --screenshot FILE, --report FILE and --record DIR save the "
                   "last frame, the frame times and every frame\n";
    }
    const int recorded = recorder_ ? recorder_->finish(std::cout, std::cerr) : 0;
    return status != 0 ? status : recorded;
  }

  // The screenshot's frame must show the particles that should light it (lit_check.hpp): one
  // left all background is an error (exit 1, the file kept to look at); an empty frame that
  // the particles explain (none in view, all transparent) is said, never silent.
  int check_last_frame_lit() {
    if (state_.frame == 0) return 0;  // no frame ran (a window closed at once)
    const std::vector<ParticleVertex> vertices = buffers_->read_vertices();
    const LitCheck lit = check_drawn_frame_lit(state_.scene, last_camera_, *renderer_, *target_,
                                               *buffers_, vertices);
    if (!lit.ok) {
      std::cerr << "error: the screenshot's frame is broken: " << lit.problem << '\n';
      return 1;
    }
    if (!lit.lit) {
      std::cout << "note: the screenshot is all background: of " << vertices.size()
                << " particles, " << lit.in_view
                << " are in view and none is opaque enough, or unlike the background enough, "
                   "to show\n";
    }
    return 0;
  }

  // The frame times of the current configuration only (the HUD's too): a run that switched
  // scene, count or algorithm says which configuration the numbers are of.
  void print_summary() const {
    const std::vector<FrameRecord>& records = history_.records();
    const SummarySpan span_of =
        summary_span(history_.first_frame(), records.size(), state_.stats.first_frame());
    std::vector<double> frame, backend, draw, composite, present, span;
    std::array<std::vector<double>, kStageCount> stages;
    for (std::size_t i = span_of.begin; i < records.size(); ++i) {
      frame.push_back(records[i].frame_ms);
      backend.push_back(records[i].backend_ms);
      if (records[i].draw_ms >= 0.0) draw.push_back(records[i].draw_ms);
      if (records[i].composite_ms >= 0.0) composite.push_back(records[i].composite_ms);
      if (records[i].present_ms >= 0.0) present.push_back(records[i].present_ms);
      if (records[i].span_ms >= 0.0f) span.push_back(records[i].span_ms);
      for (int s = 0; s < kStageCount; ++s) {
        if (records[i].stage_ms[s] >= 0.0f) stages[s].push_back(records[i].stage_ms[s]);
      }
    }
    auto row = [](const char* name, const Summary& s) {
      std::printf("  %-10s median %8.3f ms   p99 %8.3f ms   min %8.3f ms   (%zu frames)\n", name,
                  s.median, s.p99, s.min, s.samples);
    };
    const RunConfig& config = state_.stats.config();
    std::printf("frame times of %s (frames %llu-%llu, after %zu warm-up frames):\n",
                describe(config, state_.scene.name).c_str(),
                static_cast<unsigned long long>(state_.stats.first_frame()),
                static_cast<unsigned long long>(state_.frame > 0 ? state_.frame - 1 : 0),
                span_of.warmup);
    if (config.backend == "cpu") {
      std::printf("  (%s on the CPU: %s)\n", to_string(config.choices.algorithm).data(),
                  cpu_algorithm_label(config.choices.algorithm).data());
    }
    if (const int earlier = state_.stats.configurations() - 1; earlier > 0) {
      std::printf("  (the last configuration only: %d earlier %s not included%s)\n", earlier,
                  earlier == 1 ? "one is" : "ones are",
                  report_.empty() ? "; --report FILE writes every frame" : "; the report has them");
    }
    row("frame", summarize(frame));
    row("backend", summarize(backend));
    row("span", summarize(span));
    for (int s = 0; s < kStageCount; ++s) {
      if (state_.last_info.stages.in_simulate[s]) {  // its zeros would read as free
        std::printf("  %-10s %s\n", to_string(static_cast<Stage>(s)), kInSimulateText);
      } else {
        row(to_string(static_cast<Stage>(s)), summarize(stages[s]));
      }
    }
    row("draw", summarize(draw));
    row("composite", summarize(composite));
    row("present", summarize(present));
  }

  AppState state_;
  bool headless_ = false;
  int frames_ = -1;                            // frames the run takes; -1: until the window closes
  std::filesystem::path screenshot_, report_;  // what finish() writes; empty: nothing
  std::uint64_t backend_frame_base_ = 0;       // the session frame of the backend's last reset
  Clock::time_point last_heat_count_{};        // when update_heat_share last counted
  CameraMatrices last_camera_;                 // the last frame's, for check_last_frame_lit
  std::unique_ptr<gl::GlContext> context_;
  std::unique_ptr<Backend> backend_;
  std::unique_ptr<gl::ParticleRenderer> renderer_;
  std::unique_ptr<gl::ParticleBuffers> buffers_;
  std::unique_ptr<gl::RenderTarget> target_;
  std::unique_ptr<Hud> hud_;
  std::unique_ptr<gl::GpuTimer> draw_timer_;  // made once the context exists
  std::unique_ptr<gl::GpuTimer> present_timer_;
  std::unique_ptr<FrameRunner> frame_runner_;
  std::unique_ptr<Recorder> recorder_;     // --record only
  std::optional<glm::ivec2> record_size_;  // the recording's image size, from its first frame
  // Every frame when a report will be written (--report); otherwise the newest 2^17 to 2^18
  // (36 to 73 min at 60 fps) for the summary printed at exit.
  FrameHistory history_;
};

}  // namespace

int run_app(const Options& options) {
  Session session(options);
  return session.run();
}

}  // namespace particles
