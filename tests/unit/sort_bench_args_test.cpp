// sort_bench's command line (bench/sort_bench_args.hpp): defaults, every option, and the
// malformed values it used to take silently (it read numbers with atoi).
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "bench/sort_bench_args.hpp"

namespace {

using particles::bench::parse_sort_bench_args;
using particles::bench::SortBenchArgs;

SortBenchArgs parse(std::vector<const char*> args) {
  args.insert(args.begin(), "sort_bench");
  return parse_sort_bench_args(static_cast<int>(args.size()), args.data());
}

TEST(SortBenchArgs, DefaultsWithoutArguments) {
  const SortBenchArgs a = parse({});
  EXPECT_EQ(a.reps, 30);
  EXPECT_EQ(a.min_log2, 16);
  EXPECT_EQ(a.max_log2, 24);
  EXPECT_TRUE(a.only.empty());
  EXPECT_TRUE(a.tuning_table);
}

TEST(SortBenchArgs, EveryOption) {
  const SortBenchArgs a = parse(
      {"--reps", "15", "--min-log2", "18", "--max-log2", "22", "--only", "oddeven", "--no-tuning"});
  EXPECT_EQ(a.reps, 15);
  EXPECT_EQ(a.min_log2, 18);
  EXPECT_EQ(a.max_log2, 22);
  EXPECT_EQ(a.only, "oddeven");
  EXPECT_FALSE(a.tuning_table);
}

TEST(SortBenchArgs, RejectsMalformedValues) {
  for (const auto& bad :
       std::vector<std::vector<const char*>>{{"--reps", "fifteen"},
                                             {"--reps", "15x"},
                                             {"--reps", "0"},
                                             {"--reps"},
                                             {"--min-log2", "-3"},
                                             {"--max-log2", "27"},
                                             {"--min-log2", "20", "--max-log2", "18"},
                                             {"--only", "bubble"},
                                             {"--only"},
                                             {"--repetitions", "5"},
                                             {"16"}}) {
    EXPECT_THROW(parse(bad), std::invalid_argument) << bad.front();
  }
}

}  // namespace
