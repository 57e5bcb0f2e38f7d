// Auto's probes against their CPU twins: over keys laid out in last frame's order (here gathered
// on the host, as the fused step lays them out), both must count what cpu_count_descents and
// cpu_count_strided_descents count, on sizes around the warp and block edges and with ties.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "core/cpu_pipeline.hpp"
#include "core/hash.hpp"
#include "cuda/auto/auto_probe.hpp"
#include "cuda/stages/keys/depth_keys.hpp"
#include "tests/gpu/pipeline_test_util.hpp"

namespace particles {
namespace {

struct ProbeInput {
  std::vector<std::uint32_t> keys_by_index;
  std::vector<std::uint32_t> order;  // a permutation of 0..n-1
};

// Keys with ties (values in 0..range), and an order sorting them except for `swaps` random
// exchanges up to `reach` places apart: nearly sorted, the input auto is made for.
ProbeInput nearly_sorted(std::uint32_t n, std::uint32_t range, std::uint32_t swaps,
                         std::uint32_t reach, std::uint32_t seed) {
  ProbeInput in;
  in.keys_by_index.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) in.keys_by_index[i] = hash_combine(seed, i) % (range + 1);
  in.order.resize(n);
  std::iota(in.order.begin(), in.order.end(), 0u);
  std::stable_sort(in.order.begin(), in.order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return in.keys_by_index[a] < in.keys_by_index[b];
  });
  for (std::uint32_t s = 0; s < swaps && n > 1; ++s) {
    const std::uint32_t i = hash_combine(seed ^ 0x9e3779b9u, 2 * s) % n;
    const std::uint32_t j = std::min(n - 1, i + hash_combine(seed, 2 * s + 1) % (reach + 1));
    std::swap(in.order[i], in.order[j]);
  }
  return in;
}

struct Counts {
  std::uint32_t adjacent;
  std::uint32_t strided;
};

Counts cpu_counts(const ProbeInput& in, std::uint32_t stride) {
  return {
      static_cast<std::uint32_t>(cpu_count_descents(in.keys_by_index, in.order)),
      static_cast<std::uint32_t>(cpu_count_strided_descents(in.keys_by_index, in.order, stride))};
}

// keys_by_index laid out in `order` (keys[i] = keys_by_index[order[i]]), on the device.
cuda::DeviceBuffer<std::uint32_t> laid_out(const std::vector<std::uint32_t>& keys_by_index,
                                           const std::vector<std::uint32_t>& order) {
  std::vector<std::uint32_t> keys(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) keys[i] = keys_by_index[order[i]];
  return test::to_device(keys);
}

void expect_counts(const std::vector<std::uint32_t>& counts, Counts expected, const char* what) {
  EXPECT_EQ(counts[0], expected.adjacent) << what << ": adjacent descents";
  EXPECT_EQ(counts[1], expected.strided) << what << ": strided descents";
}

TEST(StageAutoProbe, GatheredKeysAndTheirProbesMatchTheCpuTwins) {
  REQUIRE_CUDA_DEVICE();
  for (const std::uint32_t n : {0u, 1u, 2u, 31u, 32u, 33u, 255u, 257u, 5000u, 70001u}) {
    for (const std::uint32_t stride : {1u, 5u, 2048u}) {
      for (const std::uint32_t swaps : {0u, 3u, n / 3}) {
        SCOPED_TRACE(testing::Message() << "n " << n << " stride " << stride << " swaps " << swaps);
        const ProbeInput in = nearly_sorted(n, n / 4 + 1, swaps, 3000, n * 31 + swaps);
        const Counts expected = cpu_counts(in, stride);
        auto keys = laid_out(in.keys_by_index, in.order);
        // Stale counts must not leak in: the launch zeroes them.
        auto counts = test::to_device(std::vector<std::uint32_t>{77u, 88u});
        cuda::launch_sortedness_probes(keys.data(), n, stride, counts.data(), nullptr);
        expect_counts(test::to_host(counts.data(), 2), expected, "probes");
      }
    }
  }
}

TEST(StageAutoProbe, SortedInputHasNoDescentsAndShuffledHasMany) {
  REQUIRE_CUDA_DEVICE();
  const std::uint32_t n = 100000;
  ProbeInput in = nearly_sorted(n, n, 0, 0, 5);
  auto counts = test::to_device(std::vector<std::uint32_t>{1u, 1u});
  auto probe = [&](const std::vector<std::uint32_t>& order_host) {
    auto keys = laid_out(in.keys_by_index, order_host);
    cuda::launch_sortedness_probes(keys.data(), n, 2048, counts.data(), nullptr);
    return test::to_host(counts.data(), 2);
  };
  expect_counts(probe(in.order), {0u, 0u}, "sorted");
  std::reverse(in.order.begin(), in.order.end());
  const Counts expected = cpu_counts(in, 2048);
  ASSERT_GT(expected.adjacent, n / 2);  // the case is what it claims to be
  expect_counts(probe(in.order), expected, "reversed");
}

}  // namespace
}  // namespace particles
