#pragma once
// The one device check of the sort test binary: its GPU tests skip with the reason when no CUDA
// device is present (CI), instead of failing.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <string>

namespace particles::cuda::testing {

// Empty when a CUDA device is present, else why not.
inline std::string device_missing_reason() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) return std::string("no CUDA device: ") + cudaGetErrorString(e);
  if (count == 0) return "no CUDA device present";
  return {};
}

inline bool device_present() {
  static const bool present = device_missing_reason().empty();
  return present;
}

}  // namespace particles::cuda::testing

#define SKIP_WITHOUT_DEVICE()                                                              \
  do {                                                                                     \
    static const std::string reason = ::particles::cuda::testing::device_missing_reason(); \
    if (!reason.empty()) GTEST_SKIP() << reason;                                           \
  } while (0)
