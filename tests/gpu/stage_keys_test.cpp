// Stage 3 against cpu_depth_keys: keys laid out in a given order must equal the CPU's keys of
// the same particles, bit for bit, in both modes, special depths included, whether made from the
// state or from exact keys by index (auto's path: the fused step's keys, gathered).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "core/cpu_pipeline.hpp"
#include "core/hash.hpp"
#include "cuda/stages/keys/depth_keys.hpp"
#include "cuda/stages/reduce/extents_reduce.hpp"
#include "cuda/stages/sim/simulate.hpp"
#include "tests/gpu/pipeline_test_util.hpp"

namespace particles {
namespace {

struct KeyCase {
  KeyMode mode;
  int bits;
};

std::vector<std::uint32_t> shuffled(std::uint32_t n, std::uint32_t seed) {
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  for (std::uint32_t i = n; i > 1; --i) std::swap(order[i - 1], order[hash_combine(seed, i) % i]);
  return order;
}

// Where the keys kernel makes its keys from: the state, or the exact keys by particle index that
// the fused step writes (here the CPU twin's), with no state or view to fall back on.
enum class KeySource { state, exact_keys };

// Runs the keys kernel with `order` (empty = identity) and checks it against the CPU twin.
void check_keys(const std::vector<ParticleState>& host, const DepthFrame& view, KeyCase kc,
                const std::vector<std::uint32_t>& order, bool in_place,
                KeySource source = KeySource::state) {
  const auto n = static_cast<std::uint32_t>(host.size());
  auto state = test::to_device(host);
  auto d_view = test::device_value(view);
  cuda::DeviceBuffer<Extents> extents(1);
  cuda::DeviceBuffer<unsigned char> ws(cuda::extents_workspace_bytes());
  cuda::init_extents_workspace(ws.data(), nullptr);
  cuda::launch_extents(state.data(), n, d_view.data(), extents.data(), ws.data(), nullptr);

  auto d_order = test::to_device(order);
  cuda::DeviceBuffer<std::uint32_t> values(n), keys(n);
  cuda::DepthKeyArgs a;
  a.state = state.data();
  a.count = n;
  a.order = order.empty() ? nullptr : d_order.data();
  a.values = in_place ? d_order.data() : values.data();
  a.keys = keys.data();
  a.view = d_view.data();
  a.extents = extents.data();
  a.mode = kc.mode;
  a.bits = kc.bits;
  cuda::DeviceBuffer<std::uint32_t> exact_keys;
  if (source == KeySource::exact_keys) {
    std::vector<std::uint32_t> exact(n);
    cpu_depth_keys(host, view, KeyMode::exact, 32, cpu_extents(host, view), exact);
    exact_keys = test::to_device(exact);
    a.exact_keys = exact_keys.data();
    a.state = nullptr;
    a.view = nullptr;
  }
  cuda::launch_depth_keys(a, nullptr);

  std::vector<std::uint32_t> cpu_keys(n);
  cpu_depth_keys(host, view, kc.mode, kc.bits, cpu_extents(host, view), cpu_keys);
  const auto gpu_keys = test::to_host(keys.data(), n);
  const auto gpu_values = test::to_host(a.values, n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t p = order.empty() ? i : order[i];
    ASSERT_EQ(gpu_values[i], p) << "position " << i;
    ASSERT_EQ(gpu_keys[i], cpu_keys[p]) << "position " << i << " particle " << p;
  }
}

class StageKeys : public ::testing::TestWithParam<KeyCase> {};

TEST_P(StageKeys, SimulatedScenesMatchCpu) {
  REQUIRE_CUDA_DEVICE();
  for (Model model : kAllModels) {
    constexpr std::uint32_t n = 20000;
    cuda::DeviceBuffer<ParticleState> state(n);
    cuda::launch_init(test::DeviceScene(model).params, state.data(), n, nullptr);
    const auto host = test::to_host(state.data(), n);
    const DepthFrame view = test::orbit_view(5);
    check_keys(host, view, GetParam(), {}, false);
    check_keys(host, view, GetParam(), shuffled(n, 9), false);
    check_keys(host, view, GetParam(), shuffled(n, 10), true);
    check_keys(host, view, GetParam(), {}, false, KeySource::exact_keys);
  }
}

TEST_P(StageKeys, SpecialPositionsMatchCpu) {
  REQUIRE_CUDA_DEVICE();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const float specials[] = {
      0.0f,  -0.0f, nan, -nan, inf, -inf, 1e-40f, -1e-40f, std::numeric_limits<float>::max(),
      -1.5f, 2.5f};
  std::vector<ParticleState> host;
  for (float x : specials) {
    for (float z : specials) host.push_back({x, -0.0f, z, 0.0f, 0.0f, 0.0f, 0.0f, 1u});
  }
  // Straight down the z axis, so depth is exactly z (with -0.0 kept) or NaN from x = inf.
  const DepthFrame axis{{-0.0f, -0.0f, -0.0f}, {0.0f, 0.0f, 1.0f}};
  check_keys(host, axis, GetParam(), {}, false);
  check_keys(host, axis, GetParam(), {}, false, KeySource::exact_keys);
  check_keys(host, test::orbit_view(7), GetParam(),
             shuffled(static_cast<std::uint32_t>(host.size()), 4), false);
}

INSTANTIATE_TEST_SUITE_P(Modes, StageKeys,
                         ::testing::Values(KeyCase{KeyMode::exact, 32},
                                           KeyCase{KeyMode::quantized, 1},
                                           KeyCase{KeyMode::quantized, 10},
                                           KeyCase{KeyMode::quantized, 16},
                                           KeyCase{KeyMode::quantized, 32}),
                         [](const auto& p) {
                           return p.param.mode == KeyMode::exact
                                      ? std::string("exact")
                                      : "quantized" + std::to_string(p.param.bits);
                         });

// Exact keys are read by place, so an order to key them through is refused, not ignored.
TEST(StageKeys, RefusesExactKeysThroughAnOrder) {
  cuda::DepthKeyArgs a;
  std::uint32_t word = 0;
  a.exact_keys = &word;  // never dereferenced: the launch is refused first
  a.order = &word;
  a.keys = &word;
  a.count = 1;
  EXPECT_THROW(cuda::launch_depth_keys(a, nullptr), std::invalid_argument);
}

}  // namespace
}  // namespace particles
