#pragma once
// Move-only owners for CUDA objects (the pipeline, the odd-even sort, tests, benchmarks): a stream,
// an event, an executable graph (arrays: cuda/common/device_buffer.hpp). Destructors never throw
// (a failing destroy at shutdown has nothing useful to report to); constructors throw CudaError.
#include <cuda_runtime.h>

#include <cstddef>
#include <span>
#include <utility>

#include "cuda/common/check.hpp"
#include "cuda/common/device_buffer.hpp"

namespace particles::cuda {

// A handle of type H created by a CUDA call and released by Destroy; move-only.
template <class H, cudaError_t (*Destroy)(H)>
class Handle {
 public:
  Handle() = default;
  explicit Handle(H h) : h_(h) {}
  ~Handle() {
    if (h_ != nullptr) Destroy(h_);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  Handle& operator=(Handle&& o) noexcept {
    if (this != &o) {
      if (h_ != nullptr) Destroy(h_);
      h_ = std::exchange(o.h_, nullptr);
    }
    return *this;
  }
  H get() const noexcept { return h_; }
  explicit operator bool() const noexcept { return h_ != nullptr; }

 private:
  H h_ = nullptr;
};

using GraphExec = Handle<cudaGraphExec_t, cudaGraphExecDestroy>;
using Graph = Handle<cudaGraph_t, cudaGraphDestroy>;

class Stream : public Handle<cudaStream_t, cudaStreamDestroy> {
 public:
  // Non-blocking: the legacy default stream, which GL interop and other libraries may use,
  // must not serialise against the frame.
  static Stream create() {
    cudaStream_t s = nullptr;
    CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    return Stream(s);
  }

 private:
  using Handle::Handle;
};

class Event : public Handle<cudaEvent_t, cudaEventDestroy> {
 public:
  // Timing off unless asked: such events are cheaper to record and to wait on.
  static Event create(bool timing = false) {
    cudaEvent_t e = nullptr;
    CUDA_CHECK(cudaEventCreateWithFlags(&e, timing ? cudaEventDefault : cudaEventDisableTiming));
    return Event(e);
  }

 private:
  using Handle::Handle;
};

}  // namespace particles::cuda
