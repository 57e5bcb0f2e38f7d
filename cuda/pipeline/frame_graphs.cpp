#include "cuda/pipeline/frame_graphs.hpp"

#include <exception>
#include <utility>

#include "cuda/common/graph_capture.hpp"

namespace particles::cuda {

FrameGraphs::FrameGraphs(cudaStream_t stream, RecordFrame record)
    : stream_(stream), record_(std::move(record)) {}

PlanGraphs& FrameGraphs::ensure(const FramePlan& plan) {
  for (PlanGraphs& g : graphs_)
    if (g.plan == plan) return g;
  // An untimed graph must always build.
  bool built = false;
  if (timed_ok_) {
    try {
      graphs_.push_back(build(plan, true));
      built = true;
    } catch (const std::exception&) {
      timed_ok_ = false;
    }
  }
  if (!built) graphs_.push_back(build(plan, false));
  ++built_;
  return graphs_.back();
}

const GraphExec& FrameGraphs::exec(PlanGraphs& graphs, int slot, bool stages) {
  if (stages) return graphs.execs[slot];
  if (!graphs.span_execs[slot]) {
    graphs.span_execs[slot] = capture(graphs.plan, slot, true, false, graphs.span_marks);
  }
  return graphs.span_execs[slot];
}

PlanGraphs FrameGraphs::build(const FramePlan& plan, bool timed) {
  // One capture per slot: each slot's markers record that slot's events directly.
  PlanGraphs g;
  g.plan = plan;
  g.timed = timed;
  for (int slot = 0; slot < 2; ++slot) g.execs[slot] = capture(plan, slot, timed, true, g.marks);
  return g;
}

GraphExec FrameGraphs::capture(const FramePlan& plan, int slot, bool timed, bool stages,
                               MarkMap& marks) {
  return capture_graph(stream_, [&] { record_(plan, slot, timed ? slot : -1, stages, marks); });
}

}  // namespace particles::cuda
