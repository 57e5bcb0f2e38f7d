#pragma once
// Named key distributions, the inputs of the sort benchmark and of the sort tests.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace particles::cuda::testing {

enum class Distribution { random, all_equal, sorted, reversed, few_unique, nearly_sorted };

inline std::string name(Distribution d) {
  switch (d) {
    case Distribution::random:
      return "random";
    case Distribution::all_equal:
      return "equal";
    case Distribution::sorted:
      return "sorted";
    case Distribution::reversed:
      return "reversed";
    case Distribution::few_unique:
      return "fewunique";
    case Distribution::nearly_sorted:
      return "nearly";
  }
  return "unknown";
}

// Keys whose sort keys use bits [begin_bit, end_bit). nearly_sorted: key i is a monotone map of
// 4i + U[0, 1024), so every key is within 256 places of its sorted position (keys more than 256
// places apart cannot cross), with some duplicates.
inline std::vector<std::uint32_t> make_keys(Distribution d, std::size_t n, int begin_bit,
                                            int end_bit, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const int width = end_bit - begin_bit;
  const std::uint64_t range = width >= 32 ? (1ull << 32) : (1ull << width);
  auto place = [&](std::uint64_t v) {  // v < range: put it at the sort bits, junk elsewhere
    const std::uint32_t junk = static_cast<std::uint32_t>(rng());
    const std::uint32_t mask = static_cast<std::uint32_t>((range - 1) << begin_bit);
    return (junk & ~mask) | (static_cast<std::uint32_t>(v << begin_bit) & mask);
  };
  std::vector<std::uint64_t> v(n);
  std::uniform_int_distribution<std::uint64_t> any(0, range - 1);
  switch (d) {
    case Distribution::random:
      for (auto& x : v) x = any(rng);
      break;
    case Distribution::all_equal:
      for (auto& x : v) x = 0x9e3779b9u % range;
      break;
    case Distribution::sorted:
    case Distribution::reversed:
      for (auto& x : v) x = any(rng);
      std::sort(v.begin(), v.end());
      if (d == Distribution::reversed) std::reverse(v.begin(), v.end());
      break;
    case Distribution::few_unique: {
      std::uint64_t pool[7];
      for (auto& p : pool) p = any(rng);
      std::uniform_int_distribution<int> pick(0, 6);
      for (auto& x : v) x = pool[pick(rng)];
      break;
    }
    case Distribution::nearly_sorted: {
      std::uniform_int_distribution<std::uint64_t> noise(0, 1023);
      const std::uint64_t top = 4ull * n + 1024;
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t raw = 4ull * i + noise(rng);
        v[i] = top <= range ? raw : raw * (range - 1) / top;
      }
      break;
    }
  }
  std::vector<std::uint32_t> keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = place(v[i]);
  return keys;
}

}  // namespace particles::cuda::testing
