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

// The scan, one character at a time. Each step returns whether the loop moves on by one
// character; a step that moves `i_` itself (past a quote run, an escape) returns false. A step
// that finds a problem stores it in `problem_` and stops the scan.
class TomlScanner {
 public:
  explicit TomlScanner(std::string_view text) : text_(text) {
    if (text.starts_with("\xEF\xBB\xBF")) i_ = 3;  // a byte order mark, which toml++ skips
  }

  std::optional<TomlTextProblem> scan() {
    while (i_ < text_.size() && !problem_) {
      const char c = text_[i_];
      bool advance = true;
      switch (state_) {
        case State::outside:
          advance = outside(c);
          break;
        case State::comment:
          advance = comment(c);
          break;
        case State::basic:
        case State::literal:
          advance = single_line_string(c);
          break;
        case State::multi_basic:
        case State::multi_literal:
          advance = multi_line_string(c);
          break;
      }
      if (advance) ++i_;
    }
    return problem_;
  }

 private:
  enum class State { outside, comment, basic, literal, multi_basic, multi_literal };

  bool outside(char c) {
    if (non_ascii(c)) {
      problem_ = problem_at(text_, i_,
                            "non-ASCII character outside a string or comment (TOML allows them "
                            "only in strings and comments)");
      return false;
    }
    if (c == ' ' || c == '\t' || c == '\r') {
      bare_ = false;
      return true;
    }
    if (c == '#') {
      state_ = State::comment;
      bare_ = false;
      return true;
    }
    // What ends a bare token: in a key, '.', '=' and ']' (a table header); in a value, ','
    // ']' and '}'; in both, a line break.
    const bool ends_bare =
        c == '\n' || (key_ ? c == '.' || c == '=' || c == ']' : c == ',' || c == ']' || c == '}');
    if (bare_ && !ends_bare) {
      last_ = c;
      return true;
    }
    bare_ = false;
    const bool starts_token = last_ == '\n' || last_ == '=' || last_ == '[' || last_ == '{' ||
                              (last_ == ',' && !open_.empty()) || (last_ == '.' && key_);
    if ((c == '"' || c == '\'') && starts_token) {
      const bool multi = run_of(text_, i_, c) >= 3;
      state_ = c == '"' ? (multi ? State::multi_basic : State::basic)
                        : (multi ? State::multi_literal : State::literal);
      i_ += multi ? 3 : 1;
      return false;
    }
    track_structure(c, starts_token);
    last_ = c;
    return true;
  }

  // Keys, values, arrays and inline tables: what decides where the next token may start.
  void track_structure(char c, bool starts_token) {
    if (c == '\n') {
      if (open_.empty()) key_ = true;
    } else if (c == '=' && key_) {
      key_ = false;
    } else if ((c == '{' || c == '[') && starts_token) {
      if (!key_) {
        open_.push_back(c);
        key_ = c == '{';
      }
    } else if (c == ',' && !open_.empty()) {
      key_ = open_.back() == '{';
    } else if ((c == ']' || c == '}') && !open_.empty()) {
      open_.pop_back();
      key_ = false;
    } else if (!(c == '.' && key_) && c != ']') {
      bare_ = true;  // a bare key or value starts (or garbage toml++ scans as one)
    }
  }

  bool comment(char c) {
    if (c == '\n') {
      state_ = State::outside;
      return false;  // the line break counts outside
    }
    return true;
  }

  bool single_line_string(char c) {
    if (c == '\n') {
      // The parser has reported the unterminated string; the line break counts outside.
      state_ = State::outside;
      return false;
    }
    if ((c == '"' && state_ == State::basic) || (c == '\'' && state_ == State::literal)) {
      state_ = State::outside;
      last_ = c;
    } else if (c == '\\' && state_ == State::basic) {
      ++i_;  // the escaped character (an ASCII one or an error the parser reports)
    }
    return true;
  }

  bool multi_line_string(char c) {
    const char quote = state_ == State::multi_basic ? '"' : '\'';
    if (c == quote) {
      // Up to two quotes may close the string with it: """a"""" is the string a".
      const std::size_t n = run_of(text_, i_, quote);
      if (n >= 3) {
        state_ = State::outside;
        last_ = quote;
      }
      i_ += n >= 3 ? std::min<std::size_t>(n, 5) : n;
      return false;
    }
    if (c == '\\' && state_ == State::multi_basic) {
      escape_in_multi_line_string();
      return false;
    }
    return true;
  }

  // The parser asks whether the escaped character, and after a line-ending backslash the first
  // one it does not skip, is whitespace.
  void escape_in_multi_line_string() {
    std::size_t next = i_ + 1;
    while (next < text_.size() && (text_[next] == ' ' || text_[next] == '\t' ||
                                   text_[next] == '\r' || text_[next] == '\n')) {
      ++next;
    }
    if (next < text_.size() && non_ascii(text_[next])) {
      problem_ = problem_at(text_, next,
                            "non-ASCII character after a backslash in a multi-line string "
                            "(write it as a \\u escape)");
      return;
    }
    i_ = next == i_ + 1 ? i_ + 2 : next;
  }

  std::string_view text_;
  std::size_t i_ = 0;
  State state_ = State::outside;
  // Outside strings: toml++ starts a string only where a key or a value starts. A bare key or
  // value (`a`, `1.5`, `true`, and garbage like `0=["x` or `+"x`) it scans to its end, asking of
  // each character whether it ends it, so a quote or bracket inside one starts nothing here
  // either. `bare_`: inside such a token; `last_`: the last character that was not whitespace or
  // comment ('\n' at the start of a line); `key_`: whether a key is being read (a dot there
  // parts it); `open_`: the arrays and inline tables of the value being read.
  char last_ = '\n';
  bool key_ = true;
  bool bare_ = false;
  std::string open_;
  std::optional<TomlTextProblem> problem_;
};

}  // namespace

std::optional<TomlTextProblem> find_unsafe_toml_character(std::string_view text) {
  return TomlScanner(text).scan();
}

}  // namespace particles
