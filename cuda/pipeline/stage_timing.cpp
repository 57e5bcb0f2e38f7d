#include "cuda/pipeline/stage_timing.hpp"

#include <nvtx3/nvToolsExt.h>

#include "cuda/common/check.hpp"

namespace particles::cuda {

StageEventPool::StageEventPool() {
  for (auto& slot : events_) {
    for (Event& e : slot) e = Event::create(true);
  }
}

StageTimes StageEventPool::times_of(int slot, const SlotTiming& timing, std::int64_t frame) const {
  StageTimes t;
  if (!timing.timed || frame < 0) return t;
  const auto elapsed = [&](int from, int to, float& ms) {
    if (from == to) return true;
    if (cudaEventElapsedTime(&ms, event(slot, from), event(slot, to)) == cudaSuccess) return true;
    cudaGetLastError();
    return false;  // not recorded (e.g. the first frame of a new graph): report none
  };
  if (timing.stages) {
    for (int k = 0; k < kStageCount; ++k) {
      if (!elapsed(timing.marks[k], timing.marks[k + 1], t.ms[k])) return StageTimes{};
    }
    if (!timing.span_alone) t.span_ms = t.total();
  } else {
    if (!elapsed(timing.marks[0], timing.marks[kStageCount], t.span_ms)) return StageTimes{};
    t.has_stages = false;
  }
  t.frame = frame;
  return t;
}

StageMarker::StageMarker(const StageEventPool& pool, cudaStream_t stream, int timing_slot,
                         bool every_boundary, MarkMap& marks)
    : pool_(pool),
      stream_(stream),
      timing_slot_(timing_slot),
      every_boundary_(every_boundary),
      marks_(marks) {}

StageMarker::~StageMarker() {
  if (range_open_) nvtxRangePop();
}

void StageMarker::begin() {
  record(0, true);
  next_range(0);
}

void StageMarker::boundary(int k) {
  record(k, false);
  next_range(k);
}

void StageMarker::no_work_since_last(int k) {
  marks_[k] = marks_[k - 1];
  next_range(k);
}

void StageMarker::end(int k) {
  record(k, true);
  for (int j = k + 1; j <= kStageCount; ++j) marks_[j] = k;
  next_range(kStageCount);
}

void StageMarker::record(int k, bool always) {
  marks_[k] = k;
  if (timing_slot_ < 0 || !(always || every_boundary_)) return;
  CUDA_CHECK(
      cudaEventRecordWithFlags(pool_.event(timing_slot_, k), stream_, cudaEventRecordExternal));
}

void StageMarker::next_range(int k) {
  if (range_open_) nvtxRangePop();
  range_open_ = k < kStageCount;
  if (range_open_) nvtxRangePushA(to_string(static_cast<Stage>(k)));
}

}  // namespace particles::cuda
