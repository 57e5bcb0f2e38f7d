#pragma once
// Host <-> device copies of whole arrays for the GPU tests (pipeline and sort binaries alike).
#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "cuda/common/check.hpp"
#include "cuda/common/device_buffer.hpp"

namespace particles::test {

template <class T>
cuda::DeviceBuffer<T> to_device(const std::vector<T>& host) {
  cuda::DeviceBuffer<T> d(host.size());
  if (!host.empty()) {
    CUDA_CHECK(cudaMemcpy(d.data(), host.data(), d.size_bytes(), cudaMemcpyHostToDevice));
  }
  return d;
}

// Into an array that is already there (a sorter's input, refilled every round): host.size()
// elements at `device`.
template <class T>
void upload(T* device, const std::vector<T>& host) {
  if (!host.empty()) {
    CUDA_CHECK(cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
}

template <class T>
std::vector<T> to_host(const T* device, std::size_t count) {
  std::vector<T> host(count);
  if (count > 0) {
    CUDA_CHECK(cudaMemcpy(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost));
  }
  return host;
}

}  // namespace particles::test
