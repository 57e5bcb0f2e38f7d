#pragma once
// A check that runs before toml++ sees a document. Debian 12's toml++ (3.3.0) classifies some
// non-ASCII code points with undefined behaviour (its whitespace table reaches
// __builtin_unreachable: upstream issues marzer/tomlplusplus#190 and #295, fixed after 3.3.0).
// It asks that question of every character outside strings and comments, and of the character
// after a backslash in a multi-line basic string. TOML allows non-ASCII characters only inside
// strings and comments anyway, so a document is refused here, with the position, before the
// parser can reach that code.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace particles {

struct TomlTextProblem {
  std::size_t line = 1, column = 1;  // 1-based; columns count code points, as toml++'s do
  std::string message;
};

// The first character of `text` that toml++ 3.3.0 cannot be given, or nullopt.
std::optional<TomlTextProblem> find_unsafe_toml_character(std::string_view text);

}  // namespace particles
