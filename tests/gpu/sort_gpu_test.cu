// Every GPU sort against std::stable_sort: sizes across tile boundaries and powers of two up to
// 2^24, six distributions, full and partial key bit ranges, values = input index (so stability
// is checked exactly). Skips with the reason when no CUDA device is present.
//
// Test names carry a size class, for sanitizer runs on small inputs:
//   small_* n <= 2^14, mid_* n <= 2^18, large_* above.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <utility>

#include "bench/key_distributions.hpp"
#include "cuda/common/check.hpp"
#include "cuda/common/device_buffer.hpp"
#include "cuda/common/graph_capture.hpp"
#include "cuda/common/launch_grid.hpp"
#include "cuda/sort/copy_kernels.cuh"
#include "cuda/sort/cpu/cpu_reference.hpp"
#include "cuda/sort/policy.hpp"
#include "cuda/sort/radix/radix_engine.hpp"
#include "cuda/sort/sortedness.hpp"
#include "cuda/sort/sorter.hpp"
#include "sort_test_device.hpp"
#include "tests/gpu/device_copies.hpp"

namespace particles::cuda {
namespace {

using testing::Distribution;
constexpr std::size_t kCapacity = (std::size_t{1} << 24) + 1;
// Every algorithm but auto, which chooses among these (make_sorter refuses it).
constexpr Algorithm kAlgorithms[] = {Algorithm::radix, Algorithm::oddeven, Algorithm::quicksort,
                                     Algorithm::cub};

// Sorters are costly to build (capacity 2^24): one of each for the whole binary.
Sorter& sorter(Algorithm a) {
  static std::map<Algorithm, std::unique_ptr<Sorter>> sorters;
  auto& s = sorters[a];
  if (!s) s = make_sorter(a, kCapacity);
  return *s;
}

struct Case {
  Distribution dist;
  int begin_bit;
  int end_bit;
  std::size_t n;
};

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  const Case& c = info.param;
  const char* cls = c.n <= (1u << 14) ? "small" : (c.n <= (1u << 18) ? "mid" : "large");
  return std::string(cls) + "_" + testing::name(c.dist) + "_b" + std::to_string(c.begin_bit) +
         "to" + std::to_string(c.end_bit) + "_n" + std::to_string(c.n);
}

std::vector<Case> make_cases() {
  std::set<std::size_t> base{0, 1, 2, 31, 32, 33};
  for (std::size_t tile : {2048u, 4096u, 7680u, 8192u, 15360u})  // radix / block-sort tiles
    for (std::size_t d : {tile - 1, tile, tile + 1}) base.insert(d);
  std::set<std::size_t> every_power = base, some_powers = base, large = {};
  for (int k = 1; k <= 24; ++k) {
    const std::size_t p = std::size_t{1} << k;
    for (std::size_t s : {p - 1, p, p + 1}) {
      if (s > kCapacity) continue;
      (k <= 20 ? every_power : large).insert(s);
      if (k <= 20 && (k % 4 == 0 || k == 13 || k == 18)) some_powers.insert(s);
    }
  }
  std::vector<Case> cases;
  for (std::size_t n : every_power) cases.push_back({Distribution::random, 0, 32, n});
  for (std::size_t n : large) cases.push_back({Distribution::random, 0, 32, n});
  for (auto d : {Distribution::all_equal, Distribution::sorted, Distribution::reversed,
                 Distribution::few_unique, Distribution::nearly_sorted})
    for (std::size_t n : some_powers) cases.push_back({d, 0, 32, n});
  for (std::size_t n : {std::size_t{1} << 22, std::size_t{1} << 24})
    cases.push_back({Distribution::nearly_sorted, 0, 32, n});
  for (std::size_t n : some_powers) {  // partial bit ranges: 16 of 32 bits, low and middle
    cases.push_back({Distribution::random, 0, 16, n});
    cases.push_back({Distribution::random, 8, 24, n});
    cases.push_back({Distribution::nearly_sorted, 0, 16, n});
  }
  cases.push_back({Distribution::random, 0, 16, std::size_t{1} << 22});
  cases.push_back({Distribution::random, 5, 17, 100001});  // odd pass count, unaligned range
  return cases;
}

class SortAllAlgorithms : public ::testing::TestWithParam<Case> {};

TEST_P(SortAllAlgorithms, MatchesStableSort) {
  SKIP_WITHOUT_DEVICE();
  const Case c = GetParam();
  const KeyBits bits{c.begin_bit, c.end_bit};
  const auto keys = testing::make_keys(c.dist, c.n, c.begin_bit, c.end_bit, 1234 + c.n);
  std::vector<std::uint32_t> values(c.n);
  std::iota(values.begin(), values.end(), 0u);

  std::vector<std::uint32_t> order(c.n);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return bits(keys[a]) < bits(keys[b]); });
  std::vector<std::uint32_t> expected_keys(c.n);
  for (std::size_t i = 0; i < c.n; ++i) expected_keys[i] = keys[order[i]];

  DeviceBuffer<std::uint32_t> d_keys(std::max<std::size_t>(c.n, 1)),
      d_values(std::max<std::size_t>(c.n, 1)), d_count(1);
  cudaStream_t stream = nullptr;
  CUDA_CHECK(cudaStreamCreate(&stream));

  // The probe on the input, against its twin.
  test::upload(d_keys.data(), keys);
  count_descents(d_keys.data(), c.n, c.begin_bit, c.end_bit, d_count.data(), stream);
  std::uint32_t descents = 0;
  CUDA_CHECK(cudaMemcpyAsync(&descents, d_count.data(), 4, cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  EXPECT_EQ(descents, cpu_count_descents(keys, c.begin_bit, c.end_bit));

  std::vector<std::uint32_t> got_keys(c.n), got_values(c.n);
  for (Algorithm a : kAlgorithms) {
    test::upload(d_keys.data(), keys);
    test::upload(d_values.data(), values);
    sorter(a).sort(d_keys.data(), d_values.data(), c.n, c.begin_bit, c.end_bit, stream);
    CUDA_CHECK(
        cudaMemcpyAsync(got_keys.data(), d_keys.data(), c.n * 4, cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaMemcpyAsync(got_values.data(), d_values.data(), c.n * 4, cudaMemcpyDeviceToHost,
                               stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    std::size_t bad = c.n;
    for (std::size_t i = 0; i < c.n; ++i)
      if (got_keys[i] != expected_keys[i] || got_values[i] != order[i]) {
        bad = i;
        break;
      }
    EXPECT_EQ(bad, c.n) << to_string(a) << ": first wrong position " << bad << " (key "
                        << (bad < c.n ? got_keys[bad] : 0) << " value "
                        << (bad < c.n ? got_values[bad] : 0) << ", expected key "
                        << (bad < c.n ? expected_keys[bad] : 0) << " value "
                        << (bad < c.n ? order[bad] : 0) << ")";
  }
  CUDA_CHECK(cudaStreamDestroy(stream));
}

INSTANTIATE_TEST_SUITE_P(Sort, SortAllAlgorithms, ::testing::ValuesIn(make_cases()), case_name);

// Stream capture: sort() must enqueue only graph-capturable work (no sync, no allocation).
TEST(SortGraph, small_CaptureAndReplayEveryAlgorithm) {
  SKIP_WITHOUT_DEVICE();
  for (std::size_t n : {std::size_t{3000}, std::size_t{100000}}) {
    const auto keys = testing::make_keys(Distribution::random, n, 0, 32, 99);
    std::vector<std::uint32_t> values(n), expected = keys;
    std::iota(values.begin(), values.end(), 0u);
    std::stable_sort(expected.begin(), expected.end());
    DeviceBuffer<std::uint32_t> d_keys(n), d_values(n), d_src_keys(n), d_src_values(n);
    test::upload(d_src_keys.data(), keys);
    test::upload(d_src_values.data(), values);
    cudaStream_t stream = nullptr;
    CUDA_CHECK(cudaStreamCreate(&stream));
    for (Algorithm a : kAlgorithms) {
      Sorter& s = sorter(a);  // built (allocated) before the capture starts
      const GraphExec exec = capture_graph(stream, [&] {
        CUDA_CHECK(cudaMemcpyAsync(d_keys.data(), d_src_keys.data(), n * 4,
                                   cudaMemcpyDeviceToDevice, stream));
        CUDA_CHECK(cudaMemcpyAsync(d_values.data(), d_src_values.data(), n * 4,
                                   cudaMemcpyDeviceToDevice, stream));
        s.sort(d_keys.data(), d_values.data(), n, 0, 32, stream);
      });
      std::vector<std::uint32_t> got(n);
      for (int replay = 0; replay < 2; ++replay) {
        CUDA_CHECK(cudaGraphLaunch(exec.get(), stream));
        CUDA_CHECK(
            cudaMemcpyAsync(got.data(), d_keys.data(), n * 4, cudaMemcpyDeviceToHost, stream));
        CUDA_CHECK(cudaStreamSynchronize(stream));
        EXPECT_EQ(got, expected) << to_string(a) << " n=" << n << " replay " << replay;
      }
    }
    CUDA_CHECK(cudaStreamDestroy(stream));
  }
}

// Every compiled radix tile policy, forced, on sizes around its tile and on a run of sorts whose
// sizes shrink and grow again: look-back words left by an earlier, larger sort must never be
// taken for this sort's (they carry the earlier sort's epoch).
TEST(SortRadixPolicies, mid_EveryPolicyMatchesStableSortAcrossRepeatedSorts) {
  SKIP_WITHOUT_DEVICE();
  RadixSortEngine engine(std::size_t{1} << 18);
  cudaStream_t stream = nullptr;
  CUDA_CHECK(cudaStreamCreate(&stream));
  DeviceBuffer<std::uint32_t> d_keys(std::size_t{1} << 18), d_values(std::size_t{1} << 18);
  for (std::size_t p = 0; p < std::size(kRadixPolicies); ++p) {
    const std::size_t tile = static_cast<std::size_t>(kRadixPolicies[p].tile());
    for (std::size_t n : {std::size_t{1} << 18, tile - 1, tile + 1, 3 * tile + 7, std::size_t{5},
                          std::size_t{1} << 17}) {
      for (auto [dist, bits] :
           {std::pair{Distribution::random, 32}, std::pair{Distribution::few_unique, 32},
            std::pair{Distribution::random, 16}}) {
        const auto keys = testing::make_keys(dist, n, 0, bits, 31 * n + p);
        std::vector<std::uint32_t> values(n), order(n), got_keys(n), got_values(n);
        std::iota(values.begin(), values.end(), 0u);
        std::iota(order.begin(), order.end(), 0u);
        const KeyBits key_bits{0, bits};
        std::stable_sort(order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) {
          return key_bits(keys[x]) < key_bits(keys[y]);
        });
        test::upload(d_keys.data(), keys);
        test::upload(d_values.data(), values);
        engine.sort(d_keys.data(), d_values.data(), n, 0, bits, stream,
                    {.policy = static_cast<int>(p)});
        CUDA_CHECK(
            cudaMemcpyAsync(got_keys.data(), d_keys.data(), n * 4, cudaMemcpyDeviceToHost, stream));
        CUDA_CHECK(cudaMemcpyAsync(got_values.data(), d_values.data(), n * 4,
                                   cudaMemcpyDeviceToHost, stream));
        CUDA_CHECK(cudaStreamSynchronize(stream));
        bool ok = true;
        for (std::size_t i = 0; i < n && ok; ++i)
          ok = got_values[i] == order[i] && got_keys[i] == keys[order[i]];
        EXPECT_TRUE(ok) << "policy " << p << " (" << kRadixPolicies[p].threads << "x"
                        << kRadixPolicies[p].items_per_thread << ") n=" << n << " bits=" << bits;
      }
    }
  }
  CUDA_CHECK(cudaStreamDestroy(stream));
}

// final_values: the sorted values land in the target named by a device word (as the pipeline's
// GL element buffer), for even and odd pass counts and the trivial sizes; keys come back in place.
TEST(SortRadixFinalValues, small_ValuesGoToTheTargetKeysStayInPlace) {
  SKIP_WITHOUT_DEVICE();
  RadixSortEngine engine(1 << 16);
  DeviceBuffer<std::uint32_t> d_keys(1 << 16), d_values(1 << 16), target(1 << 16);
  auto target_at = test::to_device(std::vector<std::uint32_t*>{target.data()});
  for (auto [n, begin_bit, end_bit] :
       {std::tuple{std::size_t{40000}, 0, 32},  // 4 passes
        std::tuple{std::size_t{40000}, 0, 24},  // 3 passes
        std::tuple{std::size_t{3000}, 4, 12},   // 1 pass
        std::tuple{std::size_t{1}, 0, 32}, std::tuple{std::size_t{7}, 9, 9}}) {
    const KeyBits bits{begin_bit, end_bit};
    const auto keys = testing::make_keys(Distribution::random, n, begin_bit, end_bit, 3 * n);
    std::vector<std::uint32_t> values(n), order(n);
    std::iota(values.begin(), values.end(), 0u);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) {
      return bits(keys[x]) < bits(keys[y]);
    });
    test::upload(d_keys.data(), keys);
    test::upload(d_values.data(), values);
    engine.sort(d_keys.data(), d_values.data(), n, begin_bit, end_bit, nullptr,
                {.final_values = target_at.data()});
    std::vector<std::uint32_t> got_keys(n), got_values(n);
    got_keys = test::to_host(d_keys.data(), n);
    got_values = test::to_host(target.data(), n);
    EXPECT_EQ(got_values, order) << "n=" << n << " bits " << begin_bit << ".." << end_bit;
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_EQ(got_keys[i], keys[order[i]]) << "n=" << n << " position " << i;
  }
}

OddEvenStatus run_odd_even(const std::vector<std::uint32_t>& keys) {
  const std::size_t n = keys.size();
  auto s = make_odd_even_sorter(n);
  std::vector<std::uint32_t> values(n), expected = keys, got(n);
  std::stable_sort(expected.begin(), expected.end());
  DeviceBuffer<std::uint32_t> d_keys(n), d_values(n);
  test::upload(d_keys.data(), keys);
  test::upload(d_values.data(), values);
  s->sort(d_keys.data(), d_values.data(), n, 0, 32, nullptr);
  const OddEvenStatus status = test::to_host(s->device_status(), 1)[0];
  got = test::to_host(d_keys.data(), n);
  EXPECT_EQ(got, expected);
  return status;
}

OddEvenStatus run_odd_even(Distribution d, std::size_t n) {
  return run_odd_even(testing::make_keys(d, n, 0, 32, 5));
}

TEST(SortOddEven, mid_NearlySortedConvergesWithoutFallback) {
  SKIP_WITHOUT_DEVICE();
  const OddEvenStatus s = run_odd_even(Distribution::nearly_sorted, 1u << 18);
  EXPECT_EQ(s.converged, 1);
  EXPECT_EQ(s.fell_back, 0);
  EXPECT_GE(s.phases, 2);
  EXPECT_LE(s.phases, 6);
}

TEST(SortOddEven, mid_WideDisplacementStillOneRound) {
  // Keys 4i + U[0, 4000): displacement up to ~1000, beyond the 512-key windows but within half
  // a tile, so the round merges with whole neighbouring tiles. A short last tile (n % 4096 = 5).
  SKIP_WITHOUT_DEVICE();
  std::mt19937 rng(8);
  std::vector<std::uint32_t> keys((1u << 18) + 5);
  for (std::size_t i = 0; i < keys.size(); ++i)
    keys[i] = static_cast<std::uint32_t>(4 * i + rng() % 4000);
  const OddEvenStatus s = run_odd_even(keys);
  EXPECT_EQ(s.converged, 1);
  EXPECT_EQ(s.fell_back, 0);
}

TEST(SortOddEven, mid_RandomInputReportsItsPath) {
  SKIP_WITHOUT_DEVICE();
  const OddEvenStatus s = run_odd_even(Distribution::random, 1u << 18);
  EXPECT_EQ(s.converged + s.fell_back, 1);
  EXPECT_EQ(s.fell_back, 1);  // 64 tiles of random keys cannot converge within the cap
}

// One odd-even sorter across a run of inputs that take the window path, its crowded-bucket and
// all-equal cases, and the exact kernel in turn: the window path's device words (verdict, block
// counter, fallback enable) must be left ready for the next sort, and every result exact.
TEST(SortOddEven, mid_WindowPathAndFallbackAcrossRepeatedSorts) {
  SKIP_WITHOUT_DEVICE();
  const std::size_t cap = (std::size_t{1} << 18) + 5;
  auto s = make_odd_even_sorter(cap);
  DeviceBuffer<std::uint32_t> d_keys(cap), d_values(cap);
  struct Input {
    const char* name;
    std::vector<std::uint32_t> keys;
    int end_bit;
    bool window;  // expected to take the window path
  };
  std::vector<Input> inputs;
  inputs.push_back(
      {"nearly", testing::make_keys(Distribution::nearly_sorted, cap, 0, 32, 1), 32, true});
  inputs.push_back({"random", testing::make_keys(Distribution::random, cap, 0, 32, 2), 32, false});
  inputs.push_back({"nearly 16-bit (crowded buckets)",
                    testing::make_keys(Distribution::nearly_sorted, cap - 5, 0, 16, 3), 16, true});
  auto few = testing::make_keys(Distribution::few_unique, cap, 0, 32, 4);
  std::stable_sort(few.begin(), few.end());
  std::swap(few[5000], few[5001]);
  inputs.push_back({"sorted few-unique (radix path)", few, 32, true});
  inputs.push_back(
      {"all equal", testing::make_keys(Distribution::all_equal, 9000, 0, 32, 5), 32, true});
  auto far = testing::make_keys(Distribution::nearly_sorted, cap, 0, 32, 6);
  std::swap(far[70000], far[73000]);  // one pair 3000 places apart: the window check fails
  inputs.push_back({"nearly with a far pair", far, 32, false});
  inputs.push_back({"nearly again",
                    testing::make_keys(Distribution::nearly_sorted, 100001, 0, 32, 7), 32, true});
  for (const Input& in : inputs) {
    const std::size_t n = in.keys.size();
    const KeyBits bits{0, in.end_bit};
    std::vector<std::uint32_t> values(n), order(n), got_keys(n), got_values(n);
    std::iota(values.begin(), values.end(), 0u);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) {
      return bits(in.keys[x]) < bits(in.keys[y]);
    });
    test::upload(d_keys.data(), in.keys);
    test::upload(d_values.data(), values);
    s->sort(d_keys.data(), d_values.data(), n, 0, in.end_bit, nullptr);
    const OddEvenStatus status = test::to_host(s->device_status(), 1)[0];
    got_keys = test::to_host(d_keys.data(), n);
    got_values = test::to_host(d_values.data(), n);
    bool ok = true;
    for (std::size_t i = 0; i < n && ok; ++i)
      ok = got_values[i] == order[i] && got_keys[i] == in.keys[order[i]];
    EXPECT_TRUE(ok) << in.name;
    if (in.window) {
      EXPECT_EQ(status.converged, 1) << in.name;
      EXPECT_EQ(status.fell_back, 0) << in.name;
    }
  }
}

// The window check reads and copies in 16-byte words only when both arrays are 16-byte aligned;
// arrays one word off (keys, values, or both) take its word-by-word path, with the same result.
TEST(SortOddEven, mid_WindowPathOnUnalignedArrays) {
  SKIP_WITHOUT_DEVICE();
  const std::size_t n = (std::size_t{1} << 18) + 5;
  auto s = make_odd_even_sorter(n);
  DeviceBuffer<std::uint32_t> d_keys(n + 1), d_values(n + 1);
  const auto keys = testing::make_keys(Distribution::nearly_sorted, n, 0, 32, 12);
  std::vector<std::uint32_t> values(n), order(n);
  std::iota(values.begin(), values.end(), 0u);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t x, std::uint32_t y) { return keys[x] < keys[y]; });
  for (auto [key_offset, value_offset] : {std::pair{1, 1}, std::pair{0, 1}, std::pair{1, 0}}) {
    std::uint32_t* k = d_keys.data() + key_offset;
    std::uint32_t* v = d_values.data() + value_offset;
    test::upload(k, keys);
    test::upload(v, values);
    s->sort(k, v, n, 0, 32, nullptr);
    const OddEvenStatus status = test::to_host(s->device_status(), 1)[0];
    std::vector<std::uint32_t> got_keys(n), got_values(n);
    got_keys = test::to_host(k, n);
    got_values = test::to_host(v, n);
    EXPECT_EQ(got_values, order) << "offsets " << key_offset << ", " << value_offset;
    bool keys_ok = true;
    for (std::size_t i = 0; i < n && keys_ok; ++i) keys_ok = got_keys[i] == keys[order[i]];
    EXPECT_TRUE(keys_ok) << "offsets " << key_offset << ", " << value_offset;
    EXPECT_EQ(status.converged, 1);
    EXPECT_EQ(status.fell_back, 0);
  }
}

// What a sort that reads an enable word leaves on the device: it is run on `keys` with the
// identity values and *enable = flag, through sort(keys, values, enable) on device arrays.
struct EnabledRun {
  std::vector<std::uint32_t> keys, values;
};
template <typename Sort>
EnabledRun run_enabled(const std::vector<std::uint32_t>& keys, std::int32_t flag, Sort sort) {
  const std::size_t n = keys.size();
  std::vector<std::uint32_t> values(n);
  std::iota(values.begin(), values.end(), 0u);
  auto d_keys = test::to_device(keys), d_values = test::to_device(values);
  auto enable = test::to_device(std::vector<std::int32_t>{flag});
  sort(d_keys.data(), d_values.data(), enable.data());
  return {test::to_host(d_keys.data(), n), test::to_host(d_values.data(), n)};
}

// SortRequest::enable (the pipeline's auto mode): with *enable == 0 nothing moves, whichever path
// the input would take, and the next enabled sort is exact on both paths (the disabled sort must
// not leave its window words behind).
TEST(SortOddEven, mid_DisabledSortChangesNothing) {
  SKIP_WITHOUT_DEVICE();
  constexpr std::size_t n = std::size_t{1} << 18;
  auto s = make_odd_even_sorter(n);
  const std::int32_t on = 1, off = 0;
  std::vector<std::uint32_t> values(n);
  std::iota(values.begin(), values.end(), 0u);
  for (auto dist :
       {Distribution::nearly_sorted, Distribution::random, Distribution::nearly_sorted}) {
    const auto keys = testing::make_keys(dist, n, 0, 32, 11);
    for (const std::int32_t* flag : {&off, &on}) {
      const auto [got_keys, got_values] =
          run_enabled(keys, *flag, [&](std::uint32_t* k, std::uint32_t* v, std::int32_t* e) {
            s->sort({.keys = k, .values = v, .n = n, .begin_bit = 0, .end_bit = 32, .enable = e},
                    nullptr);
          });
      if (*flag == 0) {
        EXPECT_EQ(got_keys, keys) << testing::name(dist);
        EXPECT_EQ(got_values, values) << testing::name(dist);
      } else {
        std::vector<std::uint32_t> order(n);
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(),
                         [&](std::uint32_t x, std::uint32_t y) { return keys[x] < keys[y]; });
        EXPECT_EQ(got_values, order) << testing::name(dist);
      }
    }
  }
}

// The enable-gated copy of the draw order into a target named by a device word (the pipeline's
// GL element buffer): 16-byte vectors where both arrays are so aligned, word by word for the rest,
// so lengths on both sides of multiples of 4 and a source or a target one word off alignment;
// disabled, it writes nothing, and it never writes past the length.
TEST(SortCopies, small_CopyValuesToEveryLengthAndAlignment) {
  SKIP_WITHOUT_DEVICE();
  constexpr std::size_t kWords = 70001;
  constexpr std::uint32_t kPoison = 0xdeadbeefu;
  DeviceBuffer<std::uint32_t> src(kWords), dst(kWords);
  DeviceBuffer<std::uint32_t*> dst_at(1);
  DeviceBuffer<std::int32_t> enable(1);
  std::vector<std::uint32_t> source(kWords);
  for (std::size_t i = 0; i < kWords; ++i) source[i] = static_cast<std::uint32_t>(i) * 2654435761u;
  test::upload(src.data(), source);
  const std::vector<std::uint32_t> poison(kWords, kPoison);
  for (std::uint32_t n : {1u, 3u, 4u, 5u, 1023u, 4096u, 4099u, 65538u, 69999u}) {
    for (std::uint32_t src_offset : {0u, 1u}) {
      for (std::uint32_t dst_offset : {0u, 1u}) {
        for (std::int32_t on : {0, 1}) {
          test::upload(dst.data(), poison);
          test::upload(dst_at.data(), std::vector<std::uint32_t*>{dst.data() + dst_offset});
          test::upload(enable.data(), std::vector<std::int32_t>{on});
          detail::copy_values_to_kernel<<<detail::grid_stride_blocks(n, detail::kCopyThreads, 1),
                                          detail::kCopyThreads>>>(src.data() + src_offset,
                                                                  dst_at.data(), n, enable.data());
          CUDA_CHECK(cudaGetLastError());
          const std::vector<std::uint32_t> got = test::to_host(dst.data(), kWords);
          for (std::size_t i = 0; i < kWords; ++i) {
            const bool copied = on != 0 && i >= dst_offset && i < dst_offset + n;
            const std::uint32_t want = copied ? source[i - dst_offset + src_offset] : kPoison;
            ASSERT_EQ(got[i], want) << "n " << n << " offsets " << src_offset << "/" << dst_offset
                                    << " enabled " << on << " word " << i;
          }
        }
      }
    }
  }
}

// The names are core's (core/algorithm.hpp, tested in tests/unit/frame_choices_test.cpp).
TEST(SortInterface, AutoIsNoSorterAndBadArgumentsThrow) {
  // Refused before anything is allocated, so without a device too.
  EXPECT_THROW(make_sorter(Algorithm::automatic, 16), std::invalid_argument);
  SKIP_WITHOUT_DEVICE();
  for (Algorithm a : kAlgorithms) EXPECT_EQ(sorter(a).algorithm(), a) << to_string(a);
  auto s = make_sorter(Algorithm::radix, 16);
  EXPECT_THROW(s->sort(nullptr, nullptr, 17, 0, 32, nullptr), std::invalid_argument);
  EXPECT_THROW(s->sort(nullptr, nullptr, 4, 8, 4, nullptr), std::invalid_argument);
}

}  // namespace
}  // namespace particles::cuda
