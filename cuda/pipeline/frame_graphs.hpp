#pragma once
// The graph cache: each frame plan's executable graphs, captured on its first frame and
// replayed by every frame with an equal plan until reset() drops them (they hold the buffers'
// addresses). Going back to a plan is free; the first visit costs one capture + instantiate
// (bench/switch_bench measures both).
//
// A plan has one graph per frame slot: they differ only in which timing events their marker
// nodes record, so that a slot's timings can be read while the other slot's frame runs. Stage
// timing (event-record nodes) is optional: where the driver refuses it, it is given up for good,
// and untimed graphs are built instead.
#include <cuda_runtime.h>

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/frame_plan.hpp"
#include "cuda/common/cuda_handles.hpp"
#include "cuda/pipeline/stage_timing.hpp"

namespace particles::cuda {

struct PlanGraphs {
  FramePlan plan;
  std::array<GraphExec, 2> execs;  // one per frame slot, every stage boundary timed
  // The same frames with only the first and the last boundary timed (the span), which most
  // frames run (FrameSettings::stage_sample_period); each made on its first use, so that a
  // switch to a new plan spreads its captures over the frames after it. Never for an untimed
  // graph.
  std::array<GraphExec, 2> span_execs;
  bool timed = false;
  MarkMap marks{};
  MarkMap span_marks{};
};

// Records one frame of `plan` on the capturing stream, stepping frame slot `slot` (which state
// buffer is read, which written), its boundaries recording timing slot `timing_slot`'s events
// (< 0: untimed), every boundary when `stages`, else the span's ends; fills `marks`.
using RecordFrame = std::function<void(const FramePlan& plan, int slot, int timing_slot,
                                       bool stages, MarkMap& marks)>;

class FrameGraphs {
 public:
  FrameGraphs(cudaStream_t stream, RecordFrame record);

  // The plan's graphs, built now if no frame has run it since clear().
  PlanGraphs& ensure(const FramePlan& plan);
  // The slot's graph of those: every stage timed, or the span alone (captured on first use).
  const GraphExec& exec(PlanGraphs& graphs, int slot, bool stages);
  void clear() { graphs_.clear(); }

  std::uint64_t built() const noexcept { return built_; }
  bool timed_ok() const noexcept { return timed_ok_; }

 private:
  PlanGraphs build(const FramePlan& plan, bool timed);
  GraphExec capture(const FramePlan& plan, int slot, bool timed, bool stages, MarkMap& marks);

  cudaStream_t stream_;
  RecordFrame record_;
  std::vector<PlanGraphs> graphs_;  // every plan built since clear(), newest last
  std::uint64_t built_ = 0;
  bool timed_ok_ = true;
};

}  // namespace particles::cuda
