#include "app/main/frame_shares.hpp"

#include <algorithm>

namespace particles {

FrameShares account_frame(double frame_ms, const std::vector<FramePart>& parts) {
  FrameShares out;
  out.frame_ms = std::max(frame_ms, 0.0);
  for (const FramePart& p : parts) {
    if (p.ms <= 0.0) continue;
    out.parts.push_back(p);
    out.measured_ms += p.ms;
  }
  out.other_ms = std::max(out.frame_ms - out.measured_ms, 0.0);
  out.overlap_ms = std::max(out.measured_ms - out.frame_ms, 0.0);
  if (out.other_ms > 0.0) out.parts.push_back({kOtherShareName, out.other_ms});
  const double whole = std::max(out.frame_ms, out.measured_ms);
  for (const FramePart& p : out.parts)
    out.percent.push_back(whole > 0.0 ? 100.0 * p.ms / whole : 0.0);
  return out;
}

}  // namespace particles
