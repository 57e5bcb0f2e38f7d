#include "app/main/live_stats.hpp"

#include <algorithm>

namespace particles {

RunConfig normalized(RunConfig c) {
  c.choices = applicable_only(c.choices);
  return c;
}

std::string describe(const RunConfig& config, const std::string& scene_name) {
  const FrameChoices& c = config.choices;
  std::string d = scene_name + ", " + std::to_string(config.count) + " particles, " +
                  config.backend + " backend, " + std::string(to_string(c.algorithm)) +
                  " algorithm, " + std::string(to_string(c.renderer)) + " renderer, ";
  d += c.key_mode == KeyMode::quantized ? std::to_string(c.key_bits) + "-bit quantized keys"
                                        : std::string("exact keys");
  d += ", " + std::string(to_string(c.order)) + " order";
  if (c.order == DrawOrder::stale) d += " (every " + std::to_string(c.order_period) + " frames)";
  if (c.compare) d += ", compared (" + std::string(to_string(c.compare_mode)) + ")";
  return d + ", " + std::to_string(config.width) + "x" + std::to_string(config.height);
}

SummarySpan summary_span(std::uint64_t history_first, std::size_t records,
                         std::uint64_t config_first) {
  if (config_first < history_first) return {0, 0};
  const std::size_t start = std::min<std::size_t>(config_first - history_first, records);
  const std::size_t warmup = std::min<std::size_t>((records - start) / 10, 30);
  return {start + warmup, warmup};
}

const RollingSeries& renderer_series(const LiveStats& stats, RendererKind renderer) {
  return renderer_info(renderer).path == RendererPath::gl_draw ? stats.draw_ms : stats.composite_ms;
}

std::vector<FramePart> frame_parts(const LiveStats& stats, RendererKind renderer) {
  return {{"pipeline", stats.span_ms.summary().median},
          {std::string(renderer_info(renderer).timed_as),
           renderer_series(stats, renderer).summary().median},
          {kPixelsOffShareName, stats.pixels_off_ms.summary().median},
          {"present", stats.present_ms.summary().median}};
}

bool LiveStats::begin_frame(const RunConfig& config, std::uint64_t frame) {
  const RunConfig c = normalized(config);
  if (started_ && c == config_) return false;
  const bool changed = started_;
  clear();
  config_ = c;
  first_frame_ = frame;
  started_ = true;
  ++configurations_;
  return changed;
}

void LiveStats::clear() {
  for (RollingSeries* s : {&frame_ms, &backend_ms, &draw_ms, &composite_ms, &present_ms, &span_ms,
                           &order_error, &pixels_off, &psnr_db, &pixels_off_ms}) {
    *s = RollingSeries(240);
  }
  for (RollingSeries& s : stage_ms) s = RollingSeries();
}

}  // namespace particles
