// The approximate draw orders on the CUDA pipeline against their CPU twins, frame by frame: the
// CPU stages run on the GPU's own state (the simulations agree only to an ulp, so each frame is
// checked from what the GPU stepped) must give the permutation the GPU drew, and the descents the
// GPU's order error counted must be those the CPU counts in that permutation.
#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <vector>

#include "core/cpu_pipeline.hpp"
#include "cuda/pipeline/device_pipeline.hpp"
#include "tests/gpu/pipeline_test_util.hpp"

namespace particles {
namespace {

struct OrderCase {
  DrawOrder order;
  Algorithm algorithm;
  KeyMode key_mode;
  bool fused;
  int coarse_bits = kDefaultCoarseBits;
};

std::string name_of(const OrderCase& c) {
  std::string s = std::string(to_string(c.order)) + "_" + std::string(to_string(c.algorithm));
  s += c.key_mode == KeyMode::exact ? "_exact" : "_quantized";
  if (c.order == DrawOrder::coarse) s += "_b" + std::to_string(c.coarse_bits);
  return s + (c.fused ? "" : "_apart");
}

class PipelineOrders : public ::testing::TestWithParam<OrderCase> {};

TEST_P(PipelineOrders, EachFrameIsTheCpuTwinsOrderAndItsOrderError) {
  REQUIRE_CUDA_DEVICE();
  const OrderCase c = GetParam();
  const std::uint32_t n = 50000;
  const int period = 3;
  cuda::DevicePipeline pipeline;
  pipeline.reset(test::scene(Model::galaxy), n);
  cuda::DeviceBuffer<ParticleVertex> vertices(n);
  cuda::DeviceBuffer<std::uint32_t> order(n);
  FrameSettings s;
  s.algorithm = c.algorithm;
  s.key_mode = c.key_mode;
  s.key_bits = 12;
  s.order = c.order;
  s.order_period = period;
  s.coarse_bits = c.coarse_bits;
  s.fuse_stages = c.fused;
  s.measure_order_error = true;
  StaleSchedule schedule;
  std::vector<std::uint32_t> previous;
  SortScratch scratch;
  bool last_auto_sort = false;  // the last frame was sorted by auto (its order_ is kept)
  for (int f = 0; f < 8; ++f) {
    s.view = test::orbit_view(3 * f);
    pipeline.run_frame(s, {vertices.data(), order.data()});
    pipeline.synchronize();
    const bool sorts = schedule.sorts(s.order, s.order_period);
    const auto state = test::to_host(pipeline.device_state(), n);
    const auto drawn = test::to_host(order.data(), n);

    // The CPU twin of the frame's order, from the GPU's state.
    std::vector<std::uint32_t> want(n);
    std::iota(want.begin(), want.end(), 0u);
    if (c.order == DrawOrder::stale && !sorts) {
      want = previous;
    } else if (c.order != DrawOrder::unsorted) {
      const SortKeys k = sort_keys_of(s);
      const Extents e = cpu_extents(state, s.view);
      std::vector<std::uint32_t> keys(n);
      cpu_depth_keys(state, s.view, k.mode, k.bits, e, keys, k.metric);
      // Unfused auto (eye keys always come from the keys stage) sorts last frame's order,
      // its ties kept; fused auto lays the particles out in that order, so the identity.
      const bool unfused_auto = c.algorithm == Algorithm::automatic &&
                                (!c.fused || k.metric == DepthMetric::eye_distance);
      if (unfused_auto && last_auto_sort) want = previous;
      cpu_sort_order(keys, want, scratch);
    }
    ASSERT_EQ(drawn, want) << name_of(c) << " frame " << f;

    std::vector<std::uint32_t> exact(n);
    cpu_depth_keys(state, s.view, KeyMode::exact, 32, Extents{}, exact);
    const std::uint64_t descents = cpu_count_descents(exact, drawn);
    const auto report = test::to_host(pipeline.device_report(), 1)[0];
    if (order_error_is_zero(s)) {
      EXPECT_EQ(descents, 0u);
    } else {
      EXPECT_EQ(report.order_descents, descents) << name_of(c) << " frame " << f;
    }
    const bool shows = c.order == DrawOrder::unsorted || c.order == DrawOrder::eye_distance ||
                       (c.order == DrawOrder::stale && !sorts) ||
                       (c.order == DrawOrder::coarse && c.coarse_bits <= 9);
    if (f > 0 && shows) {
      EXPECT_GT(descents, 0u) << name_of(c) << " frame " << f << ": the order shows nothing";
    }
    previous = drawn;
    last_auto_sort = c.algorithm == Algorithm::automatic && c.order != DrawOrder::unsorted && sorts;
  }
  // The FrameInfo of the last frame carries the same measure.
  const FrameInfo info = pipeline.run_frame(s, {vertices.data(), order.data()});
  EXPECT_GE(info.order_error, 0.0f);
}

std::vector<OrderCase> cases() {
  std::vector<OrderCase> out;
  for (DrawOrder o : kAllDrawOrders) {
    for (Algorithm a : {Algorithm::radix, Algorithm::cub, Algorithm::automatic}) {
      for (bool fused : {true, false}) out.push_back({o, a, KeyMode::exact, fused});
    }
    out.push_back({o, Algorithm::radix, KeyMode::quantized, true});
  }
  for (int bits : {1, 4, 7, 9, 16}) {
    out.push_back({DrawOrder::coarse, Algorithm::radix, KeyMode::exact, true, bits});
    out.push_back({DrawOrder::coarse, Algorithm::oddeven, KeyMode::exact, true, bits});
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(AllOrders, PipelineOrders, ::testing::ValuesIn(cases()),
                         [](const auto& p) { return name_of(p.param); });

// The comparison view's exact order (FrameTargets::exact_order), made beside whatever order is
// drawn, is CpuPipeline::exact_order's on the GPU's own state: exact view-depth keys from the
// identity, stably sorted, every frame; and it leaves the drawn order as it was without it.
TEST(PipelineExactOrder, IsTheCpuTwinsWhateverOrderIsDrawn) {
  REQUIRE_CUDA_DEVICE();
  const std::uint32_t n = 30000;
  for (DrawOrder o : kAllDrawOrders) {
    for (Algorithm a : {Algorithm::radix, Algorithm::automatic}) {
      const std::string what = std::string(to_string(o)) + "_" + std::string(to_string(a));
      cuda::DevicePipeline pipeline, reference;
      pipeline.reset(test::scene(Model::galaxy), n);
      reference.reset(test::scene(Model::galaxy), n);
      cuda::DeviceBuffer<ParticleVertex> vertices(n), reference_vertices(n);
      cuda::DeviceBuffer<std::uint32_t> order(n), reference_order(n), exact(n);
      FrameSettings s;
      s.algorithm = a;
      s.order = o;
      s.order_period = 2;
      s.compare_order = true;
      SortScratch scratch;
      for (int f = 0; f < 5; ++f) {
        s.view = test::orbit_view(4 * f);
        pipeline.run_frame(s, {vertices.data(), order.data(), exact.data()});
        reference.run_frame(s, {reference_vertices.data(), reference_order.data()});
        pipeline.synchronize();
        reference.synchronize();
        const auto state = test::to_host(pipeline.device_state(), n);
        std::vector<std::uint32_t> keys(n), want(n);
        cpu_depth_keys(state, s.view, KeyMode::exact, 32, Extents{}, keys);
        std::iota(want.begin(), want.end(), 0u);
        cpu_sort_order(keys, want, scratch);
        ASSERT_EQ(test::to_host(exact.data(), n), want) << what << " frame " << f;
        ASSERT_EQ(test::to_host(order.data(), n), test::to_host(reference_order.data(), n))
            << what << " frame " << f << ": the drawn order changed";
      }
    }
  }
}

}  // namespace
}  // namespace particles
