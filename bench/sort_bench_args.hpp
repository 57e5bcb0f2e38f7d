#pragma once
// sort_bench's command line: [--reps R] [--min-log2 K] [--max-log2 K]
// [--only radix|oddeven|quicksort] [--no-tuning]. Header-only and CUDA-free, so the parser is
// unit-tested in CI (tests/unit/sort_bench_args_test.cpp).
#include <stdexcept>
#include <string>
#include <string_view>

#include "bench/option_value.hpp"

namespace particles::bench {

struct SortBenchArgs {
  int reps = 30;
  int min_log2 = 16;
  int max_log2 = 24;
  std::string only;  // empty: every algorithm
  bool tuning_table = true;
};

// Largest size the benchmark allocates: 2^26 pairs (four 256 MiB arrays plus the sorters').
inline constexpr int kSortBenchMaxLog2 = 26;

// Throws std::invalid_argument naming the offending argument: unknown options, an option without
// its value, values that are not whole numbers in range, --min-log2 above --max-log2, and an
// unknown --only algorithm.
inline SortBenchArgs parse_sort_bench_args(int argc, const char* const* argv) {
  SortBenchArgs a;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--reps") {
      a.reps = static_cast<int>(whole_number_option(argc, argv, i, 1, 100000));
    } else if (arg == "--min-log2") {
      a.min_log2 = static_cast<int>(whole_number_option(argc, argv, i, 1, kSortBenchMaxLog2));
    } else if (arg == "--max-log2") {
      a.max_log2 = static_cast<int>(whole_number_option(argc, argv, i, 1, kSortBenchMaxLog2));
    } else if (arg == "--no-tuning") {
      a.tuning_table = false;
    } else if (arg == "--only") {
      if (i + 1 >= argc) throw std::invalid_argument("--only needs a value");
      a.only = argv[++i];
      if (a.only != "radix" && a.only != "oddeven" && a.only != "quicksort")
        throw std::invalid_argument("--only takes radix, oddeven or quicksort, not '" + a.only +
                                    "'");
    } else {
      throw std::invalid_argument("unknown argument " + std::string(arg));
    }
  }
  if (a.min_log2 > a.max_log2) {
    throw std::invalid_argument("--min-log2 " + std::to_string(a.min_log2) +
                                " is above --max-log2 " + std::to_string(a.max_log2));
  }
  return a;
}

}  // namespace particles::bench
