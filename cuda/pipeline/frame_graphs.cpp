#include "cuda/pipeline/frame_graphs.hpp"

#include <exception>
#include <utility>

#include "cuda/common/check.hpp"

namespace particles::cuda {
namespace {

// Ends a capture that an exception interrupted, so the stream is usable again.
void abandon_capture(cudaStream_t stream) noexcept {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &status) == cudaSuccess &&
      status != cudaStreamCaptureStatusNone) {
    cudaGraph_t graph = nullptr;
    cudaStreamEndCapture(stream, &graph);
    if (graph != nullptr) cudaGraphDestroy(graph);
  }
  cudaGetLastError();  // the failure was reported by the throw; clear it
}

}  // namespace

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
  CUDA_CHECK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
  try {
    record_(plan, slot, timed ? slot : -1, stages, marks);
  } catch (...) {
    abandon_capture(stream_);  // the stream, and what unwinds after this, usable again
    throw;
  }
  cudaGraph_t raw = nullptr;
  CUDA_CHECK(cudaStreamEndCapture(stream_, &raw));
  const Graph graph(raw);
  cudaGraphExec_t exec = nullptr;
  CUDA_CHECK(cudaGraphInstantiate(&exec, graph.get(), 0));
  return GraphExec(exec);
}

}  // namespace particles::cuda
