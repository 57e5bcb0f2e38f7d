#pragma once
// Where a frame's time goes, accounted for in full: the measured parts (the pipeline or its
// stages, the renderer's draw or composite, the present) and "other", the rest of the frame's
// wall time (host work between them, waiting on the present), so the shares always add up to
// 100%. The HUD lists them and the bench chart stacks them; both take medians.
#include <string>
#include <vector>

namespace particles {

inline constexpr const char* kOtherShareName = "other (host, present wait)";

struct FramePart {
  std::string name;
  double ms = 0.0;
};

struct FrameShares {
  double frame_ms = 0.0;     // the whole frame (CPU wall time)
  double measured_ms = 0.0;  // the parts' sum
  // The frame's time outside the parts: frame_ms - measured_ms, or 0 where the parts exceed the
  // frame. They can: GPU work runs beside the host's, and a median of each part need not sum to
  // the median frame. overlap_ms says by how much (0 otherwise).
  double other_ms = 0.0;
  double overlap_ms = 0.0;
  // The parts given (those with a time above 0), then kOtherShareName where other_ms > 0; each
  // one's percent is of max(frame_ms, measured_ms), so they sum to 100 whenever either is above 0.
  std::vector<FramePart> parts;
  std::vector<double> percent;
};

// Parts with a time of 0 or less (not measured) are left out.
FrameShares account_frame(double frame_ms, const std::vector<FramePart>& parts);

}  // namespace particles
