#pragma once
// One frame's measurements, as the HUD shows them and the report writes them.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/frame_types.hpp"
#include "core/renderer_kind.hpp"

namespace particles {

struct FrameRecord {
  std::uint64_t frame = 0;
  double frame_ms = 0.0;       // CPU wall time of the whole frame
  double backend_ms = 0.0;     // CPU wall time spent in the backend's run_frame
  double draw_ms = -1.0;       // GL timer query of the particle draw; -1 until it is read back
  double composite_ms = -1.0;  // the tile compositor (composite renderer); -1 until read back
  double present_ms = -1.0;    // GL timer query of the image's blit to the window; -1 if none
  RendererKind renderer = RendererKind::raster;
  std::array<float, kStageCount> stage_ms{-1.0f, -1.0f, -1.0f, -1.0f, -1.0f};  // -1: not timed
  float span_ms = -1.0f;  // the whole pipeline (StageTimes::span_ms); -1: not timed
  // Whether the backend's timings of this frame were recorded: every report holds the stages,
  // the span or both.
  bool timed() const { return stage_ms[0] >= 0.0f || span_ms >= 0.0f; }
  SortPath path = SortPath::full;
  float order_error = -1.0f;  // FrameInfo::order_error (a fraction); -1: not measured
  float pixels_off = -1.0f;   // % of lit pixels off the exact order's image; -1: not measured
};

// Records by frame number, in frame order. With a bound `keep` > 0 only the newest keep to
// 2 * keep frames are held (the oldest keep are dropped at once, so a push costs O(1) amortised):
// memory stays bounded however long an interactive session runs. keep == 0 holds every frame.
class FrameHistory {
 public:
  explicit FrameHistory(std::size_t keep = 0) : keep_(keep) {}
  // The record of frame first_frame() + records().size(), the next one.
  void push(const FrameRecord& record);
  // The record of `frame`, or nullptr when it was never pushed or has been dropped.
  FrameRecord* find(std::uint64_t frame);
  const std::vector<FrameRecord>& records() const { return records_; }
  std::uint64_t first_frame() const { return first_; }
  void set_keep(std::size_t keep) { keep_ = keep; }

 private:
  std::size_t keep_;
  std::vector<FrameRecord> records_;
  std::uint64_t first_ = 0;
};

// Writes the per-frame CSV report; throws with the path on I/O failure.
void write_frame_report(const std::string& path, const std::vector<FrameRecord>& frames,
                        const std::string& algorithm, const std::string& backend,
                        std::uint32_t count);

}  // namespace particles
