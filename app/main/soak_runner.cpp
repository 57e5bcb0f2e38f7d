// `particles soak`'s run: segments of frames through FrameRunner, switching between them
// through switch_scene (the window's path), with order checks, memory samples and the report.
#include <glad/gl.h>

#include <chrono>
#include <cstdio>
#include <deque>
#include <exception>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "app/gl/gl_context.hpp"
#include "app/gl/gpu_timer.hpp"
#include "app/gl/particle_buffers.hpp"
#include "app/gl/particle_renderer.hpp"
#include "app/gl/render_target.hpp"
#include "app/main/backend.hpp"
#include "app/main/frame_runner.hpp"
#include "app/main/headless_rig.hpp"
#include "app/main/lit_check.hpp"
#include "app/main/memory_usage.hpp"
#include "app/main/order_check.hpp"
#include "app/main/scene_switch.hpp"
#include "app/main/soak.hpp"
#include "app/main/utc_now.hpp"
#include "core/camera.hpp"
#include "core/camera_director.hpp"
#include "core/output_file.hpp"

namespace particles {
namespace {

using Clock = std::chrono::steady_clock;

const char* key_mode_name(KeyMode m) {
  return m == KeyMode::exact ? "exact" : "quantized";
}

std::string mib(const std::optional<std::uint64_t>& bytes) {
  if (!bytes) return "n/a";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", double(*bytes) / (1024.0 * 1024.0));
  return text;
}

std::string percent(const std::optional<double>& p) {
  if (!p) return "n/a";
  char text[32];
  std::snprintf(text, sizeof text, "%+.2f%%", *p);
  return text;
}

// Headless there is no swap to hold the CPU back, and Mesa's llvmpipe queues every frame it has
// not rasterized yet: unthrottled, host RSS grew by ~0.15 MiB a frame at 64K particles (raster,
// 640x360), with no end. Like a window's swap chain, this keeps at most two frames in flight.
class FrameThrottle {
 public:
  FrameThrottle() = default;
  FrameThrottle(const FrameThrottle&) = delete;
  FrameThrottle& operator=(const FrameThrottle&) = delete;
  ~FrameThrottle() {
    for (GLsync fence : fences_) glDeleteSync(fence);
  }

  void frame_issued() {
    fences_.push_back(glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0));
    while (fences_.size() > kFramesInFlight) {
      const GLsync oldest = fences_.front();
      fences_.pop_front();
      GLenum status = GL_TIMEOUT_EXPIRED;
      while (status == GL_TIMEOUT_EXPIRED) {
        status = glClientWaitSync(oldest, GL_SYNC_FLUSH_COMMANDS_BIT, 1'000'000'000);
      }
      glDeleteSync(oldest);
    }
  }

 private:
  static constexpr std::size_t kFramesInFlight = 2;
  std::deque<GLsync> fences_;
};

struct SoakTotals {
  std::int64_t frames = 0, verified = 0, mis_sorted = 0, errors = 0;
  std::int64_t blank = 0;  // checked frames left all background where particles should show
  int switches = 0, resets = 0;
  std::string first_mis_sort, first_error, first_blank;
  double seconds = 0.0;
};

class SoakSession {
 public:
  explicit SoakSession(SoakConfig& config)
      : config_(config), rig_(config.width, config.height, config.backend) {
    finish_soak_config(config_, rig_.backend->name());
    draw_timer_ = std::make_unique<gl::GpuTimer>();
  }

  std::string gl_renderer() const { return rig_.context->renderer_description(); }
  std::string backend_name() const { return rig_.backend->name(); }

  void run() {
    const auto start = Clock::now();
    const int segments = (config_.frames + config_.every - 1) / config_.every;
    const int cycle = soak_cycle_length(config_);
    for (int segment = 0; segment < segments && totals_.errors == 0; ++segment) {
      const int frames = std::min(config_.every, config_.frames - segment * config_.every);
      try {
        switch_to(soak_settings(config_, segment));
        run_segment(frames);
      } catch (const std::exception& e) {
        // A backend error is usually sticky (CUDA's are): stop, report, fail.
        error(std::string("segment ") + std::to_string(segment) + ": " + e.what());
      }
      sample(segment);
      if ((segment + 1) % cycle == 0 || segment + 1 == segments) progress(segment, segments);
    }
    totals_.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  }

  const std::vector<SoakSample>& samples() const { return samples_; }
  const SoakTotals& totals() const { return totals_; }

 private:
  void error(const std::string& what) {
    if (totals_.errors++ == 0) totals_.first_error = what;
    std::cerr << "soak: error: " << what << '\n';
  }

  void switch_to(const SoakSettings& s) {
    if (have_settings_) ++totals_.switches;
    const std::filesystem::path& scene_path = config_.scenes[s.scene];
    const std::uint32_t count = config_.counts[s.count];
    const bool first = !have_settings_;
    settings_ = s;
    have_settings_ = true;
    if (!first && scene_path == scene_path_ && count == count_) return;
    SwitchRequest request;
    if (first || scene_path != scene_path_) request.scene = scene_path;
    request.count = count;  // the soak's count, not the scene's default
    const SwitchResult result = switch_scene(request, *rig_.backend, *rig_.buffers, scene_, count_);
    if (!result.error.empty()) throw std::runtime_error(result.error);
    scene_path_ = scene_path;
    ++totals_.resets;
    // As the window does on a switch: a new FrameRunner, the scene's camera, time from 0.
    frame_runner_ = std::make_unique<FrameRunner>(*rig_.backend, *rig_.renderer, *rig_.buffers,
                                                  *rig_.target, *draw_timer_);
    camera_ = CameraDirector::for_scene(scene_);
    sim_time_ = 0.0;
  }

  void run_segment(int frames) {
    FrameRequest request;
    request.choices = segment_choices(config_, settings_);
    for (int i = 0; i < frames; ++i) {
      const CameraPose pose = camera_.frame_pose(scene_.camera_path, sim_time_);
      const bool check = totals_.frames % config_.verify_every == 0;
      request.read_back = check;  // the image the check reads must be this frame's
      const FrameOutcome outcome =
          frame_runner_->run(scene_, pose, {config_.width, config_.height}, request);
      sim_time_ += scene_.time_step;
      camera_.on_extents(outcome.info.extents);
      if (check) verify(outcome, request.choices);
      throttle_.frame_issued();
      while (draw_timer_->poll()) {
      }
      ++totals_.frames;
    }
  }

  // The frame's draw order (sorted far to near) and its image (not all background where
  // particles should show: lit_check.hpp).
  void verify(const FrameOutcome& outcome, const FrameChoices& choices) {
    const auto vertices = rig_.buffers->read_vertices();
    const auto order = rig_.buffers->read_order();
    const OrderCheck check = check_draw_order(vertices, order, outcome.settings.view,
                                              choices.key_mode, choices.key_bits);
    const LitCheck lit = check_drawn_frame_lit(scene_, outcome.camera, *rig_.renderer, *rig_.target,
                                               *rig_.buffers, vertices);
    ++totals_.verified;
    const std::string where =
        "frame " + std::to_string(totals_.frames) + " (" + scene_.name + ", " +
        std::to_string(count_) + ", " + std::string(to_string(choices.algorithm)) + ", " +
        key_mode_name(choices.key_mode) + ", " + std::string(to_string(choices.renderer)) + "): ";
    if (!check.ok && totals_.mis_sorted++ == 0) {
      totals_.first_mis_sort = where + check.problem;
      std::cerr << "soak: mis-sorted " << totals_.first_mis_sort << '\n';
    }
    if (!lit.ok && totals_.blank++ == 0) {
      totals_.first_blank = where + lit.problem;
      std::cerr << "soak: blank " << totals_.first_blank << '\n';
    }
  }

  void sample(int segment) {
    glFinish();
    for (GLenum e = glGetError(); e != GL_NO_ERROR; e = glGetError()) {
      char text[64];
      std::snprintf(text, sizeof text, "GL error 0x%04x", static_cast<unsigned>(e));
      error(std::string("segment ") + std::to_string(segment) + ": " + text);
    }
    rig_.backend->drain_stage_times();  // the frames' GPU work is done before memory is read
    SoakSample s;
    s.segment = segment;
    s.frame = totals_.frames;
    s.scene = scene_.name;
    s.count = count_;
    const FrameChoices choices = segment_choices(config_, settings_);
    s.algorithm = std::string(to_string(choices.algorithm));
    s.key_mode = key_mode_name(choices.key_mode);
    s.renderer = std::string(to_string(choices.renderer));
    s.rss_bytes = host_rss_bytes();
    s.device_bytes = rig_.backend->device_memory_used();
    samples_.push_back(s);
  }

  void progress(int segment, int segments) const {
    const SoakSample& s = samples_.back();
    std::cerr << "soak: segment " << segment + 1 << '/' << segments << ", frame " << s.frame
              << ", RSS " << mib(s.rss_bytes) << " MiB, device " << mib(s.device_bytes)
              << " MiB, mis-sorted " << totals_.mis_sorted << ", blank " << totals_.blank
              << ", errors " << totals_.errors << '\n';
  }

  SoakConfig& config_;
  HeadlessRig rig_;
  std::unique_ptr<gl::GpuTimer> draw_timer_;
  std::unique_ptr<FrameRunner> frame_runner_;
  FrameThrottle throttle_;

  SoakSettings settings_;
  bool have_settings_ = false;
  std::filesystem::path scene_path_;
  SceneDesc scene_;
  std::uint32_t count_ = 0;
  CameraDirector camera_;  // as the window's and the bench's
  double sim_time_ = 0.0;

  SoakTotals totals_;
  std::vector<SoakSample> samples_;
};

void write_samples_csv(const std::filesystem::path& file, const std::vector<SoakSample>& samples) {
  std::ostringstream out;
  out << "segment,frame,scene,count,algorithm,key_mode,renderer,rss_bytes,device_bytes\n";
  for (const SoakSample& s : samples) {
    out << s.segment << ',' << s.frame << ',' << s.scene << ',' << s.count << ',' << s.algorithm
        << ',' << s.key_mode << ',' << s.renderer << ','
        << (s.rss_bytes ? std::to_string(*s.rss_bytes) : "") << ','
        << (s.device_bytes ? std::to_string(*s.device_bytes) : "") << '\n';
  }
  write_file_atomically(file, out.str());
}

nlohmann::json growth_json(const SoakGrowth& g) {
  nlohmann::json j;
  auto put = [&j](const char* key, const auto& v) {
    j[key] = v ? nlohmann::json(*v) : nlohmann::json(nullptr);
  };
  put("after_warmup_bytes", g.after_warmup);
  put("at_end_bytes", g.at_end);
  put("peak_bytes", g.peak);
  put("growth_percent", g.percent);
  return j;
}

// What failed the soak; empty when it passed.
std::vector<std::string> soak_failures(const SoakConfig& config, const SoakTotals& t,
                                       const SoakGrowth& rss, const SoakGrowth& device,
                                       bool on_device) {
  std::vector<std::string> failures;
  if (t.mis_sorted) failures.push_back(std::to_string(t.mis_sorted) + " mis-sorted frames");
  if (t.blank) {
    failures.push_back(std::to_string(t.blank) +
                       " frames all background where particles should show: " + t.first_blank);
  }
  if (t.errors) failures.push_back(std::to_string(t.errors) + " errors: " + t.first_error);
  if (t.frames != config.frames) {
    failures.push_back("ran " + std::to_string(t.frames) + " of " + std::to_string(config.frames) +
                       " frames");
  }
  auto judge = [&](const char* what, const SoakGrowth& g, bool required) {
    if (!g.percent) {
      if (required) failures.push_back(std::string(what) + ": no figures");
    } else if (*g.percent > config.max_growth_percent) {
      failures.push_back(std::string(what) + " grew " + percent(g.percent));
    }
  };
  judge("host RSS", rss, true);
  judge("device memory", device, on_device);
  return failures;
}

// The Markdown tables printed at the end: the run's counts, then memory.
std::string soak_table(const SoakConfig& config, const SoakTotals& t, int cycle,
                       const SoakGrowth& rss, const SoakGrowth& device) {
  std::ostringstream table;
  table << "| soak | value |\n|---|---|\n"
        << "| frames | " << t.frames << " |\n"
        << "| switches | " << t.switches << " (" << t.resets
        << " scene/count loads, the first included) |\n"
        << "| cycles | " << t.frames / (std::int64_t{cycle} * config.every) << " full, of " << cycle
        << " segments x " << config.every << " frames |\n"
        << "| order checks | " << t.verified << " |\n"
        << "| mis-sorted frames | " << t.mis_sorted << " |\n"
        << "| blank frames | " << t.blank << " |\n"
        << "| errors | " << t.errors << " |\n"
        << "| wall time | " << static_cast<long>(t.seconds) << " s |\n\n"
        << "| memory (MiB) | after warm-up | at end | peak | growth |\n"
        << "|---|---|---|---|---|\n";
  auto row = [&table](const char* name, const SoakGrowth& g) {
    table << "| " << name << " | " << mib(g.after_warmup) << " | " << mib(g.at_end) << " | "
          << mib(g.peak) << " | " << percent(g.percent) << " |\n";
  };
  row("host RSS", rss);
  row("device used", device);
  table << "\nafter warm-up and at end: the smallest sample of the cycle after the warm-up and of "
           "the last full cycle; peak: the largest after the warm-up\n";
  return table.str();
}

// summary.json's figures and verdict (the caller adds what names the run).
nlohmann::json soak_summary(const SoakConfig& config, const SoakTotals& t, int cycle,
                            const SoakGrowth& rss, const SoakGrowth& device,
                            const std::vector<std::string>& failures) {
  nlohmann::json summary;
  summary["frames"] = t.frames;
  summary["every"] = config.every;
  summary["verify_every"] = config.verify_every;
  summary["cycle_segments"] = cycle;
  summary["switches"] = t.switches;
  summary["backend_resets"] = t.resets;
  summary["order_checks"] = t.verified;
  summary["mis_sorted"] = t.mis_sorted;
  summary["first_mis_sort"] = t.first_mis_sort;
  summary["blank_frames"] = t.blank;
  summary["first_blank_frame"] = t.first_blank;
  summary["errors"] = t.errors;
  summary["first_error"] = t.first_error;
  summary["seconds"] = t.seconds;
  summary["max_growth_percent"] = config.max_growth_percent;
  summary["host_rss"] = growth_json(rss);
  summary["device_memory"] = growth_json(device);
  summary["passed"] = failures.empty();
  summary["failures"] = failures;
  return summary;
}

}  // namespace

int run_soak(SoakConfig config, const std::string& command) {
  SoakSession session(config);  // loads the scenes: what the outputs must not replace
  // Before the first frame, not after its 20,000.
  check_output_dir(config.out_dir, "--out", {"samples.csv", "summary.json"}, config.inputs);
  const std::string date = utc_now();
  std::cerr << "soak: " << config.frames << " frames, a switch every " << config.every
            << ", order checked every " << config.verify_every << ", " << config.scenes.size()
            << " scenes, " << config.counts.size() << " counts, backend " << session.backend_name()
            << ", cycle of " << soak_cycle_length(config) << " segments\n";
  session.run();
  const SoakTotals& t = session.totals();
  const int cycle = soak_cycle_length(config);
  const SoakGrowth rss = soak_growth(session.samples(), cycle, false);
  const SoakGrowth device = soak_growth(session.samples(), cycle, true);
  const bool on_device = session.backend_name() == "cuda";
  const std::vector<std::string> failures = soak_failures(config, t, rss, device, on_device);
  const bool passed = failures.empty();

  write_samples_csv(config.out_dir / "samples.csv", session.samples());
  nlohmann::json summary = soak_summary(config, t, cycle, rss, device, failures);
  summary["command"] = command;
  summary["date"] = date;
  summary["backend"] = session.backend_name();
  summary["gl_renderer"] = session.gl_renderer();
  write_file_atomically(config.out_dir / "summary.json", summary.dump(2) + '\n');

  std::cout << "particles soak, " << date << ", " << session.gl_renderer() << '\n'
            << soak_table(config, t, cycle, rss, device) << (passed ? "PASSED" : "FAILED") << '\n'
            << "wrote " << (config.out_dir / "samples.csv").string() << ", "
            << (config.out_dir / "summary.json").string() << '\n';
  for (const std::string& f : failures) std::cerr << "soak failed: " << f << '\n';
  return passed ? 0 : 1;
}

}  // namespace particles
