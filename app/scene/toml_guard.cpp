#include "app/scene/toml_guard.hpp"

#include <algorithm>
#include <string>
#include <utility>

namespace particles {
namespace {

bool non_ascii(char c) {
  return static_cast<unsigned char>(c) >= 0x80;
}

TomlTextProblem problem_at(std::string_view text, std::size_t at, std::string message) {
  TomlTextProblem p;
  p.message = std::move(message);
  for (std::size_t i = 0; i < at; ++i) {
    if (text[i] == '\n') {
      ++p.line;
      p.column = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      ++p.column;  // not a UTF-8 continuation byte: a new code point
    }
  }
  return p;
}

// The number of `quote` characters starting at text[i].
std::size_t run_of(std::string_view text, std::size_t i, char quote) {
  std::size_t n = 0;
  while (i + n < text.size() && text[i + n] == quote) ++n;
  return n;
}

}  // namespace

std::optional<TomlTextProblem> find_unsafe_toml_character(std::string_view text) {
  enum class State { outside, comment, basic, literal, multi_basic, multi_literal };
  State state = State::outside;
  // Outside strings: toml++ starts a string only where a key or a value starts. A bare key or
  // value (`a`, `1.5`, `true`, and garbage like `0=["x` or `+"x`) it scans to its end, asking of
  // each character whether it ends it, so a quote or bracket inside one starts nothing here
  // either. `bare`: inside such a token; `last`: the last character that was not whitespace or
  // comment ('\n' at the start of a line); `key`: whether a key is being read (a dot there parts
  // it); `open`: the arrays and inline tables of the value being read.
  char last = '\n';
  bool key = true;
  bool bare = false;
  std::string open;
  std::size_t i = 0;
  if (text.starts_with("\xEF\xBB\xBF")) i = 3;  // a byte order mark, which toml++ skips
  while (i < text.size()) {
    const char c = text[i];
    switch (state) {
      case State::outside: {
        if (non_ascii(c)) {
          return problem_at(text, i,
                            "non-ASCII character outside a string or comment (TOML allows them "
                            "only in strings and comments)");
        }
        if (c == ' ' || c == '\t' || c == '\r') {
          bare = false;
          break;
        }
        if (c == '#') {
          state = State::comment;
          bare = false;
          break;
        }
        // What ends a bare token: in a key, '.', '=' and ']' (a table header); in a value, ','
        // ']' and '}'; in both, a line break.
        const bool ends_bare = c == '\n' || (key ? c == '.' || c == '=' || c == ']'
                                                 : c == ',' || c == ']' || c == '}');
        if (bare && !ends_bare) {
          last = c;
          break;
        }
        bare = false;
        const bool starts_token = last == '\n' || last == '=' || last == '[' || last == '{' ||
                                  (last == ',' && !open.empty()) || (last == '.' && key);
        if ((c == '"' || c == '\'') && starts_token) {
          const bool multi = run_of(text, i, c) >= 3;
          state = c == '"' ? (multi ? State::multi_basic : State::basic)
                           : (multi ? State::multi_literal : State::literal);
          i += multi ? 3 : 1;
          continue;
        }
        if (c == '\n') {
          if (open.empty()) key = true;
        } else if (c == '=' && key) {
          key = false;
        } else if ((c == '{' || c == '[') && starts_token) {
          if (!key) {
            open.push_back(c);
            key = c == '{';
          }
        } else if (c == ',' && !open.empty()) {
          key = open.back() == '{';
        } else if ((c == ']' || c == '}') && !open.empty()) {
          open.pop_back();
          key = false;
        } else if (!(c == '.' && key) && c != ']') {
          bare = true;  // a bare key or value starts (or garbage toml++ scans as one)
        }
        last = c;
        break;
      }
      case State::comment:
        if (c == '\n') {
          state = State::outside;
          continue;  // the line break counts outside
        }
        break;
      case State::basic:
      case State::literal:
        if (c == '\n') {
          // The parser has reported the unterminated string; the line break counts outside.
          state = State::outside;
          continue;
        }
        if ((c == '"' && state == State::basic) || (c == '\'' && state == State::literal)) {
          state = State::outside;
          last = c;
        } else if (c == '\\' && state == State::basic) {
          ++i;  // the escaped character (an ASCII one or an error the parser reports)
        }
        break;
      case State::multi_basic:
      case State::multi_literal: {
        const char quote = state == State::multi_basic ? '"' : '\'';
        if (c == quote) {
          // Up to two quotes may close the string with it: """a"""" is the string a".
          const std::size_t n = run_of(text, i, quote);
          if (n >= 3) {
            state = State::outside;
            last = quote;
          }
          i += n >= 3 ? std::min<std::size_t>(n, 5) : n;
          continue;
        }
        if (c == '\\' && state == State::multi_basic) {
          // The parser asks whether the escaped character, and after a line-ending backslash
          // the first one it does not skip, is whitespace.
          std::size_t next = i + 1;
          while (next < text.size() && (text[next] == ' ' || text[next] == '\t' ||
                                        text[next] == '\r' || text[next] == '\n')) {
            ++next;
          }
          if (next < text.size() && non_ascii(text[next])) {
            return problem_at(text, next,
                              "non-ASCII character after a backslash in a multi-line string "
                              "(write it as a \\u escape)");
          }
          i = next == i + 1 ? i + 2 : next;
          continue;
        }
        break;
      }
    }
    ++i;
  }
  return std::nullopt;
}

}  // namespace particles
