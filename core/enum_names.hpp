#pragma once
// The names users give the choices of an enum (command line, scene and bench files, HUD,
// reports): one table of (value, name) pairs per enum, from which the lookups both ways and the
// list of every value and name are derived.
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace particles {

template <class Enum>
struct EnumName {
  Enum value;
  std::string_view name;
};

template <class Enum, std::size_t N>
using EnumNames = std::array<EnumName<Enum>, N>;

// The name of `value`, or `otherwise` where the table has none (a table of some values only).
template <class Enum, std::size_t N>
constexpr std::string_view name_of(const EnumNames<Enum, N>& names, Enum value,
                                   std::string_view otherwise = "?") {
  for (const EnumName<Enum>& e : names) {
    if (e.value == value) return e.name;
  }
  return otherwise;
}

template <class Enum, std::size_t N>
constexpr std::optional<Enum> value_named(const EnumNames<Enum, N>& names, std::string_view name) {
  for (const EnumName<Enum>& e : names) {
    if (e.name == name) return e.value;
  }
  return std::nullopt;
}

// The (value, name) pairs of a table whose rows carry more (a description, a label): the value is
// the rows' member `Value` (&Row::kind), the name their member `name`.
template <auto Value, class Row, std::size_t N>
constexpr auto names_of_rows(const std::array<Row, N>& rows) {
  using Enum = std::remove_cvref_t<decltype(rows[0].*Value)>;
  EnumNames<Enum, N> names{};
  for (std::size_t i = 0; i < N; ++i) names[i] = {rows[i].*Value, rows[i].name};
  return names;
}

// Every value, in the table's order.
template <class Enum, std::size_t N>
constexpr std::array<Enum, N> values_of(const EnumNames<Enum, N>& names) {
  std::array<Enum, N> values{};
  for (std::size_t i = 0; i < N; ++i) values[i] = names[i].value;
  return values;
}

// Every name, in the table's order: the list a command line checks against and prints.
template <class Enum, std::size_t N>
std::vector<std::string> names_of(const EnumNames<Enum, N>& names) {
  std::vector<std::string> list;
  for (const EnumName<Enum>& e : names) list.emplace_back(e.name);
  return list;
}

}  // namespace particles
