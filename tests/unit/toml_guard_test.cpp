// The check in front of toml++ (app/scene/toml_guard.hpp): where a document has a character
// toml++ 3.3.0 cannot classify safely, and that strings and comments of every kind keep theirs.
#include <gtest/gtest.h>

#include <string>

#include "app/scene/toml_guard.hpp"

namespace particles {
namespace {

// "line:column: message" of the first unsafe character, or "" for none.
std::string where(const std::string& text) {
  const auto p = find_unsafe_toml_character(text);
  return p ? std::to_string(p->line) + ":" + std::to_string(p->column) + ": " + p->message : "";
}

TEST(TomlGuard, NonAsciiInStringsAndCommentsIsSafe) {
  for (const char* text : {
           "a = \"\xc3\xa9\"  # \xc2\xa7\n",
           "a = '\xc3\xa9\\'\n",  // no escapes in literal strings: the backslash is a character
           "a = \"\\\"\xc2\xa7\"\n",
           "a = \"\"\"\n\xc2\xa7 \xc3\xa9\n\"\"\"\n",
           "a = '''\n\xc2\xa7\\\n\xc3\xa9'''\n",
           "a = \"\"\"x\"\"\"\"\" # \xc2\xa7\n",  // five quotes: the string is x""
           "\"\xc3\xa9\" = 1\n",
           "\xef\xbb\xbf"
           "a = 1\n",
           // Strings where keys and values start: dotted and quoted keys, table headers, arrays
           // over lines, inline tables.
           "a.\"\xc3\xa9\".'\xc2\xa7' = [\n  \"\xc3\xa9\", # \xc2\xa7\n  '\xc2\xa7',\n]\n",
           "[x . \"\xc3\xa9\"]\n[[y.'\xc2\xa7']]\nb = { c.\"\xc3\xa9\" = 1, d = [\"\xc2\xa7\"] }\n",
       }) {
    EXPECT_EQ(where(text), "") << text;
  }
}

TEST(TomlGuard, NonAsciiOutsideStringsIsFound) {
  EXPECT_EQ(where("\xc3\xa9 = 1\n").substr(0, 5), "1:1: ");
  EXPECT_EQ(where("a = 1\nb = 2 \xc2\xa7\n").substr(0, 5), "2:7: ");
  // Columns count code points: the comment's two-byte character is one.
  EXPECT_EQ(where("a = \"\xc3\xa9\" \xc2\xa7\n").substr(0, 5), "1:9: ");
  // A string ends at its closing quote, and a single-line one at the end of its line.
  EXPECT_EQ(where("a = \"x\" \xc2\xa7\n").substr(0, 5), "1:9: ");
  EXPECT_EQ(where("a = \"x\n\xc2\xa7\n").substr(0, 5), "2:1: ");
  EXPECT_EQ(where("a = \"\"\"x\"\"\"\" \xc2\xa7\n").substr(0, 5), "1:14:");  // x"
  EXPECT_NE(where("# x\n\xc2\xa7\n").find("outside a string or comment"), std::string::npos);
}

// Found by fuzz/bench_file_fuzz.cpp: toml++ reads `+"scene=...` as one bare value, scanning
// every character of it for whitespace; a quote inside a value is not the start of a string.
TEST(TomlGuard, AQuoteInsideABareValueDoesNotStartAString) {
  EXPECT_EQ(where("scenes =+\"scene=\xd2\x86 = 0b").substr(0, 6), "1:17: ");
  EXPECT_EQ(where("a = 1.\"\xc3\xa9\"\n").substr(0, 5), "1:8: ");
  EXPECT_EQ(where("a = 1 \"\xc3\xa9\"\n").substr(0, 5), "1:8: ");
  EXPECT_EQ(where("a = \"x\"\"\xc3\xa9\"\n").substr(0, 5), "1:9: ");
  EXPECT_EQ(where("a = [1, 2].\"\xc3\xa9\"\n").substr(0, 6), "1:13: ");
  EXPECT_EQ(where("a = { b = 1 }.\"\xc3\xa9\"\n").substr(0, 6), "1:16: ");
  // A bracket or brace inside a bare value opens nothing (`scenes =0["scen<U+FEDF>...`, found
  // in CI's 60 s), and a comma outside an array or inline table separates nothing.
  EXPECT_EQ(where("scenes =0[\"scen\xef\xbb\x9f"
                  "es\"\n")
                .substr(0, 6),
            "1:16: ");
  EXPECT_EQ(where("a = x{\"\xc3\xa9\"\n").substr(0, 5), "1:8: ");
  EXPECT_EQ(where("a = 1,\"\xc3\xa9\"\n").substr(0, 5), "1:8: ");
  // Nor does anything else inside one: an '=' (`scenes =8["e...="1...`, found by a longer run).
  EXPECT_EQ(where(std::string("scenes =8[\"e\0sz=\"1\xcb\x8b", 20)).substr(0, 6), "1:19: ");
  EXPECT_EQ(where("scenes =0====[\"\xc3\xa9\"\n").substr(0, 6), "1:16: ");
}

TEST(TomlGuard, NonAsciiAfterABackslashInAMultiLineBasicStringIsFound) {
  // marzer/tomlplusplus#190: a line-ending backslash, then a non-ASCII character.
  EXPECT_EQ(where("s = \"\"\"\\\n\xc2\xa7\"\"\"\n"),
            "2:1: non-ASCII character after a backslash in a multi-line string (write it as a "
            "\\u escape)");
  EXPECT_EQ(where("s = \"\"\"\\  \r\n  \n \xc2\xa7\"\"\"\n").substr(0, 5), "3:2: ");
  EXPECT_EQ(where("s = \"\"\"\\\xc2\xa7\"\"\"\n").substr(0, 5), "1:9: ");
  // Escapes and quotes after a backslash are still read as such.
  EXPECT_EQ(where("s = \"\"\"\\\"\"\"\" \xc2\xa7\n").substr(0, 5), "1:14:");
}

}  // namespace
}  // namespace particles
