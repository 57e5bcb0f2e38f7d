#pragma once
// Move-only owners for the CUDA objects the pipeline, its tests and its benchmark hold: device
// and pinned arrays, a stream, an event, an executable graph. Destructors never throw (a failing
// free at shutdown has nothing useful to report to); constructors and resizes throw CudaError.
#include <cuda_runtime.h>

#include <cstddef>
#include <span>
#include <utility>

#include "cuda/check.hpp"

namespace particles::cuda {

namespace detail {
struct DeviceFree {
  void operator()(void* p) const noexcept { cudaFree(p); }
};
struct PinnedFree {
  void operator()(void* p) const noexcept { cudaFreeHost(p); }
};
struct DeviceAlloc {
  static void* allocate(std::size_t bytes) {
    void* p = nullptr;
    CUDA_CHECK(cudaMalloc(&p, bytes));
    return p;
  }
};
struct PinnedAlloc {
  static void* allocate(std::size_t bytes) {
    void* p = nullptr;
    CUDA_CHECK(cudaMallocHost(&p, bytes));
    return p;
  }
};

// An uninitialised array of trivially copyable T; Alloc/Free pick the memory kind.
template <class T, class Alloc, class Free>
class Array {
 public:
  Array() = default;
  explicit Array(std::size_t count) { resize(count); }
  ~Array() { release(); }
  Array(const Array&) = delete;
  Array& operator=(const Array&) = delete;
  Array(Array&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  Array& operator=(Array&& o) noexcept {
    if (this != &o) {
      release();
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
    }
    return *this;
  }

  // Drops the contents; allocates only when the count changes.
  void resize(std::size_t count) {
    if (count == size_) return;
    release();
    if (count > 0) data_ = static_cast<T*>(Alloc::allocate(count * sizeof(T)));
    size_ = count;
  }

  T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  std::size_t size_bytes() const noexcept { return size_ * sizeof(T); }
  std::span<T> span() const noexcept { return {data_, size_}; }

 private:
  void release() noexcept {
    if (data_ != nullptr) Free{}(data_);
    data_ = nullptr;
    size_ = 0;
  }
  T* data_ = nullptr;
  std::size_t size_ = 0;
};
}  // namespace detail

template <class T>
using DeviceArray = detail::Array<T, detail::DeviceAlloc, detail::DeviceFree>;
template <class T>
using PinnedArray = detail::Array<T, detail::PinnedAlloc, detail::PinnedFree>;

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
