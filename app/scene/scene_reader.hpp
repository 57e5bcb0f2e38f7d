#pragma once
// The reader behind parse_scene (scene_loader.hpp), shared by the files that read a scene's
// sections: scene_values.cpp (one value: its type, range and message), scene_sections.cpp (the
// top-level tables), model_readers.cpp ([model.<name>]) and points_loader.cpp (a points scene's
// PLY file). Internal to app/scene.
#include "app/scene/toml_header_only.hpp"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>

#include "app/scene/scene_loader.hpp"
#include "app/scene/scene_ranges.hpp"
#include "core/scene_desc.hpp"

namespace particles::scene_reading {

// "section.key", or "key" at the top level: the name messages and scene_key_range use.
std::string join(std::string_view section, std::string_view key);
// 10, not 10.000000; 134217728, not 1.34218e+08.
std::string format_number(double v);
std::string format_vec3(Vec3 v);

// Reads one document; owns the source name so every message can be prefixed with a position.
class SceneReader {
 public:
  explicit SceneReader(const std::string& source) : source_(source) {}

  SceneDesc read(const toml::table& root) const;

 private:
  // --- one value (scene_values.cpp) ---
  [[noreturn]] void fail(const toml::source_region& where, const std::string& message) const;
  [[noreturn]] void wrong_type(const toml::node& n, const std::string& name,
                               std::string_view expected) const;

  void check_keys(const toml::table& t, std::string_view section,
                  std::initializer_list<std::string_view> allowed) const;
  const toml::table* table(const toml::table& parent, std::string_view section,
                           std::string_view key) const;

  double number(const toml::node& n, const std::string& name, Range range) const;
  std::int64_t integer(const toml::node& n, const std::string& name, Range range) const;
  Color color(const toml::node& n, const std::string& name) const;
  Vec3 vec3(const toml::node& n, const std::string& name, Range range) const;

  // Optional keys: leave `out` (the default) alone when the key is absent. The range is the
  // table's (scene_ranges.hpp), looked up by the key's full name. Floats take any number,
  // integer fields an integer.
  template <class T>
  void get(const toml::table& t, std::string_view section, std::string_view key, T& out) const {
    const toml::node* n = t.get(key);
    if (!n) return;
    const std::string name = join(section, key);
    if constexpr (std::is_floating_point_v<T>) {
      out = static_cast<T>(number(*n, name, scene_key_range(name)));
    } else {
      out = static_cast<T>(integer(*n, name, scene_key_range(name)));
    }
  }
  void get_color(const toml::table& t, std::string_view section, std::string_view key,
                 Color& out) const;
  void get_vec3(const toml::table& t, std::string_view section, std::string_view key,
                Vec3& out) const;
  std::string string_choice(const toml::table& t, std::string_view section, std::string_view key,
                            std::initializer_list<std::string_view> choices,
                            std::string fallback) const;

  // --- the top-level tables (scene_sections.cpp) ---
  void read_particles(const toml::table& t, SceneDesc& d) const;
  void read_model(const toml::table& root, const toml::table* t, ModelParams& m) const;
  void read_colors(const toml::table& t, SceneDesc& d) const;
  void read_camera(const toml::table& t, SceneDesc& d) const;
  void read_camera_path(const toml::node& n, SceneDesc& d) const;
  void check_eye_apart(const toml::node& n, const std::string& name, float distance,
                       Vec3 target) const;

  // --- [model.<name>] (model_readers.cpp) ---
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
  // A relation between two of a model's keys that does not hold: "section.key (a) must be
  // <relation> other (b)".
  [[noreturn]] void fail_order(const toml::table& t, std::string_view section, std::string_view key,
                               float value, std::string_view relation, std::string_view other,
                               float other_value) const;

  // --- a points scene's cloud (points_loader.cpp) ---
  void load_points(const toml::table& root, const toml::table& t, SceneDesc& d) const;

  std::string source_;
};

}  // namespace particles::scene_reading
