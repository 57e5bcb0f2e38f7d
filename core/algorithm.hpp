#pragma once
// The sort algorithms a user can pick, and their names on the command line, in the HUD and in
// reports. The CPU backend honours the choice with CPU twins where one exists.
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/enum_names.hpp"

namespace particles {

enum class Algorithm { radix, oddeven, quicksort, cub, automatic };

inline constexpr EnumNames<Algorithm, 5> kAlgorithmNames = {{{Algorithm::radix, "radix"},
                                                             {Algorithm::oddeven, "oddeven"},
                                                             {Algorithm::quicksort, "quicksort"},
                                                             {Algorithm::cub, "cub"},
                                                             {Algorithm::automatic, "auto"}}};

inline constexpr std::array<Algorithm, 5> kAllAlgorithms = values_of(kAlgorithmNames);

constexpr std::string_view to_string(Algorithm a) {
  return name_of(kAlgorithmNames, a);
}

constexpr std::optional<Algorithm> algorithm_from_string(std::string_view name) {
  return value_named(kAlgorithmNames, name);
}

inline std::vector<std::string> algorithm_names() {
  return names_of(kAlgorithmNames);
}

}  // namespace particles
