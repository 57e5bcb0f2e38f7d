// Extents reduction benchmark: the pipeline's fused single-pass kernel against CUB
// (DeviceReduce::TransformReduce with the same Extents merge as its operator, and nine separate
// min/max reductions for reference) and against the bandwidth floor (bytes read at 4.2 TB/s,
// the H200's nominal HBM3e rate). Median of many runs after warm-up, timed with CUDA events.
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include "core/scene_models.hpp"
#include "cuda/common/cuda_handles.hpp"
#include "cuda/stages/reduce/extents_reduce.hpp"
#include "cuda/stages/sim/simulate.hpp"

namespace particles::cuda {
namespace {

constexpr int kWarmup = 10;
constexpr int kRuns = 101;
constexpr double kPeakBytesPerSecond = 4.2e12;

struct ToExtents {
  DepthFrame view;
  __device__ Extents operator()(const ParticleState& s) const {
    Extents e;
    const Vec3 p = position_of(s);
    extents_add(e, p, view_depth(view, p), speed_of(s));
    return e;
  }
};

struct MergeExtents {
  __device__ Extents operator()(const Extents& a, const Extents& b) const {
    return extents_merge(a, b);
  }
};

// One of the nine scalar fields, for the "nine separate reductions" reference.
struct Field {
  DepthFrame view;
  int which;
  __device__ float operator()(const ParticleState& s) const {
    switch (which) {
      case 0:
      case 3:
        return s.px;
      case 1:
      case 4:
        return s.py;
      case 2:
      case 5:
        return s.pz;
      case 6:
      case 7:
        return view_depth(view, position_of(s));
      default:
        return speed_of(s);
    }
  }
};
struct MinOp {
  __device__ float operator()(float a, float b) const { return min_f(a, b); }
};
struct MaxOp {
  __device__ float operator()(float a, float b) const { return max_f(a, b); }
};

template <class F>
double median_us(cudaStream_t stream, F&& launch) {
  Event start = Event::create(true), stop = Event::create(true);
  for (int i = 0; i < kWarmup; ++i) launch();
  std::vector<float> ms(kRuns);
  for (int i = 0; i < kRuns; ++i) {
    CUDA_CHECK(cudaEventRecord(start.get(), stream));
    launch();
    CUDA_CHECK(cudaEventRecord(stop.get(), stream));
    CUDA_CHECK(cudaEventSynchronize(stop.get()));
    CUDA_CHECK(cudaEventElapsedTime(&ms[i], start.get(), stop.get()));
  }
  std::nth_element(ms.begin(), ms.begin() + kRuns / 2, ms.end());
  return 1000.0 * ms[kRuns / 2];
}

void bench(std::uint32_t n, cudaStream_t stream) {
  DeviceBuffer<ParticleState> state(n);
  ModelParams params;
  launch_init(params, state.data(), n, stream);
  const DepthFrame view{{8.0f, 6.0f, 20.0f}, {-0.36f, -0.27f, -0.893f}};
  DeviceBuffer<DepthFrame> d_view(1);
  CUDA_CHECK(cudaMemcpyAsync(d_view.data(), &view, sizeof view, cudaMemcpyHostToDevice, stream));
  DeviceBuffer<unsigned char> ws(extents_workspace_bytes());
  init_extents_workspace(ws.data(), stream);
  DeviceBuffer<Extents> fused_out(1), cub_out(1);
  DeviceBuffer<float> fields(9);

  const Extents init;
  std::size_t temp_bytes = 0, field_bytes = 0;
  CUDA_CHECK(cub::DeviceReduce::TransformReduce(nullptr, temp_bytes, state.data(), cub_out.data(),
                                                n, MergeExtents{}, ToExtents{view}, init, stream));
  CUDA_CHECK(cub::DeviceReduce::TransformReduce(nullptr, field_bytes, state.data(), fields.data(),
                                                n, MinOp{}, Field{view, 0}, 0.0f, stream));
  DeviceBuffer<unsigned char> temp(std::max(temp_bytes, field_bytes));

  auto fused = [&] {
    launch_extents(state.data(), n, d_view.data(), fused_out.data(), ws.data(), stream);
  };
  auto cub_fused = [&] {
    CUDA_CHECK(cub::DeviceReduce::TransformReduce(temp.data(), temp_bytes, state.data(),
                                                  cub_out.data(), n, MergeExtents{},
                                                  ToExtents{view}, init, stream));
  };
  auto cub_nine = [&] {
    for (int k = 0; k < 9; ++k) {
      std::size_t bytes = temp.size();
      const bool is_min = k < 3 || k == 6;
      if (is_min) {
        CUDA_CHECK(cub::DeviceReduce::TransformReduce(temp.data(), bytes, state.data(),
                                                      fields.data() + k, n, MinOp{}, Field{view, k},
                                                      FLT_MAX, stream));
      } else {
        CUDA_CHECK(cub::DeviceReduce::TransformReduce(temp.data(), bytes, state.data(),
                                                      fields.data() + k, n, MaxOp{}, Field{view, k},
                                                      k == 8 ? 0.0f : -FLT_MAX, stream));
      }
    }
  };
  const double t_fused = median_us(stream, fused);
  const double t_cub = median_us(stream, cub_fused);
  const double t_nine = median_us(stream, cub_nine);

  Extents a, b;
  CUDA_CHECK(cudaMemcpy(&a, fused_out.data(), sizeof a, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&b, cub_out.data(), sizeof b, cudaMemcpyDeviceToHost));
  const bool same = std::memcmp(&a, &b, sizeof a) == 0;

  const double bytes = static_cast<double>(n) * sizeof(ParticleState);
  const double floor_us = bytes / kPeakBytesPerSecond * 1e6;
  std::printf("| 2^%-2d | %9.1f | %7.0f | %8.2f | %9.1f | %9.1f | %8.1f | %s |\n",
              31 - __builtin_clz(n), t_fused, bytes / t_fused / 1e3, t_fused / floor_us, t_cub,
              t_nine, floor_us, same ? "yes" : "NO");
}

}  // namespace
}  // namespace particles::cuda

int main() {
  using namespace particles::cuda;
  try {
    int device = 0;
    cudaDeviceProp prop{};
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    std::printf("extents reduction, %s, ParticleState 32 B, median of %d runs after %d warm-up\n",
                prop.name, kRuns, kWarmup);
    std::printf(
        "| N    | fused us  | GB/s    | x floor  | cub op us | cub 9x us | floor us | "
        "fused == cub |\n");
    std::printf(
        "|------|-----------|---------|----------|-----------|-----------|----------|"
        "--------------|\n");
    Stream stream = Stream::create();
    for (int log2n : {20, 22, 24}) bench(1u << log2n, stream.get());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "extents_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
