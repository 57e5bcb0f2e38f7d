// The step of auto's partition-stint frames (step_split.hpp) against its twins, the fused step
// with a gather and then the partition sort's own split (sort_enabled): the same state, vertices
// and extents bit for bit, the same verdict and, when it sorts, the same sorted pairs, ties in
// place order. When it refuses (a few tiles out of reach, or no splitters for this count), the
// pairs it leaves are a layout whose stable sort is the stable sort of the input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/depth_keys.hpp"
#include "core/scene_models.hpp"
#include "core/view_depth.hpp"
#include "cuda/reduce/extents_reduce.hpp"
#include "cuda/sim/simulate.hpp"
#include "cuda/sim/step_split.hpp"
#include "cuda/sort/splitter_partition.hpp"
#include "cuda/sort/splitter_partition_sort.hpp"
#include "tests/gpu/pipeline_test_util.hpp"

namespace particles {
namespace {

enum class Splitters { fit, some_tiles_far, none };

struct SplitCase {
  std::uint32_t count;
  Splitters splitters;
};

constexpr float kDt = 1.0f / 60.0f;
constexpr std::int32_t kUnwritten = 7;

// A galaxy whose every 97th particle is a copy of one 5000 places on (equal keys far apart, for
// the ties), laid out in the order of its depth keys under orbit_view(0), as last frame's sort
// would have left it: returns the state and that order, the gather of the next step.
std::pair<std::vector<ParticleState>, std::vector<std::uint32_t>> laid_out_galaxy(
    const ModelParams& params, std::uint32_t n) {
  cuda::DeviceBuffer<ParticleState> d_state(n);
  cuda::launch_init(params, d_state.data(), n, nullptr);
  auto state = test::to_host(d_state.data(), n);
  for (std::uint32_t i = 0; i + 5000 < n; i += 97) state[i] = state[i + 5000];
  std::vector<std::uint32_t> keys(n), order(n);
  const DepthFrame view = test::orbit_view(0);
  for (std::uint32_t i = 0; i < n; ++i)
    keys[i] = exact_depth_key(view_depth(view, position_of(state[i])));
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
  return {state, order};
}

// The stable sort of (key, value) pairs by key.
std::vector<std::pair<std::uint32_t, std::uint32_t>> stable_by_key(
    const std::vector<std::uint32_t>& keys, const std::vector<std::uint32_t>& values) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) pairs[i] = {keys[i], values[i]};
  std::stable_sort(pairs.begin(), pairs.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  return pairs;
}

// One side of the comparison: its own state out, vertices, step buffers and sort.
struct Side {
  explicit Side(std::uint32_t n)
      : state_out(n),
        vertices(n),
        vertices_at(test::device_value(vertices.data())),
        dt(test::device_value(kDt)),
        view(test::device_value(test::orbit_view(1))),
        extents(1),
        ws(cuda::extents_workspace_bytes()),
        gather(n),
        keys(n),
        values(n),
        words(test::to_device(std::vector<std::int32_t>{kUnwritten, kUnwritten})),
        ran(test::device_value(7u)),
        sort(n) {
    cuda::init_extents_workspace(ws.data(), nullptr);
  }

  cuda::FusedStepArgs step(const ModelParams& params, const ParticleState* state_in,
                           std::uint32_t n) {
    cuda::FusedStepArgs a;
    a.params = params;
    a.state_in = state_in;
    a.state_out = state_out.data();
    a.gather = gather.data();
    a.count = n;
    a.dt = dt.data();
    a.vertices = vertices_at.data();
    a.view = view.data();
    a.extents = extents.data();
    a.extents_workspace = ws.data();
    return a;
  }

  cuda::DeviceBuffer<ParticleState> state_out;
  cuda::DeviceBuffer<ParticleVertex> vertices;
  cuda::DeviceBuffer<ParticleVertex*> vertices_at;
  cuda::DeviceBuffer<float> dt;
  cuda::DeviceBuffer<DepthFrame> view;
  cuda::DeviceBuffer<Extents> extents;
  cuda::DeviceBuffer<unsigned char> ws;
  cuda::DeviceBuffer<std::uint32_t> gather, keys, values;
  cuda::DeviceBuffer<std::int32_t> words;  // fallback, finish
  cuda::DeviceBuffer<std::uint32_t> ran;
  cuda::SplitterPartitionSort sort;
};

class StageStepSplit : public ::testing::TestWithParam<SplitCase> {};

TEST_P(StageStepSplit, MatchesTheFusedStepAndTheSortsOwnSplit) {
  REQUIRE_CUDA_DEVICE();
  const auto [n, splitters] = GetParam();
  const ModelParams params = test::scene(Model::galaxy, 3);
  auto [state, order] = laid_out_galaxy(params, n);
  if (splitters == Splitters::some_tiles_far && n >= 2 * cuda::kPartitionBucket) {
    // The first tile's particles and the last full tile's trade places: their keys land about
    // the whole key range away from their tiles, the other tiles' stay in reach.
    const std::uint32_t last_full_tile = (n / cuda::kPartitionBucket - 1) * cuda::kPartitionBucket;
    std::swap_ranges(order.begin(), order.begin() + cuda::kPartitionBucket,
                     order.begin() + last_full_tile);
  }
  const auto state_in = test::to_device(state);
  Side twin(n), split(n);
  CUDA_CHECK(cudaMemcpy(twin.gather.data(), order.data(), n * 4, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(split.gather.data(), order.data(), n * 4, cudaMemcpyHostToDevice));

  // The twin: the fused step's keys in layout order, with the identity values.
  cuda::FusedStepArgs fused = twin.step(params, state_in.data(), n);
  fused.keys = twin.keys.data();
  fused.values = twin.values.data();
  cuda::launch_step_fused(fused, nullptr);
  const auto input_keys = test::to_host(twin.keys.data(), n);
  std::vector<std::uint32_t> input_values(n);
  std::iota(input_values.begin(), input_values.end(), 0u);

  // Splitters from this frame's own sorted keys: every bucket as the sort would cut it.
  auto sorted = input_keys;
  std::sort(sorted.begin(), sorted.end());
  const auto d_sorted = test::to_device(sorted);
  for (cuda::SplitterPartitionSort* sort : {&twin.sort, &split.sort}) {
    if (splitters == Splitters::none) {
      sort->forget_splitters(nullptr);
    } else {
      sort->note_sorted(d_sorted.data(), n, nullptr);
    }
  }
  const auto enabled = test::device_value(std::int32_t{1});
  twin.sort.sort_enabled(twin.keys.data(), twin.values.data(), n, nullptr, enabled.data(),
                         twin.words.data(), twin.ran.data(),
                         {.finish_enable = twin.words.data() + 1});

  cuda::launch_step_split(
      split.step(params, state_in.data(), n),
      split.sort.split_target(split.words.data(), split.ran.data(), split.words.data() + 1),
      nullptr);
  split.sort.sort_split(split.keys.data(), split.values.data(), n, nullptr, split.ran.data(), {});
  CUDA_CHECK(cudaDeviceSynchronize());

  const auto twin_state = test::to_host(twin.state_out.data(), n);
  const auto split_state = test::to_host(split.state_out.data(), n);
  ASSERT_EQ(0, std::memcmp(twin_state.data(), split_state.data(), n * sizeof(ParticleState)));
  const auto twin_vertices = test::to_host(twin.vertices.data(), n);
  const auto split_vertices = test::to_host(split.vertices.data(), n);
  ASSERT_EQ(0,
            std::memcmp(twin_vertices.data(), split_vertices.data(), n * sizeof(ParticleVertex)));
  const Extents twin_extents = test::to_host(twin.extents.data(), 1)[0];
  const Extents split_extents = test::to_host(split.extents.data(), 1)[0];
  EXPECT_EQ(0, std::memcmp(&twin_extents, &split_extents, sizeof(Extents)));

  const auto twin_words = test::to_host(twin.words.data(), 2);
  const auto split_words = test::to_host(split.words.data(), 2);
  const std::uint32_t twin_ran = test::to_host(twin.ran.data(), 1)[0];
  EXPECT_EQ(split_words, twin_words);
  EXPECT_EQ(test::to_host(split.ran.data(), 1)[0], twin_ran);
  const bool sorts = twin_ran != 0;
  EXPECT_EQ(sorts, splitters == Splitters::fit)
      << "the case should " << (sorts ? "not " : "") << "sort";
  const auto expected = stable_by_key(input_keys, input_values);
  if (sorts) {
    const auto split_keys = test::to_host(split.keys.data(), n);
    const auto split_values = test::to_host(split.values.data(), n);
    ASSERT_EQ(split_keys, test::to_host(twin.keys.data(), n));
    ASSERT_EQ(split_values, test::to_host(twin.values.data(), n));
    ASSERT_EQ(stable_by_key(split_keys, split_values), expected);  // already in that order
  } else {
    // The fallback's input: the pairs as the step left them, sorted stably.
    const auto fallback_on = test::device_value(std::int32_t{1});
    split.sort.copy_split_pairs(split.keys.data(), split.values.data(), n, nullptr,
                                fallback_on.data());
    ASSERT_EQ(
        stable_by_key(test::to_host(split.keys.data(), n), test::to_host(split.values.data(), n)),
        expected);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, StageStepSplit,
    ::testing::Values(SplitCase{1, Splitters::fit}, SplitCase{4099, Splitters::fit},
                      SplitCase{300007, Splitters::fit}, SplitCase{1048576, Splitters::fit},
                      SplitCase{300007, Splitters::some_tiles_far},
                      SplitCase{4099, Splitters::none}, SplitCase{300007, Splitters::none}),
    [](const auto& p) {
      const char* kind = p.param.splitters == Splitters::fit              ? "fit"
                         : p.param.splitters == Splitters::some_tiles_far ? "some_tiles_far"
                                                                          : "none";
      return "n" + std::to_string(p.param.count) + "_" + kind;
    });

// The case above has ties to keep in place order (copied particles step alike).
TEST(StageStepSplit, TheCaseHasTies) {
  REQUIRE_CUDA_DEVICE();
  auto [state, order] = laid_out_galaxy(test::scene(Model::galaxy, 3), 300007);
  std::vector<std::uint32_t> keys(state.size());
  const DepthFrame view = test::orbit_view(1);
  for (std::size_t i = 0; i < state.size(); ++i)
    keys[i] = exact_depth_key(view_depth(view, position_of(state[i])));
  std::sort(keys.begin(), keys.end());
  EXPECT_GT(keys.end() - std::unique(keys.begin(), keys.end()), 1000);
}

TEST(StageStepSplit, RefusesWithoutAGatherOrWithKeysAsked) {
  REQUIRE_CUDA_DEVICE();
  cuda::DeviceBuffer<ParticleState> in(4), out(4);
  cuda::DeviceBuffer<std::uint32_t> order(4), keys(4);
  cuda::FusedStepArgs a;
  a.state_in = in.data();
  a.state_out = out.data();
  a.count = 4;
  const cuda::PartitionSplitTarget target{};
  EXPECT_THROW(cuda::launch_step_split(a, target, nullptr), std::invalid_argument);  // no gather
  a.gather = order.data();
  a.keys = keys.data();
  EXPECT_THROW(cuda::launch_step_split(a, target, nullptr), std::invalid_argument);
}

}  // namespace
}  // namespace particles
