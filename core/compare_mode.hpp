#pragma once
// How the comparison view (--compare, V) shows the exact order against the drawn one: side by
// side, or as a heat map of their difference over the whole frame.
//
//   split  the left half in the exact order, the right half in the drawn order, a line between
//   heat   every pixel coloured by how far the two orders' images differ there (black to red to
//          yellow to white; where they agree, the exact image dimmed to a quarter)
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/enum_names.hpp"

namespace particles {

enum class CompareMode { split, heat };

inline constexpr EnumNames<CompareMode, 2> kCompareModeNames = {
    {{CompareMode::split, "split"}, {CompareMode::heat, "heat"}}};

inline constexpr std::array<CompareMode, 2> kAllCompareModes = values_of(kCompareModeNames);

constexpr std::string_view to_string(CompareMode m) {
  return name_of(kCompareModeNames, m);
}

constexpr std::optional<CompareMode> compare_mode_from_string(std::string_view name) {
  return value_named(kCompareModeNames, name);
}

inline std::vector<std::string> compare_mode_names() {
  return names_of(kCompareModeNames);
}

}  // namespace particles
