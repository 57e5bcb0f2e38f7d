// docs/scenes.md's Keys table against the loader's range table (app/scene/scene_ranges.hpp):
// every numeric key the loader reads is documented with the range it enforces, and every
// numeric key documented is one it reads. Issue 64 found the column out of date (sprite_size
// "> 0" where the loader took (0, 1000]; twist, gravity and fit bounded but documented as any).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "app/scene/scene_ranges.hpp"

namespace particles {
namespace {

const std::string kMinus = "\xe2\x88\x92";    // U+2212, the docs' minus sign
const std::string kAtLeast = "\xe2\x89\xa5";  // U+2265
const std::string kPi = "\xcf\x80";           // U+03C0

std::string trim(std::string s) {
  const auto first = s.find_first_not_of(' ');
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(' ') - first + 1);
}

std::vector<std::string> cells(const std::string& row) {
  std::vector<std::string> out;
  std::stringstream in(row.substr(1));  // after the leading '|'
  std::string cell;
  while (std::getline(in, cell, '|')) out.push_back(trim(cell));
  return out;
}

// Reads one number as the docs write them: 0.1, 1e6, 10^6, 2^27, 2^32 − 1, π/2, −π/2, −20.
// Advances `at` past it; nullopt when there is none.
std::optional<double> read_number(const std::string& text, std::size_t& at) {
  auto starts = [&](const std::string& s) { return text.compare(at, s.size(), s) == 0; };
  double sign = 1.0;
  if (starts(kMinus)) {
    sign = -1.0, at += kMinus.size();
  } else if (starts("-")) {
    sign = -1.0, at += 1;
  }
  double value = 0.0;
  if (starts(kPi)) {
    at += kPi.size();
    value = 3.14159265358979323846;
    if (starts("/")) {
      ++at;
      std::size_t used = 0;
      value /= std::stod(text.substr(at), &used);
      at += used;
    }
    return sign * value;
  }
  const std::size_t end = text.find_first_not_of("0123456789.e+", at);
  const std::string digits = text.substr(at, end - at);
  if (digits.empty()) return std::nullopt;
  std::size_t used = 0;
  value = std::stod(digits, &used);
  at += used;
  if (starts("^")) {  // a power: 2^27, 10^6
    ++at;
    std::size_t exponent_used = 0;
    value = std::pow(value, std::stod(text.substr(at), &exponent_used));
    at += exponent_used;
  }
  if (starts(" " + kMinus + " ")) {  // 2^32 − 1
    at += 2 + kMinus.size();
    const auto minus = read_number(text, at);
    if (!minus) return std::nullopt;
    value -= *minus;
  }
  return sign * value;
}

// The range a Range cell states: "[a, b]", "(a, b]", "> a", "≥ a", after "each " or
// "components in "; anything after the interval (", < `ring_radius`") is a rule between keys.
std::optional<Range> parse_range(std::string text) {
  for (const std::string prefix : {"each ", "components in "}) {
    if (text.rfind(prefix, 0) == 0) text = text.substr(prefix.size());
  }
  Range r;
  std::size_t at = 0;
  if (text.rfind("> ", 0) == 0 || text.rfind(kAtLeast + " ", 0) == 0) {
    r.lo_open = text[0] == '>';
    at = r.lo_open ? 2 : kAtLeast.size() + 1;
    const auto lo = read_number(text, at);
    if (!lo) return std::nullopt;
    r.lo = *lo;
    return r;
  }
  if (text.empty() || (text[0] != '[' && text[0] != '(')) return std::nullopt;
  r.lo_open = text[0] == '(';
  at = 1;
  const auto lo = read_number(text, at);
  if (!lo || text.compare(at, 2, ", ") != 0) return std::nullopt;
  at += 2;
  const auto hi = read_number(text, at);
  if (!hi || at >= text.size() || (text[at] != ']' && text[at] != ')')) return std::nullopt;
  r.lo = *lo;
  r.hi = *hi;
  r.hi_open = text[at] == ')';
  return r;
}

// Equal, or within rounding of a written-out π/2; an infinite end only equals itself.
bool same(double a, double b) {
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return a == b || std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b));
}

struct DocumentedKey {
  std::string type, range;
  int line = 0;
};

// The Keys table of docs/scenes.md: full key name -> its type and range cells.
std::map<std::string, DocumentedKey> documented_keys() {
  std::ifstream in(PARTICLES_DOCS_DIR "/scenes.md");
  EXPECT_TRUE(in) << "cannot read " PARTICLES_DOCS_DIR "/scenes.md";
  std::map<std::string, DocumentedKey> keys;
  std::string line, section;
  bool in_keys = false;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.rfind("## ", 0) == 0) in_keys = line == "## Keys";
    if (!in_keys || line.rfind("| ", 0) != 0) continue;
    const std::vector<std::string> c = cells(line);
    if (c.size() < 3 || c[0] == "Key" || c[0].rfind("---", 0) == 0) continue;
    if (c[0].rfind("**`[", 0) == 0) {  // **`[model.galaxy]`** or **`[[camera.path]]`**
      section = c[0].substr(3, c[0].size() - 6);
      while (!section.empty() && section.front() == '[') section.erase(0, 1);
      while (!section.empty() && section.back() == ']') section.pop_back();
      continue;
    }
    // `count`, or `box_min`, `box_max`: one row for several keys.
    for (std::size_t open = c[0].find('`'); open != std::string::npos;) {
      const std::size_t close = c[0].find('`', open + 1);
      const std::string key = c[0].substr(open + 1, close - open - 1);
      keys[section.empty() ? key : section + "." + key] = {c[1], c[2], number};
      open = c[0].find('`', close + 1);
    }
  }
  return keys;
}

bool numeric(const std::string& type) {
  return type == "float" || type == "integer" || type == "[x, y, z] floats" || type == "colour";
}

TEST(SceneDocs, EveryRangeInTheKeysTableIsTheLoaders) {
  const std::map<std::string, DocumentedKey> docs = documented_keys();
  ASSERT_GT(docs.size(), 50u) << "the Keys table of docs/scenes.md was not found";
  for (const KeyRange& k : scene_key_ranges()) {
    const std::string key(k.key);
    const auto it = docs.find(key);
    if (it == docs.end()) {
      ADD_FAILURE() << key << " (range " << k.range.describe()
                    << ") is not in docs/scenes.md's Keys table";
      continue;
    }
    const DocumentedKey& doc = it->second;
    EXPECT_TRUE(numeric(doc.type)) << key << " is documented as " << doc.type;
    const std::optional<Range> range = parse_range(doc.range);
    if (!range) {
      ADD_FAILURE() << "docs/scenes.md:" << doc.line << ": " << key << ": cannot read the range '"
                    << doc.range << "'; the loader's is " << k.range.describe();
      continue;
    }
    const bool equal = same(range->lo, k.range.lo) && same(range->hi, k.range.hi) &&
                       range->lo_open == k.range.lo_open && range->hi_open == k.range.hi_open;
    EXPECT_TRUE(equal) << "docs/scenes.md:" << doc.line << ": " << key << " is documented as '"
                       << doc.range << "' but the loader takes " << k.range.describe();
  }
  for (const auto& [key, doc] : docs) {
    if (!numeric(doc.type)) continue;
    bool known = false;
    for (const KeyRange& k : scene_key_ranges()) known = known || k.key == key;
    EXPECT_TRUE(known) << "docs/scenes.md:" << doc.line << ": " << key
                       << " is documented as a number but has no range in the loader's table";
  }
}

// The reader of the Range column itself.
TEST(SceneDocs, RangesReadAsTheDocsWriteThem) {
  const auto r = [](const std::string& text) { return parse_range(text).value_or(Range{-1, -1}); };
  EXPECT_EQ(r("[1, 2^27]"), (Range{1, 134217728}));
  EXPECT_EQ(r("[0, 2^32 " + kMinus + " 1]"), (Range{0, 4294967295.0}));
  EXPECT_EQ(r("(0, 0.1]"), (Range{0, 0.1, true, false}));
  EXPECT_EQ(r("each [" + kMinus + "10^6, 10^6]"), (Range{-1e6, 1e6}));
  EXPECT_EQ(r("(0, 1000], < `ring_radius`"), (Range{0, 1000, true, false}));
  EXPECT_EQ(r("components in [0, 1]"), (Range{0, 1}));
  EXPECT_EQ(r("[0.0001, 1e6]"), (Range{0.0001, 1e6}));
  EXPECT_TRUE(same(r("[" + kMinus + kPi + "/2, " + kPi + "/2]").hi, 1.5707963267948966));
  EXPECT_EQ(r("> 0").lo_open, true);
  EXPECT_FALSE(same(r("> 0").hi, 1000));
  EXPECT_FALSE(parse_range("any"));
  EXPECT_FALSE(parse_range("finite"));
}

}  // namespace
}  // namespace particles
