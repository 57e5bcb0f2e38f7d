// The top level of a scene file and its tables other than the model's parameters: [particles],
// [model] (which model; its own table is model_readers.cpp's), [colors] and [camera] with its
// keyframes. The order of SceneReader::read is part of the format: see its comments.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>

#include "app/scene/printable.hpp"
#include "app/scene/scene_reader.hpp"
#include "core/models/model_names.hpp"

namespace particles::scene_reading {

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

}  // namespace particles::scene_reading
