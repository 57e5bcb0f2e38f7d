#include "cuda/stages/keys/depth_keys.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/scene_models.hpp"
#include "cuda/auto/partition_append.cuh"
#include "cuda/common/check.hpp"
#include "cuda/common/launch_grid.hpp"

namespace particles::cuda {
namespace {

constexpr int kThreads = 256;

struct KeyFn {
  DepthFrame view;
  float depth_min, depth_max;
  KeyMode mode;
  int bits;
  DepthMetric metric;

  // Only the position is needed: one 16-byte load of (px, py, pz, age) per gathered particle.
  __device__ __forceinline__ std::uint32_t operator()(const ParticleState* s) const {
    const float4 a = __ldg(reinterpret_cast<const float4*>(s));
    const float depth = sort_depth(view, Vec3{a.x, a.y, a.z}, metric);
    return of_depth(depth);
  }
  __device__ __forceinline__ std::uint32_t of_exact_key(std::uint32_t exact) const {
    return mode == KeyMode::exact ? exact : of_depth(depth_of_exact_key(exact));
  }
  __device__ __forceinline__ std::uint32_t of_depth(float depth) const {
    return mode == KeyMode::exact ? exact_depth_key(depth)
                                  : quantized_depth_key(depth, depth_min, depth_max, bits);
  }
};

__global__ void __launch_bounds__(kThreads) depth_keys_kernel(DepthKeyArgs a) {
  KeyFn key{a.exact_keys != nullptr ? DepthFrame{} : *a.view, 0.0f, 0.0f, a.mode, a.bits, a.metric};
  if (a.mode == KeyMode::quantized) {
    key.depth_min = a.extents->depth_min;
    key.depth_max = a.extents->depth_max;
  }
  detail::make_and_append_keys(a.append, a.count, [&](std::uint32_t i) {
    const std::uint32_t p = a.order != nullptr ? a.order[i] : i;
    const std::uint32_t k =
        a.exact_keys != nullptr ? key.of_exact_key(a.exact_keys[i]) : key(a.state + p);
    a.keys[i] = k;
    if (a.values != a.order) a.values[i] = p;
    return k;
  });
}

}  // namespace

void launch_depth_keys(const DepthKeyArgs& args, cudaStream_t stream) {
  if (args.mode == KeyMode::quantized && (args.bits < 1 || args.bits > 32)) {
    throw std::invalid_argument("launch_depth_keys: quantized key bits must be in 1..32, got " +
                                std::to_string(args.bits));
  }
  if (args.metric != DepthMetric::view_depth &&
      (args.mode != KeyMode::exact || args.exact_keys != nullptr)) {
    throw std::invalid_argument(
        "launch_depth_keys: keys of the distance to the eye are exact and made from the state");
  }
  if (args.exact_keys != nullptr && args.order != nullptr) {
    throw std::invalid_argument("launch_depth_keys: exact keys are taken in the identity order");
  }
  if (args.count == 0) return;
  depth_keys_kernel<<<detail::grid_stride_blocks(args.count, kThreads, 8), kThreads, 0, stream>>>(
      args);
  CUDA_CHECK_LAUNCH("depth_keys_kernel", stream);
}

}  // namespace particles::cuda
