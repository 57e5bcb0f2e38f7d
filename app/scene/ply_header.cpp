// The PLY header, line by line: format, element and property lines, comments skipped. Each
// keyword's line is parsed by its own function; every message names the header line.
#include "app/scene/ply_header.hpp"

#include <charconv>
#include <system_error>

namespace particles::ply {
namespace {

constexpr std::size_t kMaxHeaderBytes = 1 << 16;

const TypeName* find_type(std::string_view name) {
  for (const TypeName& t : kTypes) {
    if (t.name == name || t.alias == name) return &t;
  }
  return nullptr;
}

bool is_integer(Type t) {
  return t != Type::f32 && t != Type::f64;
}

// "format <ascii|binary_little_endian> 1.0"; `at` names the line in messages.
Format parse_format(Input& in, const std::vector<std::string_view>& w, const std::string& at) {
  if (w.size() != 3) in.fail(at + "expected \"format <ascii|binary_little_endian> 1.0\"");
  Format format = Format::ascii;
  if (w[1] == "ascii") {
    format = Format::ascii;
  } else if (w[1] == "binary_little_endian") {
    format = Format::binary_little_endian;
  } else if (w[1] == "binary_big_endian") {
    in.fail(at +
            "format binary_big_endian is not supported: save the file as "
            "binary_little_endian or ascii");
  } else {
    in.fail(at + "unknown format '" + std::string(w[1]) +
            "' (expected ascii or binary_little_endian)");
  }
  if (w[2] != "1.0") in.fail(at + "unsupported PLY version " + std::string(w[2]));
  return format;
}

// "element <name> <count>", a name not declared before.
void parse_element(Input& in, const std::vector<std::string_view>& w, const std::string& at,
                   Header& h) {
  if (w.size() != 3) in.fail(at + "expected \"element <name> <count>\"");
  Element e;
  e.name = w[1];
  const auto [end, ec] = std::from_chars(w[2].data(), w[2].data() + w[2].size(), e.count);
  if (ec != std::errc{} || end != w[2].data() + w[2].size()) {
    in.fail(at + "element " + e.name + ": bad count '" + std::string(w[2]) + "'");
  }
  for (const Element& other : h.elements) {
    if (other.name == e.name) in.fail(at + "a second element " + e.name);
  }
  h.elements.push_back(std::move(e));
}

// "property <type> <name>" or "property list <count type> <item type> <name>", of the last
// element declared, a name not declared before in it.
void parse_property(Input& in, const std::vector<std::string_view>& w, const std::string& at,
                    Header& h) {
  if (h.elements.empty()) in.fail(at + "a property before any element");
  Element& e = h.elements.back();
  Property p;
  const TypeName* type = nullptr;
  if (w.size() == 5 && w[1] == "list") {
    const TypeName* count = find_type(w[2]);
    type = find_type(w[3]);
    if (!count || !is_integer(count->type)) {
      in.fail(at + "a list's count type must be an integer type, got '" + std::string(w[2]) + "'");
    }
    p.list = true;
    p.count_type = count->type;
    p.name = w[4];
    if (!type) in.fail(at + "unknown type '" + std::string(w[3]) + "'");
  } else if (w.size() == 3) {
    type = find_type(w[1]);
    p.name = w[2];
    if (!type) in.fail(at + "unknown type '" + std::string(w[1]) + "'");
  } else {
    in.fail(at + "expected \"property <type> <name>\" or \"property list <count type> " +
            "<item type> <name>\"");
  }
  p.type = type->type;
  for (const Property& other : e.properties) {
    if (other.name == p.name) in.fail(at + "a second property " + p.name + " in " + e.name);
  }
  e.properties.push_back(std::move(p));
}

}  // namespace

std::vector<std::string_view> split(std::string_view line) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) words.push_back(line.substr(start, i - start));
  }
  return words;
}

std::string plural(std::uint64_t n, std::string_view what) {
  if (n == 1) return "1 " + std::string(what);
  return std::to_string(n) + " " + (what == "vertex" ? "vertices" : std::string(what) + "s");
}

Header read_header(Input& in) {
  std::string line;
  if (!in.line(line, "the first line") || line != "ply") {
    in.fail("not a PLY file: it does not start with the line \"ply\"");
  }
  Header h;
  bool have_format = false;
  for (;;) {
    // A binary file without end_header would otherwise be read as one long header.
    if (in.offset() > kMaxHeaderBytes) {
      in.fail("the header is longer than " + std::to_string(kMaxHeaderBytes) +
              " bytes without end_header: not a PLY file");
    }
    if (!in.line(line, "a header line")) in.fail("the header has no end_header line (truncated?)");
    const std::string at = "header line " + std::to_string(in.line_number()) + ": ";
    const std::vector<std::string_view> w = split(line);
    if (w.empty()) continue;
    if (w[0] == "comment" || w[0] == "obj_info") continue;
    if (w[0] == "end_header") break;
    if (w[0] == "format") {
      h.format = parse_format(in, w, at);
      have_format = true;
    } else if (w[0] == "element") {
      parse_element(in, w, at, h);
    } else if (w[0] == "property") {
      parse_property(in, w, at, h);
    } else {
      in.fail(at + "unknown keyword '" + std::string(w[0]) + "'");
    }
  }
  if (!have_format) in.fail("the header has no format line");
  return h;
}

}  // namespace particles::ply
