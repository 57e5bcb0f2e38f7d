#pragma once
// The HUD's rolling frame-time statistics, of one configuration at a time: a change of scene,
// count, algorithm, renderer, keys, draw order or image size empties them, so no median mixes
// frames of two settings (a count change used to leave "3.8 fps 264 ms" beside "frame med 43.6").
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "app/main/frame_shares.hpp"
#include "app/main/frame_stats.hpp"
#include "core/frame_choices.hpp"
#include "core/frame_types.hpp"

namespace particles {

// What a frame's times depend on, as the user set it. Choices that do not apply are cleared
// (applicable_only: key bits of exact keys, the period of an order that is not stale, the mode
// of no comparison), so that changing them changes nothing here.
struct RunConfig {
  std::string scene;  // the scene's file, or its name where it has none
  std::uint32_t count = 0;
  std::string backend;
  // The comparison view draws (and on the CPU composites) twice; fuse_stages is what "simulate"
  // times on CUDA; stage_sample_period which frames time their stages.
  FrameChoices choices;
  int width = 0, height = 0;  // the image's size
  bool operator==(const RunConfig&) const = default;
};

// Clears the choices that do not apply (see RunConfig).
RunConfig normalized(RunConfig config);

// "Spiral galaxy, 65536 particles, cpu backend, radix algorithm, raster renderer, exact keys, exact
// order, 1280x720": the configuration as the exit summary names it.
std::string describe(const RunConfig& config, const std::string& scene_name);

// Which of a FrameHistory's records the exit summary covers: those from `begin`, the current
// configuration's frames (it started at session frame config_first) less its first `warmup`,
// which compile shaders and touch new memory. Where the history has dropped the configuration's
// first frames (history_first > config_first) none is skipped.
struct SummarySpan {
  std::size_t begin = 0;
  std::size_t warmup = 0;
};
SummarySpan summary_span(std::uint64_t history_first, std::size_t records,
                         std::uint64_t config_first);

class LiveStats;

// The series of `renderer`'s own part of the frame: draw_ms for a GL-drawn renderer, composite_ms
// for a composited one (core/renderer_kind.hpp).
const RollingSeries& renderer_series(const LiveStats& stats, RendererKind renderer);

// The measured parts of the frame as the HUD lists them (frame_shares.hpp takes medians of
// them): the pipeline's span, the renderer's part (named as the renderer table says), the
// comparison view's pixels-off measure and the present. Every part of a frame's work that is
// timed is here, so that "other" is only what is not (issue #63).
inline constexpr const char* kPixelsOffShareName = "pixels off (measure)";
std::vector<FramePart> frame_parts(const LiveStats& stats, RendererKind renderer);

class LiveStats {
 public:
  // At the start of each session frame: a configuration unlike the last one empties every series
  // and makes `frame` the first one counted. Returns whether it did (false on the first frame).
  bool begin_frame(const RunConfig& config, std::uint64_t frame);
  // Whether a timing of session frame `frame`, perhaps arriving frames late, is of the current
  // configuration (one of an earlier configuration is not counted).
  bool counts(std::uint64_t frame) const { return started_ && frame >= first_frame_; }
  std::uint64_t first_frame() const { return first_frame_; }
  const RunConfig& config() const { return config_; }
  // Configurations the session has run, the current one included.
  int configurations() const { return configurations_; }

  RollingSeries frame_ms{240};
  RollingSeries backend_ms{240};
  RollingSeries draw_ms{240};       // a GL-drawn renderer's draw (GL timer)
  RollingSeries composite_ms{240};  // a composited renderer's work, timed by the backend
  RollingSeries present_ms{240};    // GL putting the image on screen (the window blit)
  RollingSeries span_ms{240};  // the whole pipeline (GPU or CPU), on frames that timed it alone
  std::array<RollingSeries, kStageCount> stage_ms;  // GPU or CPU time per pipeline stage
  RollingSeries order_error{240};                   // % of adjacent pairs out of order
  RollingSeries pixels_off{240};  // % of lit pixels off the exact order's image (compare view)
  RollingSeries psnr_db{240};     // the image's PSNR against the same (finite frames only)
  // Host time of the comparison view's pixels-off measure (FrameRunner::pixels_off_ms): on the
  // CPU backend the measure's composites, part of every compared frame.
  RollingSeries pixels_off_ms{240};

 private:
  void clear();

  RunConfig config_;
  std::uint64_t first_frame_ = 0;
  bool started_ = false;
  int configurations_ = 0;
};

}  // namespace particles
