// TOML -> SceneDesc. toml++ is used header-only here (its only includer) so the binary does not
// depend on libtomlplusplus.so at run time.
#define TOML_HEADER_ONLY 1
#include "app/scene/scene_loader.hpp"

#include <toml++/toml.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <initializer_list>
#include <iomanip>
#include <limits>
#include <sstream>

namespace particles {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// An allowed interval for a number; open ends are written with parentheses in messages.
struct Range {
  double lo = -kInf, hi = kInf;
  bool lo_open = false, hi_open = false;

  bool contains(double v) const {
    const bool above = lo_open ? v > lo : v >= lo;
    const bool below = hi_open ? v < hi : v <= hi;
    return above && below;
  }
  std::string describe() const {
    std::ostringstream s;
    s << std::setprecision(10);  // 134217728, not 1.34218e+08
    if (hi == kInf) {
      s << (lo_open ? "> " : ">= ") << lo;
    } else {
      s << (lo_open ? '(' : '[') << lo << ", " << hi << (hi_open ? ')' : ']');
    }
    return s.str();
  }
};
constexpr Range kAny{};
constexpr Range kPositive{0.0, kInf, true, false};
constexpr Range kNonNegative{0.0, kInf, false, false};
constexpr Range kUnit{0.0, 1.0, false, false};
constexpr Range closed(double lo, double hi) {
  return {lo, hi, false, false};
}

std::string join(std::string_view section, std::string_view key) {
  return section.empty() ? std::string(key) : std::string(section) + "." + std::string(key);
}

std::string format_number(double v) {
  std::ostringstream s;
  s << std::setprecision(10) << v;  // 10, not 10.000000; 134217728, not 1.34218e+08
  return s.str();
}

const char* type_name(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a float";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    default:
      return "a date/time";
  }
}

// Reads one document; owns the source name so every message can be prefixed with a position.
class SceneReader {
 public:
  explicit SceneReader(const std::string& source) : source_(source) {}

  SceneDesc read(const toml::table& root) const;

 private:
  [[noreturn]] void fail(const toml::source_region& where, const std::string& message) const {
    // Nodes built implicitly (e.g. the [model] in a lone [model.galaxy]) may carry no position.
    const auto line = where.begin.line ? where.begin.line : 1u;
    const auto column = where.begin.column ? where.begin.column : 1u;
    throw SceneError(source_ + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " +
                     message);
  }
  [[noreturn]] void wrong_type(const toml::node& n, const std::string& name,
                               std::string_view expected) const {
    fail(n.source(), name + ": expected " + std::string(expected) + ", got " + type_name(n));
  }

  void check_keys(const toml::table& t, std::string_view section,
                  std::initializer_list<std::string_view> allowed) const;
  const toml::table* table(const toml::table& parent, std::string_view section,
                           std::string_view key) const;

  double number(const toml::node& n, const std::string& name, Range range) const;
  std::int64_t integer(const toml::node& n, const std::string& name, Range range) const;
  Color color(const toml::node& n, const std::string& name) const;
  Vec3 vec3(const toml::node& n, const std::string& name) const;

  // Optional keys: leave `out` (the default) alone when the key is absent.
  void get(const toml::table& t, std::string_view section, std::string_view key, Range range,
           float& out) const {
    if (const toml::node* n = t.get(key))
      out = static_cast<float>(number(*n, join(section, key), range));
  }
  void get(const toml::table& t, std::string_view section, std::string_view key, Range range,
           int& out) const {
    if (const toml::node* n = t.get(key))
      out = static_cast<int>(integer(*n, join(section, key), range));
  }
  void get(const toml::table& t, std::string_view section, std::string_view key, Range range,
           std::uint32_t& out) const {
    if (const toml::node* n = t.get(key)) {
      out = static_cast<std::uint32_t>(integer(*n, join(section, key), range));
    }
  }
  void get_color(const toml::table& t, std::string_view section, std::string_view key,
                 Color& out) const {
    if (const toml::node* n = t.get(key)) out = color(*n, join(section, key));
  }

  void read_particles(const toml::table& t, SceneDesc& d) const;
  void read_model(const toml::table& root, const toml::table* t, ModelParams& m) const;
  void read_galaxy(const toml::table& t, GalaxyParams& g) const;
  void read_fountain(const toml::table& t, FountainParams& f) const;
  void read_colors(const toml::table& t, SceneDesc& d) const;
  void read_camera(const toml::table& t, SceneDesc& d) const;
  void read_camera_path(const toml::node& n, SceneDesc& d) const;

  std::string source_;
};

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
  if (!range.contains(v)) {
    std::ostringstream s;
    s << std::setprecision(10) << name << " = " << v << " is out of range: must be "
      << range.describe();
    fail(n.source(), s.str());
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
    c[i] = static_cast<float>(number(*a->get(i), name + "[" + std::to_string(i) + "]", kUnit));
  }
  return {c[0], c[1], c[2], c[3]};
}

Vec3 SceneReader::vec3(const toml::node& n, const std::string& name) const {
  const auto* a = n.as_array();
  if (!a) wrong_type(n, name, "an array [x, y, z]");
  if (a->size() != 3) {
    fail(n.source(), name + ": expected 3 components [x, y, z], got " + std::to_string(a->size()));
  }
  auto at = [&](std::size_t i) {
    return static_cast<float>(number(*a->get(i), name + "[" + std::to_string(i) + "]", kAny));
  };
  return {at(0), at(1), at(2)};
}

SceneDesc SceneReader::read(const toml::table& root) const {
  SceneDesc d;
  d.source_path = source_;
  d.name = std::filesystem::path(source_).stem().string();  // a readable default for the HUD
  check_keys(root, "", {"name", "particles", "model", "colors", "camera"});
  if (const toml::node* n = root.get("name")) {
    if (!n->is_string()) wrong_type(*n, "name", "a string");
    d.name = n->as_string()->get();
  }
  if (const toml::table* t = table(root, "", "particles")) read_particles(*t, d);
  read_model(root, table(root, "", "model"), d.params);
  if (const toml::table* t = table(root, "", "colors")) read_colors(*t, d);
  // A scene that does not place its camera is framed on its particles once the first frame's
  // extents are known; one that does keeps its pose unless it asks (camera.auto_frame).
  d.camera_auto_frame = true;
  if (const toml::table* t = table(root, "", "camera")) read_camera(*t, d);
  return d;
}

void SceneReader::read_particles(const toml::table& t, SceneDesc& d) const {
  check_keys(t, "particles", {"count", "cpu_count", "sprite_size", "seed", "time_step"});
  get(t, "particles", "count", closed(1, 1 << 27), d.count);
  get(t, "particles", "cpu_count", closed(1, 1 << 24), d.cpu_count);
  get(t, "particles", "sprite_size", kPositive, d.sprite_size);
  get(t, "particles", "seed", closed(0, 4294967295.0), d.params.seed);
  get(t, "particles", "time_step", Range{0.0, 0.1, true, false}, d.time_step);
}

void SceneReader::read_model(const toml::table& root, const toml::table* t, ModelParams& m) const {
  const std::string_view choices = "\"galaxy\" or \"fountain\"";
  if (!t) fail(root.source(), "missing [model] table: set model.type to " + std::string(choices));
  check_keys(*t, "model", {"type", "galaxy", "fountain"});
  const toml::node* type = t->get("type");
  if (!type) fail(t->source(), "missing key model.type: expected " + std::string(choices));
  if (!type->is_string()) wrong_type(*type, "model.type", choices);
  const std::string& name = type->as_string()->get();
  if (name == "galaxy") {
    m.model = Model::galaxy;
  } else if (name == "fountain") {
    m.model = Model::fountain;
  } else {
    fail(type->source(),
         "model.type = \"" + name + "\" is not a model: expected " + std::string(choices));
  }
  // The section of the model not selected is still validated: a typo there is still a typo.
  if (const toml::table* g = table(*t, "model", "galaxy")) read_galaxy(*g, m.galaxy);
  if (const toml::table* f = table(*t, "model", "fountain")) read_fountain(*f, m.fountain);
}

void SceneReader::read_galaxy(const toml::table& t, GalaxyParams& g) const {
  constexpr std::string_view s = "model.galaxy";
  check_keys(
      t, s,
      {"arms", "radius", "thickness", "twist", "arm_spread", "core_fraction", "rotation_speed"});
  get(t, s, "arms", closed(1, 16), g.arms);
  get(t, s, "radius", kPositive, g.radius);
  get(t, s, "thickness", kNonNegative, g.thickness);
  get(t, s, "twist", kAny, g.twist);
  get(t, s, "arm_spread", kNonNegative, g.arm_spread);
  get(t, s, "core_fraction", kUnit, g.core_fraction);
  get(t, s, "rotation_speed", kAny, g.rotation_speed);
}

void SceneReader::read_fountain(const toml::table& t, FountainParams& f) const {
  constexpr std::string_view s = "model.fountain";
  check_keys(t, s, {"nozzle", "speed", "cone_angle", "gravity", "lifetime"});
  if (const toml::node* n = t.get("nozzle")) f.nozzle = vec3(*n, "model.fountain.nozzle");
  get(t, s, "speed", kNonNegative, f.speed);
  get(t, s, "cone_angle", closed(0.0, 1.5707963267948966), f.cone_angle);
  get(t, s, "gravity", kAny, f.gravity);
  get(t, s, "lifetime", kPositive, f.lifetime);
}

void SceneReader::read_colors(const toml::table& t, SceneDesc& d) const {
  check_keys(t, "colors", {"inner", "outer", "background"});
  get_color(t, "colors", "inner", d.params.color_inner);
  get_color(t, "colors", "outer", d.params.color_outer);
  get_color(t, "colors", "background", d.background);
}

void SceneReader::read_camera(const toml::table& t, SceneDesc& d) const {
  constexpr std::string_view s = "camera";
  check_keys(t, s, {"target", "distance", "yaw", "pitch", "fov", "auto_frame", "path"});
  CameraPose& c = d.camera;
  d.camera_auto_frame = !t.contains("target") && !t.contains("distance") && !t.contains("path");
  if (const toml::node* n = t.get("target")) c.target = vec3(*n, "camera.target");
  get(t, s, "distance", kPositive, c.distance);
  get(t, s, "yaw", kAny, c.yaw_deg);
  get(t, s, "pitch", closed(-89, 89), c.pitch_deg);
  get(t, s, "fov", closed(1, 170), c.fov_deg);
  if (const toml::node* n = t.get("auto_frame")) {
    if (!n->is_boolean()) wrong_type(*n, "camera.auto_frame", "a boolean");
    d.camera_auto_frame = n->as_boolean()->get();
  }
  // Read after the pose: keyframes default to it.
  if (const toml::node* n = t.get("path")) read_camera_path(*n, d);
}

void SceneReader::read_camera_path(const toml::node& n, SceneDesc& d) const {
  const auto* keys = n.as_array();
  if (!keys) wrong_type(n, "camera.path", "an array of tables ([[camera.path]])");
  for (std::size_t i = 0; i < keys->size(); ++i) {
    const toml::node& item = *keys->get(i);
    const std::string s = "camera.path[" + std::to_string(i) + "]";
    if (!item.is_table()) wrong_type(item, s, "a table");
    const toml::table& t = *item.as_table();
    check_keys(t, s, {"time", "yaw", "pitch", "distance"});
    const toml::node* time = t.get("time");
    if (!time) fail(t.source(), "missing key " + s + ".time");
    CameraKey k{0.0f, d.camera.yaw_deg, d.camera.pitch_deg, d.camera.distance};
    k.time = static_cast<float>(number(*time, s + ".time", kNonNegative));
    if (i == 0 && k.time != 0.0f) {
      fail(time->source(), s + ".time must be 0: the path starts at the first keyframe");
    }
    if (i > 0 && !(k.time > d.camera_path.back().time)) {
      fail(time->source(), s + ".time must be greater than the previous keyframe's (" +
                               format_number(d.camera_path.back().time) +
                               "): times must be "
                               "strictly increasing");
    }
    get(t, s, "yaw", kAny, k.yaw_deg);
    get(t, s, "pitch", closed(-89, 89), k.pitch_deg);
    get(t, s, "distance", kPositive, k.distance);
    d.camera_path.push_back(k);
  }
}

}  // namespace

SceneDesc parse_scene(std::string_view toml_text, const std::string& source_name) {
  toml::table root;
  try {
    root = toml::parse(toml_text, source_name);
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    throw SceneError(source_name + ":" + std::to_string(b.line) + ":" + std::to_string(b.column) +
                     ": TOML syntax error: " + std::string(e.description()));
  }
  return SceneReader(source_name).read(root);
}

SceneDesc load_scene(const std::filesystem::path& file) {
  std::error_code ec;
  std::ifstream in(file, std::ios::binary);
  if (!in || std::filesystem::is_directory(file, ec))
    throw SceneError(file.string() + ": cannot open scene file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw SceneError(file.string() + ": cannot open scene file (read error)");
  return parse_scene(text.str(), file.string());
}

}  // namespace particles
