#pragma once
// The sort algorithms a user can pick, and their names on the command line, in the HUD and in
// reports. The CPU backend honours the choice with CPU twins where one exists.
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace particles {

enum class Algorithm { radix, oddeven, quicksort, cub, automatic };

inline constexpr std::array<Algorithm, 5> kAllAlgorithms = {Algorithm::radix, Algorithm::oddeven,
                                                            Algorithm::quicksort, Algorithm::cub,
                                                            Algorithm::automatic};

constexpr std::string_view to_string(Algorithm a) {
  switch (a) {
    case Algorithm::radix:
      return "radix";
    case Algorithm::oddeven:
      return "oddeven";
    case Algorithm::quicksort:
      return "quicksort";
    case Algorithm::cub:
      return "cub";
    case Algorithm::automatic:
      return "auto";
  }
  return "?";
}

constexpr std::optional<Algorithm> algorithm_from_string(std::string_view name) {
  for (Algorithm a : kAllAlgorithms) {
    if (to_string(a) == name) return a;
  }
  return std::nullopt;
}

// Every algorithm's name, in kAllAlgorithms' order: the one list the command line checks against.
inline std::vector<std::string> algorithm_names() {
  std::vector<std::string> names;
  for (Algorithm a : kAllAlgorithms) names.emplace_back(to_string(a));
  return names;
}

}  // namespace particles
