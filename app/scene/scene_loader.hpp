#pragma once
// Scene files (TOML, documented in docs/scenes.md) -> a validated SceneDesc. Every problem is
// reported as a SceneError naming the file, line and column of the offending node, so a user can
// jump straight to it from the terminal.
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/output_file.hpp"
#include "core/scene_desc.hpp"

namespace particles {

// what() is "file:line:column: message", except for a file that cannot be read at all, which
// has no position: "file: cannot open ...".
class SceneError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reads and validates a scene file; throws SceneError.
SceneDesc load_scene(const std::filesystem::path& file);

// Validates scene text; `source_name` is used in messages and stored as SceneDesc::source_path.
// Throws SceneError.
SceneDesc parse_scene(std::string_view toml_text, const std::string& source_name);

// The files a loaded scene was read from (the scene file, and a points scene's PLY file), which
// no output of the run may replace (check_output_file).
std::vector<RunInput> scene_inputs(const SceneDesc& scene);

}  // namespace particles
