// The entry points: a scene file's bytes checked and parsed (toml++), then read section by
// section by SceneReader (scene_reader.hpp). Reading the file itself guards against what would
// hang or mislead before a line of TOML is seen.
#include "app/scene/scene_loader.hpp"

#include <fstream>
#include <sstream>

#include "app/scene/paths.hpp"
#include "app/scene/printable.hpp"
#include "app/scene/scene_reader.hpp"
#include "app/scene/toml_guard.hpp"

namespace particles {

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
  return scene_reading::SceneReader(source_name).read(root);
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
