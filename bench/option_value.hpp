#pragma once
// Reading the value of a benchmark option (`--flag value`), shared by the benchmarks' argument
// parsers (scene_bench_args.hpp, sort_bench_args.hpp). Header-only and CUDA-free.
#include <charconv>
#include <stdexcept>
#include <string>
#include <string_view>

namespace particles::bench {

// The value after argv[i] (advancing i past it) as a whole number in [lo, hi]. Throws
// std::invalid_argument naming the option when the value is missing, not a whole number, or out
// of range.
inline long long whole_number_option(int argc, const char* const* argv, int& i, long long lo,
                                     long long hi) {
  const std::string_view flag = argv[i];
  if (i + 1 >= argc) throw std::invalid_argument(std::string(flag) + " needs a value");
  const std::string_view text = argv[++i];
  long long v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < lo || v > hi) {
    throw std::invalid_argument(std::string(flag) + ": '" + std::string(text) +
                                "' is not a whole number in [" + std::to_string(lo) + ", " +
                                std::to_string(hi) + "]");
  }
  return v;
}

}  // namespace particles::bench
