#pragma once
// The frame's stage timing: a pool of CUDA events, two sets of stage boundaries (one per frame
// slot, so that one slot's times are read while the other slot's frame runs), which the captured
// graphs record as event-record nodes; and a StageMarker that marks those boundaries while a
// frame is recorded, with an NVTX range around each stage's launches so that Nsight Systems
// names the stages the HUD times (the ranges are pushed while the graph is captured, which is
// when the launches are made on the host; a replay is one graph launch).
#include <cuda_runtime.h>

#include <array>
#include <cstdint>

#include "core/frame_types.hpp"
#include "cuda/common/cuda_handles.hpp"

namespace particles::cuda {

// Stage boundary k's timing event is marks[k]: a boundary with no work since the previous one
// (fused stages) reuses that one's event instead of adding a node, since each event-record node
// costs the frame a few microseconds of graph time. Marks k and k+1 bracket Stage k.
using MarkMap = std::array<int, kStageCount + 1>;

// How the frame in a slot was timed, so that its events can be read back.
struct SlotTiming {
  bool timed = false;  // its graph has event-record nodes
  MarkMap marks{};
  bool stages = true;       // every stage boundary recorded, not only the span's two ends
  bool span_alone = false;  // a stage-timed frame whose others time only the span
};

class StageEventPool {
 public:
  StageEventPool();  // makes every event once: a capture must not create any
  cudaEvent_t event(int slot, int boundary) const { return events_[slot][boundary].get(); }
  // The stage times of `frame`, which ran in `slot` timed as `timing`; none (frame < 0) where it
  // was not timed or its events were not recorded (the first frame of a new graph).
  StageTimes times_of(int slot, const SlotTiming& timing, std::int64_t frame) const;

 private:
  std::array<std::array<Event, kStageCount + 1>, 2> events_;
};

// The stage boundaries of one frame under capture, in order: begin(), then a boundary (or a
// boundary without work) per stage, then end(). A frame timed by its span alone records only
// its first and last boundary: the ones between are marked but nothing reads them.
class StageMarker {
 public:
  // timing_slot: whose events the boundaries record, < 0 for an untimed graph; every_boundary:
  // every stage timed, not only the span.
  StageMarker(const StageEventPool& pool, cudaStream_t stream, int timing_slot, bool every_boundary,
              MarkMap& marks);
  ~StageMarker();  // closes the stage's range when recording stopped inside it (a throw)
  StageMarker(const StageMarker&) = delete;
  StageMarker& operator=(const StageMarker&) = delete;

  void begin();  // boundary 0: the frame, and its first stage, start
  // Boundary k between two stages: stage k - 1 ends, stage k starts.
  void boundary(int k);
  // Boundary k after a stage with no work of its own (its work ran in the one before): it
  // shares boundary k - 1's event.
  void no_work_since_last(int k);
  // The frame's last boundary k: always recorded; stages after it have no work and share it.
  void end(int k);

 private:
  void record(int k, bool always);
  void next_range(int k);  // closes the open stage's range and opens stage k's (if any)

  const StageEventPool& pool_;
  cudaStream_t stream_;
  int timing_slot_;
  bool every_boundary_;
  MarkMap& marks_;
  bool range_open_ = false;
};

}  // namespace particles::cuda
