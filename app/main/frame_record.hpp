#pragma once
// One frame's measurements, as the HUD shows them and the report writes them.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/frame_types.hpp"

namespace particles {

struct FrameRecord {
  std::uint64_t frame = 0;
  double frame_ms = 0.0;    // CPU wall time of the whole frame
  double backend_ms = 0.0;  // CPU wall time spent in the backend's run_frame
  double draw_ms = -1.0;    // GL timer query of the particle draw; -1 until it is read back
  std::array<float, kStageCount> stage_ms{-1.0f, -1.0f, -1.0f, -1.0f, -1.0f};  // -1: not timed
  SortPath path = SortPath::full;
};

// Writes the per-frame CSV report; throws with the path on I/O failure.
void write_frame_report(const std::string& path, const std::vector<FrameRecord>& frames,
                        const std::string& algorithm, const std::string& backend,
                        std::uint32_t count);

}  // namespace particles
