#pragma once
// Move-only owners of CUDA allocations of `count` elements of a trivially copyable T: device
// memory (DeviceBuffer) and pinned host memory (PinnedBuffer). Contents start uninitialised.
// Allocation happens at construction or resize (never in a hot path) and throws CudaError with
// the call, file and line; the destructor frees and never throws (a failing free at shutdown has
// nothing useful to report to).
#include <cuda_runtime.h>

#include <cstddef>
#include <span>
#include <utility>

#include "cuda/common/check.hpp"

namespace particles::cuda {

namespace detail {
struct DeviceMemory {
  static void* allocate(std::size_t bytes) {
    void* p = nullptr;
    CUDA_CHECK(cudaMalloc(&p, bytes));
    return p;
  }
  static void release(void* p) noexcept { cudaFree(p); }
};
struct PinnedMemory {
  static void* allocate(std::size_t bytes) {
    void* p = nullptr;
    CUDA_CHECK(cudaMallocHost(&p, bytes));
    return p;
  }
  static void release(void* p) noexcept { cudaFreeHost(p); }
};

template <class T, class Memory>
class Buffer {
 public:
  Buffer() = default;
  explicit Buffer(std::size_t count) { resize(count); }
  ~Buffer() { release(); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  Buffer(Buffer&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  Buffer& operator=(Buffer&& o) noexcept {
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
    if (count > 0) data_ = static_cast<T*>(Memory::allocate(count * sizeof(T)));
    size_ = count;
  }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  std::size_t size_bytes() const noexcept { return size_ * sizeof(T); }
  bool empty() const noexcept { return size_ == 0; }
  // For device memory a view to pass around, never to dereference on the host.
  std::span<T> span() noexcept { return {data_, size_}; }
  std::span<const T> span() const noexcept { return {data_, size_}; }

 private:
  void release() noexcept {
    if (data_ != nullptr) Memory::release(data_);
    data_ = nullptr;
    size_ = 0;
  }
  T* data_ = nullptr;
  std::size_t size_ = 0;
};
}  // namespace detail

template <class T>
using DeviceBuffer = detail::Buffer<T, detail::DeviceMemory>;
template <class T>
using PinnedBuffer = detail::Buffer<T, detail::PinnedMemory>;

}  // namespace particles::cuda
