#pragma once
// The measurements of one `particles bench` invocation and the files made from them.
#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "app/main/frame_stats.hpp"
#include "core/frame_types.hpp"

namespace particles {

struct BenchFrame {
  std::array<float, kStageCount> stage_ms{};  // -1 where no timing arrived
  float span_ms = -1.0f;       // the pipeline's span (StageTimes::span_ms); -1 where none
  float draw_ms = -1.0f;       // GL rasterization of the particles (raster renderer); -1 if none
  float composite_ms = -1.0f;  // the tile compositor (composite renderer); -1 where none
  float present_ms = -1.0f;    // GL putting the frame's image on screen (the blit); -1 if none
  float frame_ms = 0.0f;       // CPU wall time of the whole frame (backend + draw submission)
  SortPath path = SortPath::full;
  float order_error = -1.0f;  // FrameInfo::order_error (a fraction); -1 where not measured
  // The share (%) of lit pixels the frame's image gets visibly wrong against the exact order's
  // (core/pixels_off.hpp); -1 where not measured.
  float pixels_off = -1.0f;
  // The image's PSNR against the exact order's, dB (PixelsOff::psnr_db; +infinity where they are
  // the same); -1 where not measured.
  float psnr_db = -1.0f;
  bool verified = false;  // true only when --verify checked this frame and it passed
};

struct BenchRun {
  std::string scene;
  std::string backend;
  std::string algorithm;
  std::string key_mode;
  std::string renderer = "raster";  // to_string(RendererKind)
  std::string order = "exact";      // to_string(DrawOrder)
  int order_period = kDefaultOrderPeriod;
  std::uint32_t count = 0;
  bool fused_stages = true;  // CUDA: simulate/extents/keys as one kernel (see FrameSettings)
  int stage_every = 1;       // frames per stage-timed frame (see BenchConfig)
  // The stages whose work ran inside simulate's pass (StageTimes::in_simulate) in the run's
  // stage-timed frames: their times are 0, and the table says "in simulate" instead.
  std::array<bool, kStageCount> in_simulate{};
  std::vector<BenchFrame> frames;
  std::uint64_t verify_failures = 0;
  std::string first_failure;

  // Per-stage summaries over the frames that have a timing.
  Summary stage(int s) const;
  Summary span() const;
  Summary draw() const;
  Summary composite() const;
  Summary present() const;
  Summary frame() const;
  // In percent, over the frames that measured them: the drawn order's adjacent pairs out of
  // exact order (FrameInfo::order_error), and the lit pixels off (BenchFrame::pixels_off).
  Summary descents() const;
  Summary pixels_off() const;
  Summary psnr() const;
};

struct BenchResults {
  std::string gl_renderer;
  std::string date;     // UTC, ISO 8601
  std::string command;  // the command line that produced it
  bool verify = false;
  std::vector<BenchRun> runs;
};

// A run's span median against that of the radix run with the same scene, backend, keys, renderer,
// count, stage fusion and stage period: the frame pipeline's measure of what an algorithm saves
// (its target for auto on the coherent galaxy is at most half of radix).
struct SpanAgainstRadix {
  std::size_t run = 0;         // index into BenchResults::runs; never a radix run
  std::size_t radix_run = 0;   // the radix run it is measured against
  double span_ms = 0.0;        // the run's span median
  double radix_span_ms = 0.0;  // radix's
  double ratio = 0.0;          // span_ms / radix_span_ms
};
// One entry per run that has such a radix run and a span (both medians above zero), in run order.
std::vector<SpanAgainstRadix> spans_against_radix(const BenchResults& results);
// The auto run that costs the most against radix (the largest ratio of spans_against_radix among
// auto's runs; the first of equals), or none when no auto run has a radix run to compare with.
std::optional<SpanAgainstRadix> worst_auto_against_radix(const BenchResults& results);
// "worst auto / radix: 1.274x (galaxy, 65536 particles, exact keys, composite, cuda)", or "".
std::string worst_auto_line(const BenchResults& results);

void write_bench_csv(const std::filesystem::path& file, const BenchResults& results);
void write_bench_json(const std::filesystem::path& file, const BenchResults& results);
// An SVG chart: per run, stacked bars of the stage medians (or the span), composite, draw and
// present, and the median whole frame beside them.
void write_bench_chart(const std::filesystem::path& file, const BenchResults& results);
// The paths that sorted a run's frames for its table row: "quicksort", or with frame counts
// where they varied, "insertion 590, radix 10".
std::string sort_paths_cell(const BenchRun& run);
// The summary table: median and p99 per stage, per run, as Markdown; then, where the runs
// include radix, each other run's span against radix's (spans_against_radix).
std::string bench_table(const BenchResults& results);

}  // namespace particles
