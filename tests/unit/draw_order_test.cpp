// The approximate draw orders on the CPU backend (the oracle of the CUDA ones): each gives the
// permutation it promises, and the order error says how far it is from the exact one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "core/cpu_pipeline.hpp"
#include "core/draw_order.hpp"

namespace particles {
namespace {

constexpr std::uint32_t kCount = 6000;

// A camera circling the scene, so that the exact order changes every frame.
DepthFrame moving_view(int frame) {
  const float yaw = 0.4f + 0.03f * static_cast<float>(frame);
  const float pitch = 0.45f;
  const float d = 25.0f;
  const Vec3 eye{d * std::cos(pitch) * std::sin(yaw), d * std::sin(pitch),
                 d * std::cos(pitch) * std::cos(yaw)};
  const float len = length(eye);
  return {eye, Vec3{-eye.x / len, -eye.y / len, -eye.z / len}};
}

ModelParams galaxy() {
  ModelParams params;
  params.model = Model::galaxy;
  return params;
}

std::vector<std::uint32_t> copy(std::span<const std::uint32_t> s) {
  return {s.begin(), s.end()};
}

// The identity order stably sorted by key_of(particle).
template <class KeyOf>
std::vector<std::uint32_t> stable_order(std::uint32_t n, KeyOf key_of) {
  std::vector<std::uint32_t> keys(n), order(n);
  for (std::uint32_t i = 0; i < n; ++i) keys[i] = key_of(i);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
  return order;
}

// Exact view-depth keys of the pipeline's particles, by index.
std::vector<std::uint32_t> exact_keys(const CpuPipeline& p, const DepthFrame& view) {
  std::vector<std::uint32_t> keys(p.count());
  for (std::uint32_t i = 0; i < p.count(); ++i) {
    keys[i] = exact_depth_key(view_depth(view, position_of(p.state()[i])));
  }
  return keys;
}

TEST(DrawOrder, NamesRoundTrip) {
  for (DrawOrder o : kAllDrawOrders) EXPECT_EQ(draw_order_from_string(to_string(o)), o);
  EXPECT_FALSE(draw_order_from_string("sorted"));
  EXPECT_EQ(draw_order_names().size(), kAllDrawOrders.size());
}

TEST(DrawOrder, StaleScheduleSortsEveryPeriodThFrameFromItsFirst) {
  StaleSchedule s;
  std::vector<bool> sorts;
  for (int f = 0; f < 7; ++f) sorts.push_back(s.sorts(DrawOrder::stale, 3));
  EXPECT_EQ(sorts, (std::vector<bool>{true, false, false, true, false, false, true}));
  EXPECT_TRUE(s.sorts(DrawOrder::exact, 3));
  EXPECT_FALSE(s.sorts(DrawOrder::unsorted, 3));
  EXPECT_TRUE(s.sorts(DrawOrder::stale, 3)) << "back from another order: sorts at once";
  EXPECT_FALSE(s.sorts(DrawOrder::stale, 3));
  s.reset();
  EXPECT_TRUE(s.sorts(DrawOrder::stale, 3));
  EXPECT_TRUE(s.sorts(DrawOrder::stale, 1)) << "period 1 sorts every frame";
}

TEST(DrawOrder, SortKeysOfEachOrder) {
  FrameSettings s;
  s.key_mode = KeyMode::quantized;
  s.key_bits = 20;
  s.coarse_bits = 6;
  s.order = DrawOrder::coarse;
  EXPECT_EQ(sort_keys_of(s).mode, KeyMode::quantized);
  EXPECT_EQ(sort_keys_of(s).bits, 6);
  s.order = DrawOrder::eye_distance;
  EXPECT_EQ(sort_keys_of(s).mode, KeyMode::exact);
  EXPECT_EQ(sort_keys_of(s).metric, DepthMetric::eye_distance);
  s.order = DrawOrder::stale;
  EXPECT_EQ(sort_keys_of(s).bits, 20);
  EXPECT_EQ(sort_keys_of(s).metric, DepthMetric::view_depth);
}

class CpuDrawOrder : public ::testing::TestWithParam<Algorithm> {};

// Stale: the frames between sorts draw the last sort's permutation, a sorting frame draws what
// the exact order draws that frame (a second pipeline, same particles, sorted every frame).
TEST_P(CpuDrawOrder, StaleHoldsTheLastSortedOrderForPeriodMinusOneFrames) {
  const int period = 4;
  CpuPipeline stale, exact;
  stale.reset(galaxy(), kCount);
  exact.reset(galaxy(), kCount);
  FrameSettings s;
  s.algorithm = GetParam();
  std::vector<std::uint32_t> held;
  for (int f = 0; f < 3 * period + 1; ++f) {
    s.view = moving_view(f);
    s.order = DrawOrder::exact;
    exact.run_frame(s);
    s.order = DrawOrder::stale;
    s.order_period = period;
    const FrameInfo info = stale.run_frame(s);
    if (f % period == 0) {
      EXPECT_NE(info.path, SortPath::held) << "frame " << f;
      if (s.algorithm == Algorithm::automatic) {
        // Auto's ties follow each pipeline's own history (last frame's order, or a radix
        // stint's identity): the keys in drawing order are what must agree.
        const auto keys_drawn = [](const CpuPipeline& p) {
          std::vector<std::uint32_t> k;
          for (std::uint32_t i : p.order()) k.push_back(p.keys()[i]);
          return k;
        };
        EXPECT_EQ(keys_drawn(stale), keys_drawn(exact)) << "frame " << f << " re-sorts";
      } else {
        EXPECT_EQ(copy(stale.order()), copy(exact.order())) << "frame " << f << " re-sorts";
      }
      EXPECT_NE(copy(stale.order()), held) << "frame " << f << ": the scene moved";
      held = copy(stale.order());
    } else {
      EXPECT_EQ(info.path, SortPath::held) << "frame " << f;
      EXPECT_EQ(copy(stale.order()), held) << "frame " << f << " holds";
    }
  }
}

// Eye distance: sorted far first by |p - eye|, ties in index order (auto: in last frame's order,
// so only the keys are checked there).
TEST_P(CpuDrawOrder, EyeDistanceSortsByDistanceToTheEye) {
  CpuPipeline p;
  p.reset(galaxy(), kCount);
  FrameSettings s;
  s.algorithm = GetParam();
  s.order = DrawOrder::eye_distance;
  for (int f = 0; f < 3; ++f) {
    s.view = moving_view(f);
    p.run_frame(s);
    const auto key_of = [&](std::uint32_t i) {
      return exact_depth_key(eye_distance(s.view, position_of(p.state()[i])));
    };
    const auto order = copy(p.order());
    for (std::size_t i = 1; i < order.size(); ++i) {
      ASSERT_LE(key_of(order[i - 1]), key_of(order[i])) << "frame " << f << " at " << i;
    }
    if (s.algorithm != Algorithm::automatic) {
      EXPECT_EQ(order, stable_order(kCount, key_of));
    }
  }
  // The two metrics disagree somewhere (else the test shows nothing).
  s.order = DrawOrder::exact;
  const auto by_eye = copy(p.order());
  p.run_frame(s);
  EXPECT_NE(copy(p.order()), by_eye);
}

// Coarse: a stable sort by view depth quantized to coarse_bits over the frame's depth range, for
// bit counts down to 1.
TEST_P(CpuDrawOrder, CoarseSortsStablyByCoarseKeys) {
  for (int bits : {1, 3, 8, 12}) {
    CpuPipeline p;
    p.reset(galaxy(), kCount);
    FrameSettings s;
    s.algorithm = GetParam();
    s.order = DrawOrder::coarse;
    s.coarse_bits = bits;
    s.view = moving_view(0);
    const FrameInfo info = p.run_frame(s);
    const auto key_of = [&](std::uint32_t i) {
      return quantized_depth_key(view_depth(s.view, position_of(p.state()[i])),
                                 info.extents.depth_min, info.extents.depth_max, bits);
    };
    // The first frame starts from the identity under every algorithm.
    EXPECT_EQ(copy(p.order()), stable_order(kCount, key_of)) << bits << " bits";
  }
}

INSTANTIATE_TEST_SUITE_P(Algorithms, CpuDrawOrder,
                         ::testing::Values(Algorithm::radix, Algorithm::automatic));

// Order error: 0 for the exact order, > 0 for each approximation on a moving scene, and equal to
// the descents of exact keys recomputed here over n - 1.
TEST(CpuOrderError, ZeroWhenExactAndMeasuredForEveryApproximation) {
  for (DrawOrder order : kAllDrawOrders) {
    CpuPipeline p;
    p.reset(galaxy(), kCount);
    FrameSettings s;
    s.order = order;
    s.order_period = 4;
    s.measure_order_error = true;
    float error = 0.0f;
    for (int f = 0; f < 6; ++f) {
      s.view = moving_view(f);
      const FrameInfo info = p.run_frame(s);
      const auto keys = exact_keys(p, s.view);
      const float want = order_error_of(cpu_count_descents(keys, p.order()), kCount);
      ASSERT_GE(info.order_error, 0.0f);
      EXPECT_FLOAT_EQ(info.order_error, want) << to_string(order) << " frame " << f;
      error = info.order_error;
    }
    if (order == DrawOrder::exact) {
      EXPECT_EQ(error, 0.0f);
    } else {
      EXPECT_GT(error, 0.0f) << to_string(order);  // frame 5: stale holds frame 4's order
    }
  }
}

TEST(CpuOrderError, UnsortedIsAboutHalfAndNotMeasuredUnlessAsked) {
  CpuPipeline p;
  p.reset(galaxy(), kCount);
  FrameSettings s;
  s.view = moving_view(0);
  s.order = DrawOrder::unsorted;
  EXPECT_EQ(p.run_frame(s).order_error, -1.0f);
  s.measure_order_error = true;
  const float e = p.run_frame(s).order_error;
  EXPECT_GT(e, 0.3f);  // index order of a galaxy: close to a random one's 1/2
  EXPECT_LT(e, 0.7f);
  // Exact keys sorted exactly: 0 without measuring.
  s.order = DrawOrder::exact;
  s.measure_order_error = false;
  EXPECT_EQ(p.run_frame(s).order_error, 0.0f);
  EXPECT_EQ(order_error_of(0, 1), 0.0f);
  EXPECT_FLOAT_EQ(order_error_of(1, 3), 0.5f);
}

}  // namespace
}  // namespace particles
