// The splitter partition sort on the GPU against its CPU twin: the same decision (sort or fall
// back) on every input, the stable sort when it sorts, the input untouched and the fallback word
// set when it does not; splitters taken from sorted keys on the device; nothing when disabled.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "cuda/auto/partition_append.cuh"
#include "cuda/auto/splitter_partition_cpu.hpp"
#include "cuda/auto/splitter_partition_sort.hpp"
#include "cuda/common/check.hpp"
#include "cuda/common/device_buffer.hpp"
#include "tests/gpu/device_copies.hpp"
#include "tests/gpu/sort_test_device.hpp"
#include "tests/sort/sort_partition_data.hpp"

namespace particles::cuda {
namespace {

using testing::PartitionCase;

using particles::test::to_device;
using particles::test::to_host;

constexpr std::int32_t kUnwritten = 7;

struct Outcome {
  std::vector<std::uint32_t> keys, values;
  std::int32_t enable, fallback;
  std::uint32_t ran;
};

// Gives the sort the case's splitters the way the pipeline does (note_sorted over last frame's
// sorted keys, rebuilt here from the splitters), then sorts with the given enable word.
Outcome run(SplitterPartitionSort& sort, const PartitionCase& c, std::int32_t enable = 1,
            bool with_splitters = true, const PartitionExtras& extras = {}) {
  const auto n = static_cast<std::uint32_t>(c.keys.size());
  if (with_splitters) {
    auto d_sorted = to_device(testing::keys_noted_for(c));
    sort.note_sorted(d_sorted.data(), n, nullptr);
  } else {
    sort.forget_splitters(nullptr);
  }
  auto keys = to_device(c.keys), values = to_device(c.values);
  // The fallback word starts as neither answer: a sort that runs must write it either way.
  auto words = to_device(std::vector<std::int32_t>{enable, kUnwritten});
  auto ran = to_device(std::vector<std::uint32_t>{7u});
  sort.sort_enabled(keys.data(), values.data(), n, nullptr, words.data(), words.data() + 1,
                    ran.data(), extras);
  CUDA_CHECK(cudaDeviceSynchronize());
  const auto w = to_host(words.data(), 2);
  return {to_host(keys.data(), n), to_host(values.data(), n), w[0], w[1],
          to_host(ran.data(), 1)[0]};
}

void expect_same_as_twin(SplitterPartitionSort& sort, PartitionCase c) {
  const Outcome gpu = run(sort, c);
  const bool sorts = cpu_splitter_partition_sort(c.keys, c.values, c.splitters);
  EXPECT_EQ(gpu.ran, sorts ? 1u : 0u);
  EXPECT_EQ(gpu.enable, 1);  // read only
  EXPECT_EQ(gpu.fallback, sorts ? 0 : 1);
  ASSERT_EQ(gpu.keys, c.keys);  // the twin's result: sorted, or the input when it refused
  ASSERT_EQ(gpu.values, c.values);
}

TEST(SortPartition, MatchesTheCpuTwinOnMovedKeys) {
  SKIP_WITHOUT_DEVICE();
  SplitterPartitionSort sort((1u << 20) + 4097);
  const std::uint32_t bucket = kPartitionBucket;
  for (const std::uint32_t n :
       {1u, 2u, bucket - 1, bucket, bucket + 1, 100000u, (1u << 20) + 4097}) {
    SCOPED_TRACE(n);
    const std::uint32_t span = 1u << 30, per_place = span / n + 1;
    expect_same_as_twin(sort, testing::moved_keys(n, span, 0, 0, 1, 1));
    expect_same_as_twin(sort, testing::moved_keys(n, span, per_place * 3000, 0, 1, 2));
    expect_same_as_twin(sort, testing::moved_keys(n, span, per_place * 12000, 0, 1, 3));
    expect_same_as_twin(sort, testing::moved_keys(n, span, 1000, 1 << 20, 1, 4));
    expect_same_as_twin(sort, testing::moved_keys(n, 1u << 20, 50, 0, 7, 5));  // ties
    expect_same_as_twin(sort, testing::moved_keys(n, 0xffffffffu, per_place * 500, 0, 1, 6));
    // Runs of 40 equal keys crowd the one-pass ranking: LSD passes by place, then by key.
    expect_same_as_twin(sort, testing::moved_keys(n, span, per_place * 100, 0, 40, 7));
    expect_same_as_twin(sort, testing::moved_keys(n, span, 0, 0, 1500, 8));
    // Far from their places: no limit but the buckets' capacity.
    expect_same_as_twin(
        sort, testing::shuffled_within(testing::moved_keys(n, span, 0, 0, 1, 9), 40000, 9));
  }
}

// A bucket with more keys than a usual one, up to its capacity: the rows past the ones a thread
// holds are read again from the slots, by the one-pass ranking (distinct keys) and by the LSD
// passes (a run of equal keys crowding it).
TEST(SortPartition, FullerBucketsSortAsTheTwinDoes) {
  SKIP_WITHOUT_DEVICE();
  const std::uint32_t n = 100000, span = 1u << 30;
  SplitterPartitionSort sort(n);
  const std::uint32_t bucket = kPartitionBucket, capacity = kPartitionBucketCapacity;
  for (const std::uint32_t extra : {bucket / 4 + 7, bucket / 2, capacity - bucket - 64}) {
    for (const bool equal : {false, true}) {
      SCOPED_TRACE(::testing::Message() << extra << (equal ? " equal" : " spread"));
      const PartitionCase c =
          testing::crowd_bucket(testing::moved_keys(n, span, 0, 0, 1, 61), 5, extra, equal);
      PartitionCase twin = c;
      ASSERT_TRUE(cpu_splitter_partition_sort(twin.keys, twin.values, twin.splitters));
      expect_same_as_twin(sort, c);
    }
  }
}

TEST(SortPartition, FallsBackWhereTheTwinRefuses) {
  SKIP_WITHOUT_DEVICE();
  const std::uint32_t n = 100000, span = 1u << 30;
  SplitterPartitionSort sort(n);
  // Shifted past every splitter, one bucket over capacity.
  for (PartitionCase c : {testing::moved_keys(n, span, 0, std::int64_t{1} << 31, 1, 6),
                          testing::moved_keys(n, span, 0, 0, kPartitionBucketCapacity + 1000, 7)}) {
    const Outcome gpu = run(sort, c);
    EXPECT_EQ(gpu.ran, 0u);
    EXPECT_EQ(gpu.fallback, 1);
    EXPECT_EQ(gpu.enable, 1);
    EXPECT_EQ(gpu.keys, c.keys);
    EXPECT_EQ(gpu.values, c.values);
  }
  PartitionCase reversed = testing::moved_keys(n, span, 0, 0, 1, 8);
  std::reverse(reversed.keys.begin(), reversed.keys.end());
  expect_same_as_twin(sort, reversed);
  // A sort after a refusal starts clean (the overflow word and the counts were cleared).
  expect_same_as_twin(sort, testing::moved_keys(n, span, 0, 0, 1, 9));
}

// The extras: the values also written to a target named by a device word and the splitters the
// sorted keys give (as note_sorted takes them), only when the sort runs; a refusal leaves the
// target and the splitters alone. The finish word says which: 0 sorted, 1 refused.
TEST(SortPartition, ExtrasAreDoneOnlyWhenItSorts) {
  SKIP_WITHOUT_DEVICE();
  const std::uint32_t n = 300001, span = 1u << 30;
  SplitterPartitionSort sort(n);
  const PartitionCase sorts = testing::moved_keys(n, span, span / n * 3000, 0, 1, 21);
  const PartitionCase refuses = testing::moved_keys(n, span, 0, std::int64_t{1} << 31, 1, 22);
  for (const PartitionCase* c : {&sorts, &refuses}) {
    const std::vector<std::uint32_t> untouched(n, 0xdeadbeefu);
    auto target = to_device(untouched);
    auto target_at = to_device(std::vector<std::uint32_t*>{target.data()});
    auto finish = to_device(std::vector<std::int32_t>{kUnwritten});  // written either way
    const PartitionExtras extras{
        .final_values = target_at.data(), .note_splitters = true, .finish_enable = finish.data()};
    const Outcome gpu = run(sort, *c, 1, true, extras);
    PartitionCase expected = *c;
    const bool sorted =
        cpu_splitter_partition_sort(expected.keys, expected.values, expected.splitters);
    ASSERT_EQ(gpu.ran, sorted ? 1u : 0u);
    ASSERT_EQ(gpu.keys, expected.keys);
    EXPECT_EQ(to_host(target.data(), n), sorted ? expected.values : untouched);
    EXPECT_EQ(to_host(finish.data(), 1)[0], sorted ? 0 : 1);
    // Splitters: this sort's keys when it sorted, else those run() noted before it.
    // Splitter 0 is never written (bucket 0 has no lower bound): read from 1.
    const auto got = to_host(sort.device_splitters() + 1, c->splitters.size() - 1);
    for (std::uint32_t j = 1; j < c->splitters.size(); ++j) {
      ASSERT_EQ(got[j - 1], sorted ? expected.keys[j * kPartitionBucket] : c->splitters[j]) << j;
    }
  }
}

TEST(SortPartition, NeedsSplittersForItsOwnKeyCount) {
  SKIP_WITHOUT_DEVICE();
  const std::uint32_t n = 50000;
  SplitterPartitionSort sort(n);
  const PartitionCase c = testing::moved_keys(n, 1u << 30, 0, 0, 1, 10);
  Outcome none = run(sort, c, 1, false);
  EXPECT_EQ(none.ran, 0u);
  EXPECT_EQ(none.fallback, 1);
  EXPECT_EQ(none.keys, c.keys);
  // Splitters taken for another count do not serve this one.
  PartitionCase shorter = testing::moved_keys(n - 1, 1u << 30, 0, 0, 1, 11);
  (void)run(sort, shorter);
  auto keys = to_device(c.keys), values = to_device(c.values);
  auto words = to_device(std::vector<std::int32_t>{1, kUnwritten});
  auto ran = to_device(std::vector<std::uint32_t>{7u});
  sort.sort_enabled(keys.data(), values.data(), n, nullptr, words.data(), words.data() + 1,
                    ran.data());
  EXPECT_EQ(to_host(ran.data(), 1)[0], 0u);
  EXPECT_EQ(to_host(words.data(), 2), (std::vector<std::int32_t>{1, 1}));
  EXPECT_EQ(to_host(keys.data(), n), c.keys);
}

// A kernel that makes keys and appends them, as the pipeline's step and keys stage do (here
// the keys are only copied).
__global__ void copy_and_append_kernel(const std::uint32_t* in, std::uint32_t* out, std::uint32_t n,
                                       PartitionAppend target) {
  detail::make_and_append_keys(target, n, [&](std::uint32_t i) {
    out[i] = in[i];
    return in[i];
  });
}

// sort_appended: the keys a kernel appended, sorted with their places as the values, the made
// keys left alone; a disabled sort leaves the counts clear for the next one; with nothing
// appended since the last sort, it falls back; with no array for the sorted keys, only the
// values are written. Keys shuffled up to 40 buckets from their places send the appends' bucket
// searches far from their guesses; the smaller sort has 20 buckets.
TEST(SortPartition, SortsWhatAKernelAppended) {
  SKIP_WITHOUT_DEVICE();
  for (const std::uint32_t n : {200003u, 20u * kPartitionBucket - 5u}) {
    SCOPED_TRACE(n);
    const std::uint32_t span = 1u << 30;
    SplitterPartitionSort sort(n);
    for (const PartitionCase& c :
         {testing::moved_keys(n, span, span / n * 3000, 0, 1, 31),
          testing::moved_keys(n, span, 0, 0, 40, 32),
          testing::moved_keys(n, span, 0, std::int64_t{1} << 31, 1, 33),
          testing::shuffled_within(testing::moved_keys(n, span, 0, 0, 1, 34), 40 * kPartitionBucket,
                                   34)}) {
      auto d_sorted = to_device(testing::keys_noted_for(c)), in = to_device(c.keys);
      DeviceBuffer<std::uint32_t> made(n);
      auto out_keys = to_device(std::vector<std::uint32_t>(n, 0xdeadbeefu));
      auto out_values = to_device(std::vector<std::uint32_t>(n, 0xdeadbeefu));
      PartitionCase expected = c;
      std::iota(expected.values.begin(), expected.values.end(), 0u);
      const bool sorts =
          cpu_splitter_partition_sort(expected.keys, expected.values, expected.splitters);
      // Appended then disabled; appended again (the counts must be clear) and sorted; sorted
      // again with nothing appended since; appended and sorted keeping no keys.
      struct Round {
        bool append;
        std::int32_t enabled;
        bool may_sort;
        bool keep_keys = true;
      };
      for (const Round round : {Round{true, 0, false}, Round{true, 1, true}, Round{false, 1, false},
                                Round{true, 1, true, false}}) {
        SCOPED_TRACE(round.enabled + 2 * round.append + 4 * round.keep_keys);
        if (!round.keep_keys) {
          CUDA_CHECK(cudaMemset(out_keys.data(), 0xab, n * 4));
          CUDA_CHECK(cudaMemset(out_values.data(), 0xab, n * 4));
        }
        sort.note_sorted(d_sorted.data(), n, nullptr);
        const auto out_before = to_host(out_keys.data(), n);
        if (round.append) {
          copy_and_append_kernel<<<120, 256>>>(in.data(), made.data(), n, sort.append_target());
          CUDA_CHECK(cudaGetLastError());
        }
        auto words = to_device(std::vector<std::int32_t>{round.enabled, kUnwritten});
        auto ran = to_device(std::vector<std::uint32_t>{7u});
        sort.sort_appended(round.keep_keys ? out_keys.data() : nullptr, out_values.data(), n,
                           nullptr, words.data(), words.data() + 1, ran.data());
        CUDA_CHECK(cudaDeviceSynchronize());
        const bool sorted_now = round.may_sort && sorts;
        EXPECT_EQ(to_host(ran.data(), 1)[0], sorted_now ? 1u : 0u);
        EXPECT_EQ(to_host(words.data(), 2)[1],
                  round.enabled == 0 ? kUnwritten : (sorted_now ? 0 : 1));
        if (round.append) EXPECT_EQ(to_host(made.data(), n), c.keys);
        if (sorted_now) {
          ASSERT_EQ(to_host(out_keys.data(), n), round.keep_keys ? expected.keys : out_before);
          ASSERT_EQ(to_host(out_values.data(), n), expected.values);
        } else {
          ASSERT_EQ(to_host(out_keys.data(), n), out_before);
        }
      }
    }
  }
}

// A kernel that makes keys and appends them without storing them (PartitionAppend::
// keys_by_place set), as a partition stint's step does.
__global__ void append_only_kernel(const std::uint32_t* in, std::uint32_t n,
                                   PartitionAppend target) {
  detail::make_and_append_keys(target, n, [&](std::uint32_t i) { return in[i]; });
}

// Keys appended with a place for them (PartitionExtras::keys_by_place), as a partition stint
// does. A sort the buckets take leaves that array as it was. One where a bucket overflowed does
// not refuse: it sorts every key there (those past a bucket's capacity stored by their appends,
// the rest by their buckets) and their places to the values and the final values, stably, and
// says the buckets did not (ran 0) and nothing is left to do (fallback 0). Overflows: runs of
// equal keys longer than a bucket holds (keys nearly in order: the one round of merge-splits),
// and keys scattered at random below every splitter but the first (the merge rounds), on 2^21
// keys too, whose 513 buckets' blocks are more than an H200 holds at once (2 a SM). Each sort
// runs twice: the overflow sort's counters are left ready for the next.
TEST(SortPartition, AnOverflowWithKeysByPlaceIsSortedThere) {
  SKIP_WITHOUT_DEVICE();
  struct Case {
    const char* name;
    PartitionCase keys;
    bool overflows;
  };
  auto scattered = [](std::uint32_t n, std::uint32_t seed) {
    PartitionCase c = testing::moved_keys(n, 1u << 30, 0, 0, 1, seed);
    for (std::uint32_t i = 0; i < n; ++i) c.keys[i] = testing::mix32(i * 7 + seed) % (1u << 16);
    return c;
  };
  const std::uint32_t n = 100000, large = (1u << 21) + 333;
  std::vector<Case> cases;
  cases.push_back({"taken", testing::moved_keys(n, 1u << 30, 1u << 14, 0, 1, 51), false});
  cases.push_back(
      {"runs", testing::moved_keys(n, 1u << 30, 0, 0, kPartitionBucketCapacity + 1000, 52), true});
  cases.push_back({"scattered", scattered(n, 53), true});
  cases.push_back({"scattered, 2^21", scattered(large, 54), true});
  cases.push_back({"taken, 2^21", testing::moved_keys(large, 1u << 30, 1u << 12, 0, 1, 55), false});
  SplitterPartitionSort sort(large);
  for (const Case& c : cases) {
    const auto count = static_cast<std::uint32_t>(c.keys.keys.size());
    PartitionCase twin = c.keys;
    std::iota(twin.values.begin(), twin.values.end(), 0u);
    ASSERT_EQ(cpu_splitter_partition_sort(twin.keys, twin.values, twin.splitters), !c.overflows)
        << c.name;
    std::vector<std::uint32_t> places(count);
    std::iota(places.begin(), places.end(), 0u);
    std::stable_sort(places.begin(), places.end(), [&](std::uint32_t x, std::uint32_t y) {
      return c.keys.keys[x] < c.keys.keys[y];
    });
    std::vector<std::uint32_t> sorted_keys(count);
    for (std::uint32_t i = 0; i < count; ++i) sorted_keys[i] = c.keys.keys[places[i]];
    for (int repeat = 0; repeat < 2; ++repeat) {
      const std::string what = std::string(c.name) + ", sort " + std::to_string(repeat + 1);
      auto d_sorted = to_device(testing::keys_noted_for(c.keys)), in = to_device(c.keys.keys);
      auto by_place = to_device(std::vector<std::uint32_t>(count, 0xdeadbeefu));
      DeviceBuffer<std::uint32_t> out_values(count), target(count);
      auto target_at = to_device(std::vector<std::uint32_t*>{target.data()});
      sort.note_sorted(d_sorted.data(), count, nullptr);
      PartitionAppend append = sort.append_target();
      append.keys_by_place = by_place.data();
      append_only_kernel<<<120, 256>>>(in.data(), count, append);
      CUDA_CHECK(cudaGetLastError());
      auto words = to_device(std::vector<std::int32_t>{1, kUnwritten});
      auto ran = to_device(std::vector<std::uint32_t>{7u});
      sort.sort_appended(nullptr, out_values.data(), count, nullptr, words.data(), words.data() + 1,
                         ran.data(),
                         {.final_values = target_at.data(), .keys_by_place = by_place.data()});
      CUDA_CHECK(cudaDeviceSynchronize());
      EXPECT_EQ(to_host(ran.data(), 1)[0], c.overflows ? 0u : 1u) << what;
      EXPECT_EQ(to_host(words.data(), 2)[1], 0) << what;
      const auto values = to_host(out_values.data(), count);
      EXPECT_EQ(values, places) << what;
      EXPECT_EQ(to_host(target.data(), count), places) << what;
      EXPECT_EQ(to_host(by_place.data(), count),
                c.overflows ? sorted_keys : std::vector<std::uint32_t>(count, 0xdeadbeefu))
          << what;
    }
  }
}

// With keys_by_place and nothing appended (no splitters for these keys; the kernel that made them
// stored every one by place, as the pipeline's step does when it does not append), the sort does
// not refuse either: it sorts them there.
TEST(SortPartition, KeysByPlaceNotAppendedAreSortedThere) {
  SKIP_WITHOUT_DEVICE();
  const std::uint32_t n = 70000;
  SplitterPartitionSort sort(n);
  const PartitionCase c = testing::moved_keys(n, 1u << 30, 1u << 16, 0, 3, 61);
  std::vector<std::uint32_t> places(n);
  std::iota(places.begin(), places.end(), 0u);
  std::stable_sort(places.begin(), places.end(),
                   [&](std::uint32_t x, std::uint32_t y) { return c.keys[x] < c.keys[y]; });
  std::vector<std::uint32_t> sorted_keys(n);
  for (std::uint32_t i = 0; i < n; ++i) sorted_keys[i] = c.keys[places[i]];
  sort.forget_splitters(nullptr);
  auto by_place = to_device(c.keys);
  DeviceBuffer<std::uint32_t> out_values(n);
  auto words = to_device(std::vector<std::int32_t>{1, kUnwritten});
  auto ran = to_device(std::vector<std::uint32_t>{7u});
  sort.sort_appended(nullptr, out_values.data(), n, nullptr, words.data(), words.data() + 1,
                     ran.data(), {.keys_by_place = by_place.data()});
  CUDA_CHECK(cudaDeviceSynchronize());
  EXPECT_EQ(to_host(ran.data(), 1)[0], 0u);
  EXPECT_EQ(to_host(words.data(), 2)[1], 0);
  EXPECT_EQ(to_host(out_values.data(), n), places);
  EXPECT_EQ(to_host(by_place.data(), n), sorted_keys);
}

// keys_by_place belongs to sort_appended without out_keys: the values must be the places, and
// the sorted keys stay there.
TEST(SortPartition, KeysByPlaceIsRefusedWhereItCannotServe) {
  SKIP_WITHOUT_DEVICE();
  SplitterPartitionSort sort(1000);
  DeviceBuffer<std::uint32_t> keys(1000), values(1000);
  auto words = to_device(std::vector<std::int32_t>{1, kUnwritten});
  auto ran = to_device(std::vector<std::uint32_t>{7u});
  const PartitionExtras by_place{.keys_by_place = keys.data()};
  EXPECT_THROW(sort.sort_enabled(keys.data(), values.data(), 1000, nullptr, words.data(),
                                 words.data() + 1, ran.data(), by_place),
               std::invalid_argument);
  EXPECT_THROW(sort.sort_appended(keys.data(), values.data(), 1000, nullptr, words.data(),
                                  words.data() + 1, ran.data(), by_place),
               std::invalid_argument);
}

// More keys than kPartitionMaxBuckets buckets hold: nothing appended, the fallback taken, the
// keys untouched, as the twin says.
TEST(SortPartition, FallsBackBeyondItsLargestSort) {
  SKIP_WITHOUT_DEVICE();
  const std::uint32_t n = kPartitionMaxBuckets * kPartitionBucket + 1;
  SplitterPartitionSort sort(n);
  PartitionCase c = testing::moved_keys(n, 1u << 30, 0, 0, 1, 41);
  PartitionCase twin = c;
  ASSERT_FALSE(cpu_splitter_partition_sort(twin.keys, twin.values, twin.splitters));
  const Outcome gpu = run(sort, c);
  EXPECT_EQ(gpu.ran, 0u);
  EXPECT_EQ(gpu.fallback, 1);
  EXPECT_EQ(gpu.keys, c.keys);
  EXPECT_EQ(gpu.values, c.values);
}

TEST(SortPartition, DisabledDoesNothing) {
  SKIP_WITHOUT_DEVICE();
  const std::uint32_t n = 30000;
  SplitterPartitionSort sort(n);
  const PartitionCase c = testing::moved_keys(n, 1u << 30, 1u << 14, 0, 1, 12);
  const Outcome gpu = run(sort, c, 0);
  EXPECT_EQ(gpu.ran, 0u);
  EXPECT_EQ(gpu.enable, 0);
  EXPECT_EQ(gpu.fallback, kUnwritten);  // untouched
  EXPECT_EQ(gpu.keys, c.keys);
  EXPECT_EQ(gpu.values, c.values);
}

// Past its largest sort there are more buckets than counts: the disabled sort, which clears the
// counts a kernel may have appended, clears only those it has, and the splitters beside them stay.
TEST(SortPartition, DisabledBeyondItsLargestSortWritesOnlyItsCounts) {
  SKIP_WITHOUT_DEVICE();
  const std::uint32_t n = 2 * kPartitionMaxBuckets * kPartitionBucket;
  SplitterPartitionSort sort(n);
  std::vector<std::uint32_t> sorted(n);
  for (std::uint32_t i = 0; i < n; ++i) sorted[i] = i + 1;
  {
    auto d_sorted = to_device(sorted);
    sort.note_sorted(d_sorted.data(), n, nullptr);
  }
  const std::size_t splitters = partition_buckets(n) - 1;
  const auto before = to_host(sort.device_splitters() + 1, splitters);
  DeviceBuffer<std::uint32_t> keys(n), values(n);
  auto words = to_device(std::vector<std::int32_t>{0, kUnwritten});
  auto ran = to_device(std::vector<std::uint32_t>{7u});
  sort.sort_enabled(keys.data(), values.data(), n, nullptr, words.data(), words.data() + 1,
                    ran.data());
  CUDA_CHECK(cudaDeviceSynchronize());
  EXPECT_EQ(to_host(ran.data(), 1)[0], 0u);
  EXPECT_EQ(to_host(words.data(), 2)[1], kUnwritten);
  EXPECT_EQ(to_host(sort.device_splitters() + 1, splitters), before);
}

TEST(SortPartition, SplittersComeFromSortedKeys) {
  SKIP_WITHOUT_DEVICE();
  const std::uint32_t n = 3 * kPartitionBucket + 5;
  SplitterPartitionSort sort(n);
  std::vector<std::uint32_t> sorted(n);
  for (std::uint32_t i = 0; i < n; ++i) sorted[i] = 3 * i + 1;
  auto d_sorted = to_device(sorted);
  sort.note_sorted(d_sorted.data(), n, nullptr);
  const auto expected = cpu_partition_splitters(sorted);
  // Splitter 0 is never written (bucket 0 has no lower bound): read from 1.
  const auto got = to_host(sort.device_splitters() + 1, expected.size() - 1);
  for (std::size_t j = 1; j < expected.size(); ++j) EXPECT_EQ(got[j - 1], expected[j]) << j;
}

// The pipeline's finish: the splitters and the copy of the sorted values to a target named by a
// device word, in one launch, both or neither as the enable word says.
TEST(SortPartition, NoteSortedAlsoCopiesTheValuesWhenEnabled) {
  SKIP_WITHOUT_DEVICE();
  const std::uint32_t n = 5 * kPartitionBucket + 77;
  SplitterPartitionSort sort(n);
  std::vector<std::uint32_t> sorted(n), values(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    sorted[i] = 7 * i + 3;
    values[i] = (i * 2654435761u) ^ 0x5bd1e995u;
  }
  auto d_sorted = to_device(sorted), d_values = to_device(values);
  const auto expected = cpu_partition_splitters(sorted);
  for (const std::int32_t enabled : {0, 1}) {
    SCOPED_TRACE(enabled);
    sort.forget_splitters(nullptr);
    const std::vector<std::uint32_t> untouched(n, 0xdeadbeefu);
    auto target = to_device(untouched);
    auto target_at = to_device(std::vector<std::uint32_t*>{target.data()});
    auto enable = to_device(std::vector<std::int32_t>{enabled});
    sort.note_sorted(d_sorted.data(), n, nullptr, enable.data(),
                     {d_values.data(), target_at.data()});
    EXPECT_EQ(to_host(target.data(), n), enabled != 0 ? values : untouched);
    // Noted splitters let a sort of these very keys run; forgotten ones do not.
    PartitionCase c{sorted, values, expected};
    auto keys = to_device(c.keys), vals = to_device(c.values);
    auto words = to_device(std::vector<std::int32_t>{1, kUnwritten});
    auto ran = to_device(std::vector<std::uint32_t>{7u});
    sort.sort_enabled(keys.data(), vals.data(), n, nullptr, words.data(), words.data() + 1,
                      ran.data());
    EXPECT_EQ(to_host(ran.data(), 1)[0], enabled != 0 ? 1u : 0u);
    if (enabled != 0) {
      const auto got = to_host(sort.device_splitters() + 1, expected.size() - 1);
      for (std::size_t j = 1; j < expected.size(); ++j) EXPECT_EQ(got[j - 1], expected[j]) << j;
    }
  }
}

TEST(SortPartition, RefusesMoreThanItsCapacity) {
  SKIP_WITHOUT_DEVICE();
  SplitterPartitionSort sort(100);
  DeviceBuffer<std::uint32_t> keys(101), values(101);
  DeviceBuffer<std::int32_t> words(2);
  DeviceBuffer<std::uint32_t> ran(1);
  EXPECT_THROW(sort.sort_enabled(keys.data(), values.data(), 101, nullptr, words.data(),
                                 words.data() + 1, ran.data()),
               std::invalid_argument);
  EXPECT_THROW(sort.note_sorted(keys.data(), 101, nullptr), std::invalid_argument);
  EXPECT_THROW(sort.sort_appended(keys.data(), values.data(), 101, nullptr, words.data(),
                                  words.data() + 1, ran.data()),
               std::invalid_argument);
}

}  // namespace
}  // namespace particles::cuda
