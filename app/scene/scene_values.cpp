// One value of a scene file: its type, its range (scene_ranges.hpp) and, when either is wrong, a
// message with the file, line and column of the node. Every section reader goes through these,
// so every key is checked and reported the same way.
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>

#include "app/scene/printable.hpp"
#include "app/scene/scene_reader.hpp"
#include "core/enum_names.hpp"

namespace particles::scene_reading {
namespace {

constexpr EnumNames<toml::node_type, 6> kTypeNames = {{{toml::node_type::string, "a string"},
                                                       {toml::node_type::integer, "an integer"},
                                                       {toml::node_type::floating_point, "a float"},
                                                       {toml::node_type::boolean, "a boolean"},
                                                       {toml::node_type::table, "a table"},
                                                       {toml::node_type::array, "an array"}}};

// Every name is a literal, so the view's data is a C string. The types the table leaves out are
// the date and time ones.
const char* type_name(const toml::node& n) {
  return name_of(kTypeNames, n.type(), "a date/time").data();
}

// "name = v <problem>", v with 10 significant digits so a user sees the value they wrote.
std::string describe_value(const std::string& name, double v, std::string_view problem) {
  std::ostringstream s;
  s << std::setprecision(10) << name << " = " << v << problem;
  return s.str();
}

}  // namespace

std::string join(std::string_view section, std::string_view key) {
  return section.empty() ? std::string(key) : std::string(section) + "." + std::string(key);
}

std::string format_number(double v) {
  std::ostringstream s;
  s << std::setprecision(10) << v;
  return s.str();
}

std::string format_vec3(Vec3 v) {
  std::ostringstream s;
  s << std::setprecision(10) << '(' << v.x << ", " << v.y << ", " << v.z << ')';
  return s.str();
}

void SceneReader::fail(const toml::source_region& where, const std::string& message) const {
  // Nodes built implicitly (e.g. the [model] in a lone [model.galaxy]) may carry no position.
  const auto line = where.begin.line ? where.begin.line : 1u;
  const auto column = where.begin.column ? where.begin.column : 1u;
  // Keys, strings and the file's own name are the user's text: a NUL or an escape sequence
  // among them is shown, not obeyed by the terminal.
  throw SceneError(printable(source_ + ":" + std::to_string(line) + ":" + std::to_string(column) +
                             ": " + message));
}

void SceneReader::wrong_type(const toml::node& n, const std::string& name,
                             std::string_view expected) const {
  fail(n.source(), name + ": expected " + std::string(expected) + ", got " + type_name(n));
}

void SceneReader::check_keys(const toml::table& t, std::string_view section,
                             std::initializer_list<std::string_view> allowed) const {
  for (auto&& [key, value] : t) {
    bool known = false;
    for (std::string_view a : allowed) known = known || key.str() == a;
    if (known) continue;
    std::string list;
    for (std::string_view a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
    const std::string where =
        section.empty() ? "at the top level" : "in [" + std::string(section) + "]";
    fail(key.source(), "unknown key '" + std::string(key.str()) + "' " + where +
                           " (expected one of: " + list + ")");
  }
}

const toml::table* SceneReader::table(const toml::table& parent, std::string_view section,
                                      std::string_view key) const {
  const toml::node* n = parent.get(key);
  if (!n) return nullptr;
  if (!n->is_table()) wrong_type(*n, join(section, key), "a table");
  return n->as_table();
}

double SceneReader::number(const toml::node& n, const std::string& name, Range range) const {
  // Integers are accepted where floats are expected: `radius = 10` should just work.
  double v = 0.0;
  if (const auto* i = n.as_integer()) {
    v = static_cast<double>(i->get());
  } else if (const auto* f = n.as_floating_point()) {
    v = f->get();
  } else {
    wrong_type(n, name, "a number");
  }
  if (!std::isfinite(v)) fail(n.source(), name + " must be a finite number");
  // Every number lands in a float: one beyond its range would become infinity (and converting
  // it is undefined behaviour in C++).
  if (std::fabs(v) > std::numeric_limits<float>::max()) {
    fail(n.source(), describe_value(name, v, " is too large for a float (at most ") +
                         format_number(std::numeric_limits<float>::max()) + " in magnitude)");
  }
  // Nor may a number vanish in it: 1e-300 would become 0 (or a subnormal) and pass an open
  // range such as (0, 20] only to divide by zero in a model.
  if (v != 0.0 && std::fabs(v) < std::numeric_limits<float>::min()) {
    fail(n.source(), describe_value(name, v, " is too small for a float (0 or at least ") +
                         format_number(std::numeric_limits<float>::min()) + " in magnitude)");
  }
  if (!range.contains(v)) {
    fail(n.source(), describe_value(name, v, " is out of range: must be ") + range.describe());
  }
  return v;
}

std::int64_t SceneReader::integer(const toml::node& n, const std::string& name, Range range) const {
  const auto* i = n.as_integer();
  if (!i) wrong_type(n, name, "an integer");
  const std::int64_t v = i->get();
  if (!range.contains(static_cast<double>(v))) {
    fail(n.source(),
         name + " = " + std::to_string(v) + " is out of range: must be " + range.describe());
  }
  return v;
}

Color SceneReader::color(const toml::node& n, const std::string& name) const {
  if (const auto* s = n.as_string()) {
    const std::string& text = s->get();
    const bool shape_ok = (text.size() == 7 || text.size() == 9) && text[0] == '#' &&
                          text.find_first_not_of("0123456789abcdefABCDEF", 1) == std::string::npos;
    if (!shape_ok) {
      fail(n.source(),
           name + ": bad colour \"" + text + "\": expected \"#rrggbb\" or \"#rrggbbaa\"");
    }
    auto channel = [&](std::size_t i) {
      return static_cast<float>(std::stoi(text.substr(1 + 2 * i, 2), nullptr, 16)) / 255.0f;
    };
    return {channel(0), channel(1), channel(2), text.size() == 9 ? channel(3) : 1.0f};
  }
  const auto* a = n.as_array();
  if (!a) wrong_type(n, name, "a colour ([r, g, b], [r, g, b, a] or \"#rrggbb\")");
  if (a->size() != 3 && a->size() != 4) {
    fail(n.source(),
         name + ": bad colour: expected 3 or 4 components, got " + std::to_string(a->size()));
  }
  float c[4] = {1.0f, 1.0f, 1.0f, 1.0f};
  for (std::size_t i = 0; i < a->size(); ++i) {
    c[i] = static_cast<float>(
        number(*a->get(i), name + "[" + std::to_string(i) + "]", scene_key_range(name)));
  }
  return {c[0], c[1], c[2], c[3]};
}

Vec3 SceneReader::vec3(const toml::node& n, const std::string& name, Range range) const {
  const auto* a = n.as_array();
  if (!a) wrong_type(n, name, "an array [x, y, z]");
  if (a->size() != 3) {
    fail(n.source(), name + ": expected 3 components [x, y, z], got " + std::to_string(a->size()));
  }
  auto at = [&](std::size_t i) {
    return static_cast<float>(number(*a->get(i), name + "[" + std::to_string(i) + "]", range));
  };
  return {at(0), at(1), at(2)};
}

void SceneReader::get_color(const toml::table& t, std::string_view section, std::string_view key,
                            Color& out) const {
  if (const toml::node* n = t.get(key)) out = color(*n, join(section, key));
}

void SceneReader::get_vec3(const toml::table& t, std::string_view section, std::string_view key,
                           Vec3& out) const {
  const toml::node* n = t.get(key);
  if (!n) return;
  const std::string name = join(section, key);
  out = vec3(*n, name, scene_key_range(name));
}

std::string SceneReader::string_choice(const toml::table& t, std::string_view section,
                                       std::string_view key,
                                       std::initializer_list<std::string_view> choices,
                                       std::string fallback) const {
  const toml::node* n = t.get(key);
  if (!n) return fallback;
  std::string list;
  for (std::string_view c : choices) list += (list.empty() ? "\"" : ", \"") + std::string(c) + "\"";
  const std::string name = join(section, key);
  if (!n->is_string()) wrong_type(*n, name, "a string, one of " + list);
  const std::string& value = n->as_string()->get();
  for (std::string_view c : choices) {
    if (c == value) return value;
  }
  fail(n->source(), name + " = \"" + value + "\" is not one of " + list);
}

}  // namespace particles::scene_reading
