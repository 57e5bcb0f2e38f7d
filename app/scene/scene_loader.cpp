// TOML -> SceneDesc. toml++ is used header-only here (its only includer) so the binary does not
// depend on libtomlplusplus.so at run time.
#define TOML_HEADER_ONLY 1
// toml++ 3.3.0's internal assertions fire on some malformed files (`[[[` asserts in parse_key)
// that its release build reports as parse errors; Debug builds must report them the same way.
#define TOML_ASSERT(expr) static_cast<void>(0)
#include "app/scene/scene_loader.hpp"

#include "app/scene/paths.hpp"
#include "app/scene/ply_reader.hpp"
#include "app/scene/printable.hpp"
#include "app/scene/scene_ranges.hpp"
#include "app/scene/toml_guard.hpp"
#include "core/backend_limits.hpp"
#include "core/models/model_names.hpp"

#include <toml++/toml.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <iomanip>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <tuple>
#include <utility>

namespace particles {
namespace {

// The world's coordinates, as a point cloud's points must lie within them.
constexpr Range kWorldBox{-kWorld, kWorld, false, false};

std::string join(std::string_view section, std::string_view key) {
  return section.empty() ? std::string(key) : std::string(section) + "." + std::string(key);
}

std::string format_number(double v) {
  std::ostringstream s;
  s << std::setprecision(10) << v;  // 10, not 10.000000; 134217728, not 1.34218e+08
  return s.str();
}

std::string format_vec3(Vec3 v) {
  std::ostringstream s;
  s << std::setprecision(10) << '(' << v.x << ", " << v.y << ", " << v.z << ')';
  return s.str();
}

std::string describe_world() {
  return kWorldBox.describe() + " in x, y and z";
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
    // Keys, strings and the file's own name are the user's text: a NUL or an escape sequence
    // among them is shown, not obeyed by the terminal.
    throw SceneError(printable(source_ + ":" + std::to_string(line) + ":" + std::to_string(column) +
                               ": " + message));
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
  Vec3 vec3(const toml::node& n, const std::string& name, Range range) const;

  // Optional keys: leave `out` (the default) alone when the key is absent. The range is the
  // table's (scene_ranges.hpp), looked up by the key's full name.
  void get(const toml::table& t, std::string_view section, std::string_view key, float& out) const {
    const std::string name = join(section, key);
    if (const toml::node* n = t.get(key))
      out = static_cast<float>(number(*n, name, scene_key_range(name)));
  }
  void get(const toml::table& t, std::string_view section, std::string_view key, int& out) const {
    const std::string name = join(section, key);
    if (const toml::node* n = t.get(key))
      out = static_cast<int>(integer(*n, name, scene_key_range(name)));
  }
  void get(const toml::table& t, std::string_view section, std::string_view key,
           std::uint32_t& out) const {
    const std::string name = join(section, key);
    if (const toml::node* n = t.get(key)) {
      out = static_cast<std::uint32_t>(integer(*n, name, scene_key_range(name)));
    }
  }
  void get_color(const toml::table& t, std::string_view section, std::string_view key,
                 Color& out) const {
    if (const toml::node* n = t.get(key)) out = color(*n, join(section, key));
  }

  void read_particles(const toml::table& t, SceneDesc& d) const;
  void read_model(const toml::table& root, const toml::table* t, ModelParams& m) const;
  void read_model_table(Model model, const toml::table& t, ModelParams& m) const;
  void read_galaxy(const toml::table& t, GalaxyParams& g) const;
  void read_fountain(const toml::table& t, FountainParams& f) const;
  void read_smoke(const toml::table& t, SmokeParams& p) const;
  void read_vortex_ring(const toml::table& t, VortexRingParams& p) const;
  void read_fireworks(const toml::table& t, FireworksParams& p) const;
  void read_attractor(const toml::table& t, AttractorParams& p) const;
  void read_shells(const toml::table& t, ShellsParams& p) const;
  void read_snow(const toml::table& t, SnowParams& p) const;
  void read_points(const toml::table& t, PointsParams& p) const;
  void load_points(const toml::table& root, const toml::table& t, SceneDesc& d) const;
  std::string string_choice(const toml::table& t, std::string_view section, std::string_view key,
                            std::initializer_list<std::string_view> choices,
                            std::string fallback) const;
  void get_vec3(const toml::table& t, std::string_view section, std::string_view key,
                Vec3& out) const;
  void check_eye_apart(const toml::node& n, const std::string& name, float distance,
                       Vec3 target) const;
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
  // Every number lands in a float: one beyond its range would become infinity (and converting
  // it is undefined behaviour in C++).
  if (std::fabs(v) > std::numeric_limits<float>::max()) {
    std::ostringstream s;
    s << std::setprecision(10) << name << " = " << v << " is too large for a float (at most "
      << std::numeric_limits<float>::max() << " in magnitude)";
    fail(n.source(), s.str());
  }
  // Nor may a number vanish in it: 1e-300 would become 0 (or a subnormal) and pass an open
  // range such as (0, 20] only to divide by zero in a model.
  if (v != 0.0 && std::fabs(v) < std::numeric_limits<float>::min()) {
    std::ostringstream s;
    s << std::setprecision(10) << name << " = " << v << " is too small for a float (0 or at least "
      << std::numeric_limits<float>::min() << " in magnitude)";
    fail(n.source(), s.str());
  }
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

SceneDesc SceneReader::read(const toml::table& root) const {
  SceneDesc d;
  d.source_path = source_;
  // A readable default for the HUD. Names are shown on terminals and in reports: control
  // characters in them are escaped here, once, for every place that shows them.
  d.name = printable(std::filesystem::path(source_).stem().string());
  check_keys(root, "", {"name", "particles", "model", "colors", "camera"});
  if (const toml::node* n = root.get("name")) {
    if (!n->is_string()) wrong_type(*n, "name", "a string");
    d.name = printable(n->as_string()->get());
  }
  if (const toml::table* t = table(root, "", "particles")) read_particles(*t, d);
  read_model(root, table(root, "", "model"), d.params);
  if (const toml::table* t = table(root, "", "colors")) read_colors(*t, d);
  // After the colours and the counts: a cloud without colours takes the scene's, and the counts
  // default to the cloud's.
  if (d.params.model == Model::points) {
    const toml::table* model = root["model"].as_table();
    const toml::table* points = model ? table(*model, "model", "points") : nullptr;
    if (!points) {
      fail(model ? model->source() : root.source(),
           "missing table [model.points]: a points scene needs model.points.file");
    }
    load_points(root, *points, d);
  }
  // A scene that does not place its camera is framed on its particles once the first frame's
  // extents are known; one that does keeps its pose unless it asks (camera.auto_frame).
  d.camera_auto_frame = true;
  if (const toml::table* t = table(root, "", "camera")) read_camera(*t, d);
  return d;
}

void SceneReader::read_particles(const toml::table& t, SceneDesc& d) const {
  check_keys(t, "particles",
             {"count", "cpu_count", "sprite_size", "sprite_size_count", "seed", "time_step"});
  get(t, "particles", "count", d.count);
  get(t, "particles", "cpu_count", d.cpu_count);
  get(t, "particles", "sprite_size", d.sprite_size);
  get(t, "particles", "sprite_size_count", d.sprite_size_count);
  get(t, "particles", "seed", d.params.seed);
  get(t, "particles", "time_step", d.time_step);
}

void SceneReader::read_model(const toml::table& root, const toml::table* t, ModelParams& m) const {
  std::string choices;
  for (Model model : kAllModels) {
    choices += (choices.empty() ? "\"" : ", \"") + std::string(to_string(model)) + "\"";
  }
  if (!t) fail(root.source(), "missing [model] table: set model.type to one of " + choices);
  const toml::node* type = t->get("type");
  if (!type) fail(t->source(), "missing key model.type: expected one of " + choices);
  if (!type->is_string()) wrong_type(*type, "model.type", "a string, one of " + choices);
  const std::string& name = type->as_string()->get();
  const std::optional<Model> chosen = model_from_string(name);
  if (!chosen) {
    fail(type->source(),
         "model.type = \"" + name + "\" is not a model: expected one of " + choices);
  }
  m.model = *chosen;
  for (auto&& [key, value] : *t) {
    if (key.str() == "type") continue;
    const std::optional<Model> table_model = model_from_string(key.str());
    if (!table_model) {
      fail(key.source(), "unknown key '" + std::string(key.str()) +
                             "' in [model] (expected type or the table of the model, [model." +
                             name + "])");
    }
    // Parameters for a model that does not run are a mistake (a copied file, a changed type),
    // never silently ignored.
    if (*table_model != m.model) {
      fail(key.source(), "[model." + std::string(key.str()) + "] does not match model.type = \"" +
                             name + "\": a scene takes the parameters of its own model only");
    }
    if (!value.is_table()) wrong_type(value, "model." + std::string(key.str()), "a table");
    read_model_table(m.model, *value.as_table(), m);
  }
}

void SceneReader::read_model_table(Model model, const toml::table& t, ModelParams& m) const {
  switch (model) {
    case Model::galaxy:
      return read_galaxy(t, m.galaxy);
    case Model::fountain:
      return read_fountain(t, m.fountain);
    case Model::smoke:
      return read_smoke(t, m.smoke);
    case Model::vortex_ring:
      return read_vortex_ring(t, m.vortex_ring);
    case Model::fireworks:
      return read_fireworks(t, m.fireworks);
    case Model::attractor:
      return read_attractor(t, m.attractor);
    case Model::shells:
      return read_shells(t, m.shells);
    case Model::snow:
      return read_snow(t, m.snow);
    case Model::points:
      return read_points(t, m.points);
  }
}

void SceneReader::get_vec3(const toml::table& t, std::string_view section, std::string_view key,
                           Vec3& out) const {
  const toml::node* n = t.get(key);
  if (!n) return;
  const std::string name = join(section, key);
  out = vec3(*n, name, scene_key_range(name));
}

void SceneReader::read_galaxy(const toml::table& t, GalaxyParams& g) const {
  constexpr std::string_view s = "model.galaxy";
  check_keys(
      t, s,
      {"arms", "radius", "thickness", "twist", "arm_spread", "core_fraction", "rotation_speed"});
  get(t, s, "arms", g.arms);
  get(t, s, "radius", g.radius);
  get(t, s, "thickness", g.thickness);
  get(t, s, "twist", g.twist);
  get(t, s, "arm_spread", g.arm_spread);
  get(t, s, "core_fraction", g.core_fraction);
  get(t, s, "rotation_speed", g.rotation_speed);
}

void SceneReader::read_fountain(const toml::table& t, FountainParams& f) const {
  constexpr std::string_view s = "model.fountain";
  check_keys(t, s, {"nozzle", "speed", "cone_angle", "gravity", "lifetime"});
  get_vec3(t, s, "nozzle", f.nozzle);
  get(t, s, "speed", f.speed);
  get(t, s, "cone_angle", f.cone_angle);
  get(t, s, "gravity", f.gravity);
  get(t, s, "lifetime", f.lifetime);
}

void SceneReader::read_smoke(const toml::table& t, SmokeParams& p) const {
  constexpr std::string_view s = "model.smoke";
  check_keys(t, s,
             {"source", "source_radius", "rise_speed", "lifetime", "turbulence", "noise_scale",
              "spread", "wind", "dark_fraction", "growth"});
  get_vec3(t, s, "source", p.source);
  get(t, s, "source_radius", p.source_radius);
  get(t, s, "rise_speed", p.rise_speed);
  get(t, s, "lifetime", p.lifetime);
  get(t, s, "turbulence", p.turbulence);
  get(t, s, "noise_scale", p.noise_scale);
  get(t, s, "spread", p.spread);
  get(t, s, "wind", p.wind);
  get(t, s, "dark_fraction", p.dark_fraction);
  get(t, s, "growth", p.growth);
  // The outward drift grows a puff's distance from the axis by up to e^(spread x age): bounded
  // over a life, it stays finite (e^30 times the disc's radius at most).
  if (!(p.spread * p.lifetime <= 30.0f)) {
    fail(t.source(), std::string(s) + ": spread x lifetime (" +
                         format_number(p.spread * p.lifetime) +
                         ") must be at most 30: a puff drifts out by e^(spread x lifetime)");
  }
}

void SceneReader::read_vortex_ring(const toml::table& t, VortexRingParams& p) const {
  constexpr std::string_view s = "model.vortex_ring";
  check_keys(t, s,
             {"origin", "ring_radius", "core_radius", "tube_radius", "core_speed", "rise_speed",
              "travel", "twirl"});
  get_vec3(t, s, "origin", p.origin);
  get(t, s, "ring_radius", p.ring_radius);
  get(t, s, "core_radius", p.core_radius);
  get(t, s, "tube_radius", p.tube_radius);
  get(t, s, "core_speed", p.core_speed);
  get(t, s, "rise_speed", p.rise_speed);
  get(t, s, "travel", p.travel);
  get(t, s, "twirl", p.twirl);
  // A tube reaching the axis would fold particles through it.
  if (!(p.tube_radius < p.ring_radius)) {
    fail(t.source(), std::string(s) + ".tube_radius (" + format_number(p.tube_radius) +
                         ") must be less than ring_radius (" + format_number(p.ring_radius) + ")");
  }
  if (!(p.travel / p.rise_speed >= 0.2f)) {
    fail(t.source(), std::string(s) + ": travel / rise_speed (the ring's period, " +
                         format_number(p.travel / p.rise_speed) + " s) must be at least 0.2 s");
  }
}

void SceneReader::read_fireworks(const toml::table& t, FireworksParams& p) const {
  constexpr std::string_view s = "model.fireworks";
  check_keys(
      t, s, {"centre", "spread", "bursts", "period", "speed", "drag", "gravity", "stars", "trail"});
  get_vec3(t, s, "centre", p.centre);
  get_vec3(t, s, "spread", p.spread);
  get(t, s, "bursts", p.bursts);
  get(t, s, "period", p.period);
  get(t, s, "speed", p.speed);
  get(t, s, "drag", p.drag);
  get(t, s, "gravity", p.gravity);
  get(t, s, "stars", p.stars);
  get(t, s, "trail", p.trail);
  if (!(p.trail < p.period)) {
    fail(t.source(), std::string(s) + ".trail (" + format_number(p.trail) +
                         ") must be less than period (" + format_number(p.period) + ")");
  }
}

void SceneReader::read_attractor(const toml::table& t, AttractorParams& p) const {
  constexpr std::string_view s = "model.attractor";
  check_keys(t, s, {"sigma", "rho", "beta", "speed", "scale", "centre"});
  get(t, s, "sigma", p.sigma);
  get(t, s, "rho", p.rho);
  get(t, s, "beta", p.beta);
  get(t, s, "speed", p.speed);
  get(t, s, "scale", p.scale);
  get_vec3(t, s, "centre", p.centre);
}

void SceneReader::read_shells(const toml::table& t, ShellsParams& p) const {
  constexpr std::string_view s = "model.shells";
  check_keys(t, s, {"shells", "inner_radius", "outer_radius", "spin", "tilt", "stripes"});
  get(t, s, "shells", p.shells);
  get(t, s, "inner_radius", p.inner_radius);
  get(t, s, "outer_radius", p.outer_radius);
  get(t, s, "spin", p.spin);
  get(t, s, "tilt", p.tilt);
  get(t, s, "stripes", p.stripes);
  if (p.outer_radius < p.inner_radius) {
    fail(t.source(), std::string(s) + ".outer_radius (" + format_number(p.outer_radius) +
                         ") must be at least inner_radius (" + format_number(p.inner_radius) + ")");
  }
}

void SceneReader::read_snow(const toml::table& t, SnowParams& p) const {
  constexpr std::string_view s = "model.snow";
  check_keys(t, s,
             {"box_min", "box_max", "fall_speed", "sway", "sway_period", "wind", "lantern",
              "lantern_radius"});
  get_vec3(t, s, "box_min", p.box_min);
  get_vec3(t, s, "box_max", p.box_max);
  get(t, s, "fall_speed", p.fall_speed);
  get(t, s, "sway", p.sway);
  get(t, s, "sway_period", p.sway_period);
  get_vec3(t, s, "wind", p.wind);
  get_vec3(t, s, "lantern", p.lantern);
  get(t, s, "lantern_radius", p.lantern_radius);
  if (!(p.box_min.x < p.box_max.x && p.box_min.y < p.box_max.y && p.box_min.z < p.box_max.z)) {
    fail(t.source(), std::string(s) + ": box_max must exceed box_min in x, y and z");
  }
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

// The motion; the file and how it is placed are load_points', after the colours.
void SceneReader::read_points(const toml::table& t, PointsParams& p) const {
  constexpr std::string_view s = "model.points";
  check_keys(t, s, {"file", "up", "fit", "alpha", "motion", "speed", "period", "amplitude"});
  const std::string motion =
      string_choice(t, s, "motion", {"still", "turntable", "breathing"}, "still");
  p.motion = motion == "turntable"   ? PointMotion::turntable
             : motion == "breathing" ? PointMotion::breathing
                                     : PointMotion::still;
  get(t, s, "speed", p.speed);
  get(t, s, "period", p.period);
  get(t, s, "amplitude", p.amplitude);
}

// Prints "file: N of M points" over itself on a terminal, for clouds that take a while.
class LoadProgress {
 public:
  explicit LoadProgress(std::string name) : name_(std::move(name)) {}
  void operator()(std::uint64_t done, std::uint64_t total) {
    if (total < (1u << 20) || !isatty(STDERR_FILENO)) return;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::fprintf(stderr, "\r%s: %llu of %llu points (%.0f%%), %.1f s", printable(name_).c_str(),
                 static_cast<unsigned long long>(done), static_cast<unsigned long long>(total),
                 100.0 * static_cast<double>(done) / static_cast<double>(total), seconds);
    if (done == total) std::fputc('\n', stderr);
    std::fflush(stderr);
  }

 private:
  std::string name_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

void SceneReader::load_points(const toml::table& root, const toml::table& t, SceneDesc& d) const {
  constexpr std::string_view s = "model.points";
  const toml::node* file = t.get("file");
  if (!file) fail(t.source(), "missing key model.points.file: the PLY file to load");
  if (!file->is_string()) wrong_type(*file, "model.points.file", "a string (a path)");
  const std::string up = string_choice(t, s, "up", {"y", "z"}, "y");
  float fit = 0.0f, alpha = 1.0f;
  get(t, s, "fit", fit);
  get(t, s, "alpha", alpha);

  // Relative to the scene file.
  const std::filesystem::path named = file->as_string()->get();
  const std::filesystem::path path =
      named.is_absolute() ? named : std::filesystem::path(source_).parent_path() / named;
  d.points_path = path.string();
  PlyCloud cloud;
  try {
    LoadProgress progress(path.string());
    cloud = read_ply(path, [&](std::uint64_t done, std::uint64_t total) { progress(done, total); });
  } catch (const PlyError& e) {
    fail(file->source(), "model.points.file: " + std::string(e.what()));
  }
  std::vector<PointRecord>& points = cloud.points;

  // Up: a z-up file (most scanners and CAD) turned so its z is the scene's +y.
  if (up == "z") {
    for (PointRecord& p : points) p = {p.x, p.z, -p.y, p.rgba8};
  }
  auto bounds = [&points] {
    Vec3 lo = {points[0].x, points[0].y, points[0].z}, hi = lo;
    for (const PointRecord& p : points) {
      lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
      hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
    }
    return std::pair{lo, hi};
  };
  auto [lo, hi] = bounds();
  if (fit > 0.0f) {
    // Centred on the origin, the longest side `fit` long (a single point stays a point).
    const double cx = 0.5 * (double{lo.x} + hi.x), cy = 0.5 * (double{lo.y} + hi.y),
                 cz = 0.5 * (double{lo.z} + hi.z);
    const double side = std::max({double{hi.x} - lo.x, double{hi.y} - lo.y, double{hi.z} - lo.z});
    const double scale = side > 0.0 ? fit / side : 1.0;
    for (PointRecord& p : points) {
      p.x = static_cast<float>((p.x - cx) * scale);
      p.y = static_cast<float>((p.y - cy) * scale);
      p.z = static_cast<float>((p.z - cz) * scale);
    }
    std::tie(lo, hi) = bounds();
  }
  // The motions turn and swell the cloud about its centre: within world coordinates they stay
  // finite, as every model's positions do.
  if (std::min({lo.x, lo.y, lo.z}) < -kWorld || std::max({hi.x, hi.y, hi.z}) > kWorld) {
    fail(file->source(), "model.points.file: the cloud reaches beyond " + describe_world() +
                             " (from " + format_vec3(lo) + " to " + format_vec3(hi) +
                             "): set model.points.fit to scale it");
  }
  d.params.points.centre = {0.5f * (lo.x + hi.x), 0.5f * (lo.y + hi.y), 0.5f * (lo.z + hi.z)};

  // Colours: the file's, or colors.inner at the bottom to colors.outer at the top; then alpha.
  const float height = hi.y - lo.y;
  for (PointRecord& p : points) {
    Color c = cloud.has_color ? unpack_rgba8(p.rgba8)
                              : mix(d.params.color_inner, d.params.color_outer,
                                    height > 0.0f ? (p.y - lo.y) / height : 0.0f);
    c.a *= alpha;
    p.rgba8 = pack_rgba8(c);
  }

  // The counts default to the cloud's (the CPU's within its range); a scene's own counts
  // subsample or repeat it (core/point_cloud.hpp).
  const toml::table* particles = root["particles"].as_table();
  const auto n = static_cast<std::uint32_t>(points.size());
  if (!particles || !particles->contains("count")) d.count = n;
  if (!particles || !particles->contains("cpu_count")) d.cpu_count = std::min(n, kCpuMaxCount);
  auto shared = std::make_shared<const std::vector<PointRecord>>(std::move(points));
  d.params.points.records = shared->data();
  d.params.points.record_count = n;
  d.points = std::move(shared);
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
  get_vec3(t, s, "target", c.target);
  get(t, s, "distance", c.distance);
  if (const toml::node* n = t.get("distance"))
    check_eye_apart(*n, "camera.distance", c.distance, c.target);
  get(t, s, "yaw", c.yaw_deg);
  get(t, s, "pitch", c.pitch_deg);
  get(t, s, "fov", c.fov_deg);
  if (const toml::node* n = t.get("auto_frame")) {
    if (!n->is_boolean()) wrong_type(*n, "camera.auto_frame", "a boolean");
    d.camera_auto_frame = n->as_boolean()->get();
  }
  // Read after the pose: keyframes default to it.
  if (const toml::node* n = t.get("path")) read_camera_path(*n, d);
}

// The eye is the target plus the distance along the view: in float, a distance below the
// target's step (6e-8 of its largest coordinate) leaves the eye on the target, and the view
// direction, the view matrix and every particle's depth NaN.
void SceneReader::check_eye_apart(const toml::node& n, const std::string& name, float distance,
                                  Vec3 target) const {
  const float largest = std::max({std::fabs(target.x), std::fabs(target.y), std::fabs(target.z)});
  const float least = 1e-5f * largest;
  if (distance < least) {
    fail(n.source(), name + " = " + format_number(distance) + " is too small for camera.target " +
                         format_vec3(target) + ": it must be at least 1e-5 of the target's " +
                         "largest coordinate (" + format_number(least) +
                         "), or the eye and the target are one point in float");
  }
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
    k.time = static_cast<float>(number(*time, s + ".time", scene_key_range("camera.path.time")));
    if (i == 0 && k.time != 0.0f) {
      fail(time->source(), s + ".time must be 0: the path starts at the first keyframe");
    }
    if (i > 0 && !(k.time > d.camera_path.back().time)) {
      fail(time->source(), s + ".time must be greater than the previous keyframe's (" +
                               format_number(d.camera_path.back().time) +
                               "): times must be "
                               "strictly increasing");
    }
    get(t, s, "yaw", k.yaw_deg);
    get(t, s, "pitch", k.pitch_deg);
    get(t, s, "distance", k.distance);
    if (const toml::node* given = t.get("distance")) {
      check_eye_apart(*given, s + ".distance", k.distance, d.camera.target);
    }
    d.camera_path.push_back(k);
  }
}

}  // namespace

SceneDesc parse_scene(std::string_view toml_text, const std::string& source_name) {
  if (const auto bad = find_unsafe_toml_character(toml_text)) {
    throw SceneError(printable(source_name + ":" + std::to_string(bad->line) + ":" +
                               std::to_string(bad->column) + ": " + bad->message));
  }
  toml::table root;
  try {
    root = toml::parse(toml_text, source_name);
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    throw SceneError(printable(source_name + ":" + std::to_string(b.line) + ":" +
                               std::to_string(b.column) +
                               ": TOML syntax error: " + std::string(e.description())));
  }
  return SceneReader(source_name).read(root);
}

SceneDesc load_scene(const std::filesystem::path& file) {
  // From its status first: a FIFO or a device would block the open or never end.
  if (const std::string problem = input_file_problem(file); !problem.empty()) {
    throw SceneError(printable(file.string() + ": cannot open scene file: " + problem));
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) throw SceneError(printable(file.string() + ": cannot open scene file"));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad())
    throw SceneError(printable(file.string() + ": cannot open scene file (read error)"));
  return parse_scene(text.str(), file.string());
}

std::vector<RunInput> scene_inputs(const SceneDesc& scene) {
  std::vector<RunInput> inputs;
  if (!scene.source_path.empty()) {
    inputs.push_back({scene.source_path, "the scene file of '" + scene.name + "'"});
  }
  if (!scene.points_path.empty()) {
    inputs.push_back({scene.points_path, "the point cloud of scene '" + scene.name + "'"});
  }
  return inputs;
}

}  // namespace particles
