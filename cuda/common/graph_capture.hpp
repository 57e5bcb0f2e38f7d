#pragma once
// One way to turn stream work into a CUDA graph, for the frame's graph cache, the benchmarks and
// the tests: capture_graph runs `record` under capture on `stream` and instantiates what it
// enqueued. A throw from `record` (or a refused capture) ends the capture first, so the stream
// and whatever unwinds after it stay usable, then propagates.
#include <cuda_runtime.h>

#include <utility>

#include "cuda/common/check.hpp"
#include "cuda/common/cuda_handles.hpp"

namespace particles::cuda {

// Ends a capture that was interrupted, dropping what it captured, and clears the error state.
inline void abandon_capture(cudaStream_t stream) noexcept {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &status) == cudaSuccess &&
      status != cudaStreamCaptureStatusNone) {
    cudaGraph_t graph = nullptr;
    cudaStreamEndCapture(stream, &graph);
    if (graph != nullptr) cudaGraphDestroy(graph);
  }
  cudaGetLastError();  // the failure was reported by the throw; clear it
}

// mode: ThreadLocal unless `record` itself makes calls a capture forbids on other streams of
// this thread (the compositor polls its earlier reports' events: Relaxed).
template <class Record>
GraphExec capture_graph(cudaStream_t stream, Record&& record,
                        cudaStreamCaptureMode mode = cudaStreamCaptureModeThreadLocal) {
  CUDA_CHECK(cudaStreamBeginCapture(stream, mode));
  try {
    std::forward<Record>(record)();
  } catch (...) {
    abandon_capture(stream);
    throw;
  }
  cudaGraph_t raw = nullptr;
  const cudaError_t ended = cudaStreamEndCapture(stream, &raw);
  const Graph graph(raw);
  if (ended != cudaSuccess) abandon_capture(stream);
  CUDA_CHECK(ended);
  cudaGraphExec_t exec = nullptr;
  CUDA_CHECK(cudaGraphInstantiate(&exec, graph.get(), 0));
  return GraphExec(exec);
}

}  // namespace particles::cuda
