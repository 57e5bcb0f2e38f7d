#pragma once
// Shared helpers of the GPU pipeline tests: device detection (tests skip with a clear reason on
// machines without a GPU, such as CI), scenes and camera views; host<->device copies come from
// device_copies.hpp.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "core/models/model_names.hpp"
#include "core/scene_desc.hpp"
#include "core/view_depth.hpp"
#include "cuda/common/check.hpp"
#include "cuda/common/cuda_handles.hpp"
#include "tests/gpu/device_copies.hpp"
#include "tests/unit/test_points.hpp"

namespace particles::test {

inline bool has_cuda_device() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

#define REQUIRE_CUDA_DEVICE() \
  if (!::particles::test::has_cuda_device()) GTEST_SKIP() << "no CUDA device"

template <class T>
cuda::DeviceBuffer<T> device_value(const T& value) {
  return to_device(std::vector<T>{value});
}

// The points model's cloud is test_points() in host memory, as a loaded scene's is: what the
// CPU twins and DevicePipeline::reset (which uploads it) take.
inline ModelParams scene(Model model, std::uint32_t seed = 7) {
  ModelParams p;
  p.model = model;
  p.seed = seed;
  return with_test_points(p);
}

// scene(model) for the tests that launch the kernels themselves: the points model's cloud
// uploaded, and `params` pointing at the device copy.
struct DeviceScene {
  explicit DeviceScene(Model model, std::uint32_t seed = 7) : params(scene(model, seed)) {
    if (model == Model::points) {
      points = to_device(test_points());
      params.points.records = points.data();
    }
  }
  DeviceScene(const DeviceScene&) = delete;
  DeviceScene& operator=(const DeviceScene&) = delete;

  ModelParams params;
  cuda::DeviceBuffer<PointRecord> points;
};

// A camera orbiting the origin at `distance`, looking at it; frame-dependent so depth orders
// keep changing in the pipeline tests.
inline DepthFrame orbit_view(int frame, float distance = 25.0f) {
  const float yaw = 0.4f + 0.01f * static_cast<float>(frame);
  const float pitch = 0.45f;
  const Vec3 eye{distance * std::cos(pitch) * std::sin(yaw), distance * std::sin(pitch),
                 distance * std::cos(pitch) * std::cos(yaw)};
  const float len = length(eye);
  return {eye, Vec3{-eye.x / len, -eye.y / len, -eye.z / len}};
}

}  // namespace particles::test
