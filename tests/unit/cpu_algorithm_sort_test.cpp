// The CPU backend's algorithms: each runs its own implementation, gives std::stable_sort's order
// on every input, and the frame reports the path that names what ran.
#include "core/cpu_algorithm_sort.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/camera.hpp"
#include "core/cpu_pipeline.hpp"
#include "core/cpu_quicksort.hpp"

namespace particles {
namespace {

constexpr Algorithm kFixed[] = {Algorithm::radix, Algorithm::oddeven, Algorithm::quicksort,
                                Algorithm::cub};

SortPath path_of(Algorithm a) {
  switch (a) {
    case Algorithm::radix:
      return SortPath::radix;
    case Algorithm::oddeven:
      return SortPath::oddeven;
    case Algorithm::quicksort:
      return SortPath::quicksort;
    default:
      return SortPath::library;
  }
}

std::vector<std::uint32_t> stable_order(const std::vector<std::uint32_t>& keys) {
  std::vector<std::uint32_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
  return order;
}

struct KeyCase {
  std::string name;
  std::vector<std::uint32_t> keys;
};

std::vector<KeyCase> key_cases(std::size_t n) {
  std::mt19937 rng(static_cast<std::uint32_t>(n) + 3u);
  std::vector<KeyCase> cases;
  KeyCase random{"random", std::vector<std::uint32_t>(n)};
  for (auto& k : random.keys) k = static_cast<std::uint32_t>(rng());
  KeyCase few{"few unique", std::vector<std::uint32_t>(n)};
  for (auto& k : few.keys) k = static_cast<std::uint32_t>(rng() % 7u) * 0x10000000u;
  KeyCase sorted{"sorted", random.keys};
  std::sort(sorted.keys.begin(), sorted.keys.end());
  KeyCase reversed{"reversed", sorted.keys};
  std::reverse(reversed.keys.begin(), reversed.keys.end());
  KeyCase nearly{"nearly sorted", sorted.keys};  // each key within a few places of its own
  for (std::size_t i = 0; i + 3 < n; i += 5) std::swap(nearly.keys[i], nearly.keys[i + 3]);
  KeyCase equal{"all equal", std::vector<std::uint32_t>(n, 42u)};
  KeyCase extremes{"0 and ~0", std::vector<std::uint32_t>(n)};
  for (auto& k : extremes.keys) k = rng() % 2u ? 0xffffffffu : 0u;
  return {random, few, sorted, reversed, nearly, equal, extremes};
}

TEST(CpuAlgorithmSort, EachAlgorithmGivesTheStableOrderAndNamesItself) {
  // Sizes around the quicksort's insertion cut-off, the odd-even tile (4096) and its window.
  for (std::size_t n : {0u, 1u, 2u, 31u, 32u, 33u, 1000u, 4095u, 4096u, 4097u, 9000u, 70001u}) {
    for (const KeyCase& c : key_cases(n)) {
      const std::vector<std::uint32_t> expected = stable_order(c.keys);
      for (Algorithm a : kFixed) {
        SortScratch scratch;
        std::vector<std::uint32_t> order(n);
        std::iota(order.begin(), order.end(), 0u);
        EXPECT_EQ(cpu_sort_with(a, c.keys, order, scratch), path_of(a));
        ASSERT_EQ(order, expected) << to_string(a) << ", " << c.name << ", n = " << n;
      }
    }
  }
}

// Ties keep the incoming order, whatever it is (not only the identity).
TEST(CpuAlgorithmSort, TiesKeepTheIncomingOrder) {
  std::vector<std::uint32_t> keys(5000);
  std::mt19937 rng(11);
  for (auto& k : keys) k = rng() % 16u;
  std::vector<std::uint32_t> incoming(keys.size());
  std::iota(incoming.begin(), incoming.end(), 0u);
  std::shuffle(incoming.begin(), incoming.end(), rng);
  std::vector<std::uint32_t> expected = incoming;
  std::stable_sort(expected.begin(), expected.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
  for (Algorithm a : kFixed) {
    SortScratch scratch;
    std::vector<std::uint32_t> order = incoming;
    cpu_sort_with(a, keys, order, scratch);
    EXPECT_EQ(order, expected) << to_string(a);
  }
}

TEST(CpuAlgorithmSort, AutoIsNotAFixedSortAndSizesMustMatch) {
  SortScratch scratch;
  std::vector<std::uint32_t> keys = {3, 1, 2}, order = {0, 1, 2};
  EXPECT_THROW(cpu_sort_with(Algorithm::automatic, keys, order, scratch), std::invalid_argument);
  std::vector<std::uint32_t> short_order = {0, 1};
  EXPECT_THROW(cpu_sort_with(Algorithm::radix, keys, short_order, scratch), std::invalid_argument);
}

// Each algorithm says what it runs on the CPU, and no two say the same; cub says it is the
// standard library's sort standing in for CUB.
TEST(CpuAlgorithmSort, LabelsSayWhatRuns) {
  std::set<std::string> labels;
  for (Algorithm a : kAllAlgorithms) labels.emplace(cpu_algorithm_label(a));
  EXPECT_EQ(labels.size(), kAllAlgorithms.size());
  const std::string cub(cpu_algorithm_label(Algorithm::cub));
  EXPECT_NE(cub.find("std::stable_sort"), std::string::npos) << cub;
  EXPECT_NE(cub.find("library baseline"), std::string::npos) << cub;
  EXPECT_NE(std::string(cpu_algorithm_label(Algorithm::quicksort)).find("quicksort"),
            std::string::npos);
  EXPECT_NE(std::string(cpu_algorithm_label(Algorithm::oddeven)).find("odd-even"),
            std::string::npos);
}

// The whole CPU frame: each algorithm's frames are in the stable order of the frame's keys from
// the identity, and report the path that ran (never "as selected"); auto reports one of its own.
TEST(CpuAlgorithmSort, PipelineFramesReportTheAlgorithmThatRan) {
  ModelParams params;
  params.model = Model::galaxy;
  for (Algorithm a : kAllAlgorithms) {
    CpuPipeline pipeline;
    pipeline.reset(params, 6000);
    FrameSettings settings;
    CameraPose pose;
    settings.view = depth_frame(camera_matrices(pose, 16.0f / 9.0f, 0.1f, 1000.0f));
    settings.algorithm = a;
    for (int frame = 0; frame < 12; ++frame) {
      const FrameInfo info = pipeline.run_frame(settings);
      const std::vector<std::uint32_t> keys(pipeline.keys().begin(), pipeline.keys().end());
      const std::vector<std::uint32_t> order(pipeline.order().begin(), pipeline.order().end());
      EXPECT_NE(info.path, SortPath::full) << to_string(a);
      if (a == Algorithm::automatic) {
        EXPECT_TRUE(info.path == SortPath::skipped_sorted || info.path == SortPath::insertion ||
                    info.path == SortPath::radix)
            << to_string(info.path);
        EXPECT_TRUE(
            std::is_sorted(order.begin(), order.end(),
                           [&](std::uint32_t x, std::uint32_t y) { return keys[x] < keys[y]; }));
      } else {
        EXPECT_EQ(info.path, path_of(a)) << to_string(a) << " frame " << frame;
        ASSERT_EQ(order, stable_order(keys)) << to_string(a) << " frame " << frame;
      }
    }
  }
}

}  // namespace
}  // namespace particles
