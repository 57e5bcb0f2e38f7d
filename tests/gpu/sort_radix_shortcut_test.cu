// The radix sort's MSD-first shortcut (radix_engine.hpp): both of its device-side outcomes (every
// top-digit bucket fits a block, or one does not and the LSD passes run) against
// std::stable_sort, with full and partial bit ranges, odd and even pass counts, the values
// written to a separate target, and a disabled sort that must leave everything untouched.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "bench/key_distributions.hpp"
#include "cuda/common/check.hpp"
#include "cuda/common/device_buffer.hpp"
#include "cuda/sort/cpu/cpu_reference.hpp"
#include "cuda/sort/key_bits.hpp"
#include "cuda/sort/policy.hpp"
#include "cuda/sort/radix/radix_bucket_sort.cuh"
#include "cuda/sort/radix/radix_engine.hpp"
#include "sort_test_device.hpp"

namespace particles::cuda {
namespace {

using testing::Distribution;

std::vector<std::uint32_t> stable_order(const std::vector<std::uint32_t>& keys, KeyBits bits) {
  std::vector<std::uint32_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t x, std::uint32_t y) { return bits(keys[x]) < bits(keys[y]); });
  return order;
}

struct Outcome {
  bool exact;
  int partition_pass;  // -1: plain LSD
  bool took_shortcut() const { return partition_pass >= 0; }
};

// Sorts (keys, index) on the device and compares keys and values with the stable order.
// final_target: when set, the values are expected there instead of in place.
Outcome sort_and_check(RadixSortEngine& engine, const std::vector<std::uint32_t>& keys,
                       KeyBits bits, DeviceBuffer<std::uint32_t>& d_keys,
                       DeviceBuffer<std::uint32_t>& d_values,
                       DeviceBuffer<std::uint32_t*>* final_target = nullptr,
                       DeviceBuffer<std::uint32_t>* target = nullptr) {
  const std::size_t n = keys.size();
  std::vector<std::uint32_t> values(n), got_keys(n), got_values(n);
  std::iota(values.begin(), values.end(), 0u);
  CUDA_CHECK(cudaMemcpy(d_keys.data(), keys.data(), n * 4, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_values.data(), values.data(), n * 4, cudaMemcpyHostToDevice));
  engine.sort(d_keys.data(), d_values.data(), n, bits.begin_bit, bits.end_bit, nullptr,
              {.final_values = final_target != nullptr ? final_target->data() : nullptr});
  CUDA_CHECK(cudaMemcpy(got_keys.data(), d_keys.data(), n * 4, cudaMemcpyDeviceToHost));
  const std::uint32_t* values_at = target != nullptr ? target->data() : d_values.data();
  CUDA_CHECK(cudaMemcpy(got_values.data(), values_at, n * 4, cudaMemcpyDeviceToHost));
  const auto order = stable_order(keys, bits);
  bool exact = got_values == order;
  for (std::size_t i = 0; i < n && exact; ++i) exact = got_keys[i] == keys[order[i]];
  return {exact, engine.last_partition_pass()};
}

// Forced on, the shortcut is taken whenever every top-digit bucket fits a block, and either way
// the result is the stable order: sizes across the bucket capacity, distributions that fit
// (random) and that cannot (all equal, few unique at sizes above one block).
TEST(SortRadixShortcut, mid_ForcedShortcutIsExactWhetherOrNotTheBucketsFit) {
  SKIP_WITHOUT_DEVICE();
  constexpr std::size_t kMax = std::size_t{1} << 18;
  RadixSortEngine engine(kMax);
  engine.set_shortcut(RadixShortcut::always);
  DeviceBuffer<std::uint32_t> d_keys(kMax), d_values(kMax);
  const std::size_t largest_bucket = static_cast<std::size_t>(
      kRadixBucketPolicies[std::size(kRadixBucketPolicies) - 1].capacity());
  for (std::size_t n : {std::size_t{2}, std::size_t{33}, std::size_t{4097}, largest_bucket,
                        largest_bucket + 1, std::size_t{100003}, kMax}) {
    for (auto dist : {Distribution::random, Distribution::all_equal, Distribution::few_unique,
                      Distribution::reversed, Distribution::nearly_sorted}) {
      for (KeyBits bits :
           {KeyBits{0, 32}, KeyBits{0, 16}, KeyBits{4, 28}, KeyBits{0, 20}, KeyBits{3, 14}}) {
        const auto keys = testing::make_keys(dist, n, bits.begin_bit, bits.end_bit, 7 * n + 1);
        const Outcome got = sort_and_check(engine, keys, bits, d_keys, d_values);
        EXPECT_TRUE(got.exact) << testing::name(dist) << " n=" << n << " bits " << bits.begin_bit
                               << ".." << bits.end_bit;
        // Equal keys share one bucket: above a block's capacity the LSD passes must have run.
        if (dist == Distribution::all_equal && n > largest_bucket) {
          EXPECT_FALSE(got.took_shortcut()) << "n=" << n;
        }
        if (dist == Distribution::random && bits.width() == 32 && n <= 4097) {
          EXPECT_TRUE(got.took_shortcut()) << "n=" << n;
        }
      }
    }
  }
}

// By size (the default), at 2^20 pairs: spread keys partition on the top digit; keys whose top
// 16 bits are shared (as float depths share sign and exponent) partition on the highest digit
// that varies; a digit with crowded buckets (few unique keys) keeps plain LSD; and the shortcut
// switched off keeps plain LSD. Every bucket-sort policy, forced, gives the same exact result.
TEST(SortRadixShortcut, large_BySizePartitionsOnTheHighestVaryingDigit) {
  SKIP_WITHOUT_DEVICE();
  constexpr std::size_t n = std::size_t{1} << 20;
  RadixSortEngine engine(n);
  DeviceBuffer<std::uint32_t> d_keys(n), d_values(n);
  const auto spread = testing::make_keys(Distribution::random, n, 0, 32, 11);
  const Outcome a = sort_and_check(engine, spread, KeyBits{0, 32}, d_keys, d_values);
  EXPECT_TRUE(a.exact);
  EXPECT_EQ(a.partition_pass, 3);
  auto shared_top = spread;
  for (auto& k : shared_top) k = 0x3f800000u | (k & 0xffffu);
  const Outcome b = sort_and_check(engine, shared_top, KeyBits{0, 32}, d_keys, d_values);
  EXPECT_TRUE(b.exact);
  EXPECT_EQ(b.partition_pass, 1);
  const auto crowded = testing::make_keys(Distribution::few_unique, n, 0, 32, 12);
  const Outcome c = sort_and_check(engine, crowded, KeyBits{0, 32}, d_keys, d_values);
  EXPECT_TRUE(c.exact);
  EXPECT_EQ(c.partition_pass, -1);
  for (int policy = 0; policy < static_cast<int>(std::size(kRadixBucketPolicies)); ++policy) {
    engine.set_bucket_policy(policy);
    const Outcome d = sort_and_check(engine, spread, KeyBits{0, 32}, d_keys, d_values);
    EXPECT_TRUE(d.exact) << "bucket policy " << policy;
    // The smallest block may not hold the fullest bucket; then the sort stays plain LSD.
    if (policy > 0) EXPECT_EQ(d.partition_pass, 3) << "bucket policy " << policy;
  }
  engine.set_bucket_policy(-1);
  engine.set_shortcut(RadixShortcut::never);
  const Outcome e = sort_and_check(engine, spread, KeyBits{0, 32}, d_keys, d_values);
  EXPECT_TRUE(e.exact);
  EXPECT_EQ(e.partition_pass, -1);
}

// Inside each top-digit bucket the bucket sort ranks by sub-buckets of the lower bits' range
// when they are spread, copies the bucket when the lower bits are all equal, and sorts by 8-bit
// digits when some sub-bucket is crowded. Random top bytes (every bucket fits) with lower bits
// built for each of those paths, every bucket-sort policy, 4, 3 and 2 passes. The expected result
// is the CPU twin's (a stable partition by the top digit, then cpu_bucket_tile_sort of each
// bucket with the block's sub-bucket bits), which also says which path each bucket takes.
TEST(SortRadixShortcut, mid_EveryBucketSortPathIsExact) {
  SKIP_WITHOUT_DEVICE();
  constexpr std::size_t n = std::size_t{1} << 18;  // about 1024 pairs a bucket
  RadixSortEngine engine(n);
  engine.set_shortcut(RadixShortcut::always);
  DeviceBuffer<std::uint32_t> d_keys(n), d_values(n);
  const auto top = testing::make_keys(Distribution::random, n, 0, 32, 21);
  const auto noise = testing::make_keys(Distribution::random, n, 0, 32, 22);
  enum class Path { spread, lsd, either };
  struct Case {
    const char* name;
    std::uint32_t (*low)(std::uint32_t noise, std::size_t i);
    Path path;
  };
  const Case cases[] = {
      {"spread", [](std::uint32_t r, std::size_t) { return r & 0xffffffu; }, Path::spread},
      // All equal: the twin (and the kernel) leave the bucket in input order, the spread path.
      {"all equal", [](std::uint32_t, std::size_t) { return 0x5a5a5au; }, Path::spread},
      // 1024 pairs of a bucket on 5 values: sub-buckets of ~200 keys.
      {"five values", [](std::uint32_t r, std::size_t) { return (r % 5u) * 0x30001u; }, Path::lsd},
      // A narrow range (64 values): one sub-bucket a value, ~16 keys each.
      {"narrow", [](std::uint32_t r, std::size_t) { return 0x100000u + (r & 63u); }, Path::either},
      // Half of each bucket one repeated value, half spread: one crowded sub-bucket.
      {"half repeated",
       [](std::uint32_t r, std::size_t i) { return i % 2 == 0 ? 0x777777u : r & 0xffffffu; },
       Path::lsd},
      // 512 values spread over the range, two keys each in a bucket: ties inside sub-buckets,
      // which must keep their input order.
      {"ties", [](std::uint32_t r, std::size_t) { return (r & 511u) * 0x2001u; }, Path::spread},
  };
  const int spread_bits[] = {
      detail::spread_bucket_bits<kRadixBucketPolicies[0].threads,
                                 kRadixBucketPolicies[0].items_per_thread>(),
      detail::spread_bucket_bits<kRadixBucketPolicies[1].threads,
                                 kRadixBucketPolicies[1].items_per_thread>()};
  static_assert(std::size(kRadixBucketPolicies) == std::size(spread_bits), "one per policy");
  for (const Case& c : cases) {
    std::vector<std::uint32_t> keys(n);
    for (std::size_t i = 0; i < n; ++i) keys[i] = (top[i] & 0xff000000u) | c.low(noise[i], i);
    for (int policy = 0; policy < static_cast<int>(std::size(kRadixBucketPolicies)); ++policy) {
      engine.set_bucket_policy(policy);
      for (KeyBits bits : {KeyBits{0, 32}, KeyBits{8, 32}, KeyBits{16, 32}}) {
        // The twin: stable partition by the top digit (bits 24..31), then each bucket.
        const KeyBits digit{24, 32}, low{bits.begin_bit, 24};
        std::vector<std::uint32_t> order(n);
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) {
          return digit(keys[x]) < digit(keys[y]);
        });
        std::vector<std::uint32_t> want_keys(n);
        for (std::size_t i = 0; i < n; ++i) want_keys[i] = keys[order[i]];
        int spread_buckets = 0, lsd_buckets = 0;
        for (std::size_t first = 0; first < n;) {
          std::size_t last = first;
          while (last < n && digit(want_keys[last]) == digit(want_keys[first])) ++last;
          const bool spread =
              cpu_bucket_tile_sort(std::span(want_keys).subspan(first, last - first),
                                   std::span(order).subspan(first, last - first), low,
                                   spread_bits[policy], kRadixSpreadBucketLimit);
          ++(spread ? spread_buckets : lsd_buckets);
          first = last;
        }
        // Two passes leave 8 bits below the partition digit, which the kernel always ranks by
        // LSD; the paths the cases are built for apply from 3 passes.
        if (bits.width() > 2 * kRadixBits) {
          if (c.path == Path::spread) EXPECT_EQ(lsd_buckets, 0) << c.name;
          if (c.path == Path::lsd) EXPECT_EQ(spread_buckets, 0) << c.name;
        }

        std::vector<std::uint32_t> values(n), got_keys(n), got_values(n);
        std::iota(values.begin(), values.end(), 0u);
        CUDA_CHECK(cudaMemcpy(d_keys.data(), keys.data(), n * 4, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(d_values.data(), values.data(), n * 4, cudaMemcpyHostToDevice));
        engine.sort(d_keys.data(), d_values.data(), n, bits.begin_bit, bits.end_bit, nullptr);
        CUDA_CHECK(cudaMemcpy(got_keys.data(), d_keys.data(), n * 4, cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(got_values.data(), d_values.data(), n * 4, cudaMemcpyDeviceToHost));
        EXPECT_EQ(got_keys, want_keys)
            << c.name << " policy " << policy << " bits " << bits.begin_bit << ".." << bits.end_bit;
        EXPECT_EQ(got_values, order) << c.name << " policy " << policy;
        // With the top byte varying, the top digit partitions (the buckets fit every policy).
        EXPECT_EQ(engine.last_partition_pass(), bits.width() / kRadixBits - 1) << c.name;
      }
    }
  }
}

// final_values with the shortcut on and off: values land in the target, keys in place, for even
// (4) and odd (3) pass counts.
TEST(SortRadixShortcut, mid_ValuesGoToTheFinalTargetOnBothPaths) {
  SKIP_WITHOUT_DEVICE();
  constexpr std::size_t n = 50000;
  RadixSortEngine engine(n);
  engine.set_shortcut(RadixShortcut::always);
  DeviceBuffer<std::uint32_t> d_keys(n), d_values(n), target(n);
  DeviceBuffer<std::uint32_t*> target_at(1);
  std::uint32_t* target_ptr = target.data();
  CUDA_CHECK(cudaMemcpy(target_at.data(), &target_ptr, sizeof target_ptr, cudaMemcpyHostToDevice));
  for (auto [dist, bits] : {std::tuple{Distribution::random, KeyBits{0, 32}},
                            std::tuple{Distribution::random, KeyBits{0, 24}},
                            std::tuple{Distribution::all_equal, KeyBits{0, 32}},
                            std::tuple{Distribution::all_equal, KeyBits{0, 24}}}) {
    const auto keys = testing::make_keys(dist, n, bits.begin_bit, bits.end_bit, 5);
    const Outcome got = sort_and_check(engine, keys, bits, d_keys, d_values, &target_at, &target);
    EXPECT_TRUE(got.exact) << testing::name(dist) << " bits 0.." << bits.end_bit;
    EXPECT_EQ(got.took_shortcut(), dist == Distribution::random) << testing::name(dist);
  }
}

// A disabled sort (*enable == 0) leaves keys and values untouched whichever path was planned,
// including after a sort that took the shortcut (its decision words must not be reused).
TEST(SortRadixShortcut, mid_DisabledSortChangesNothing) {
  SKIP_WITHOUT_DEVICE();
  constexpr std::size_t n = std::size_t{1} << 18;
  RadixSortEngine engine(n);
  engine.set_shortcut(RadixShortcut::always);
  DeviceBuffer<std::uint32_t> d_keys(n), d_values(n);
  DeviceBuffer<std::int32_t> enable(1);
  const auto keys = testing::make_keys(Distribution::random, n, 0, 32, 3);
  ASSERT_TRUE(sort_and_check(engine, keys, KeyBits{0, 32}, d_keys, d_values).took_shortcut());
  std::vector<std::uint32_t> values(n), got_keys(n), got_values(n);
  std::iota(values.begin(), values.end(), 0u);
  CUDA_CHECK(cudaMemcpy(d_keys.data(), keys.data(), n * 4, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_values.data(), values.data(), n * 4, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(enable.data(), 0, sizeof(std::int32_t)));
  engine.sort(d_keys.data(), d_values.data(), n, 0, 32, nullptr, {.enable = enable.data()});
  CUDA_CHECK(cudaMemcpy(got_keys.data(), d_keys.data(), n * 4, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(got_values.data(), d_values.data(), n * 4, cudaMemcpyDeviceToHost));
  EXPECT_EQ(got_keys, keys);
  EXPECT_EQ(got_values, values);
}

}  // namespace
}  // namespace particles::cuda
