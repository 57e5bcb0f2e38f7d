#include "app/scene/paths.hpp"

#include <algorithm>
#include <string>
#include <system_error>
#include <vector>

#include "app/scene/printable.hpp"
#include "app/scene/suggest.hpp"
#include "core/file_kind.hpp"

#ifndef PARTICLES_SOURCE_DIR
#error "PARTICLES_SOURCE_DIR must be defined by the build (app/scene/CMakeLists.txt)"
#endif

namespace particles {

std::filesystem::path executable_dir() {
  std::error_code ec;  // no throw: a missing /proc just means "look elsewhere"
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path{} : exe.parent_path();
}

std::filesystem::path find_resource(const std::filesystem::path& relative) {
  std::vector<std::filesystem::path> candidates;
  if (const auto dir = executable_dir(); !dir.empty()) {
    candidates.push_back(dir / relative);
    candidates.push_back((dir.parent_path() / relative));
  }
  candidates.push_back(std::filesystem::path(PARTICLES_SOURCE_DIR) / relative);
  std::error_code ec;
  for (const auto& c : candidates) {
    if (std::filesystem::exists(c, ec)) return c.lexically_normal();
  }
  return candidates.back().lexically_normal();
}

std::vector<std::filesystem::path> list_scene_files() {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(find_resource("scenes"), ec)) {
    if (entry.is_regular_file(ec) && entry.path().extension() == ".toml") {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end(),
            [](const auto& a, const auto& b) { return a.filename() < b.filename(); });
  return files;
}

std::filesystem::path resolve_scene_argument(const std::string& name_or_path) {
  const std::filesystem::path p(name_or_path);
  std::error_code ec;
  if (p.empty() || std::filesystem::exists(p, ec)) return p;
  if (!p.has_parent_path() && !p.has_extension()) {
    const auto named = find_resource(std::filesystem::path("scenes") / (name_or_path + ".toml"));
    if (std::filesystem::is_regular_file(named, ec)) return named;
  }
  return p;
}

std::string input_file_problem(const std::filesystem::path& file) {
  namespace fs = std::filesystem;
  if (file.empty()) return "is an empty path";
  std::error_code ec;
  const fs::file_status status = fs::status(file, ec);  // follows links: a link to a file is fine
  switch (status.type()) {
    case fs::file_type::regular:
      return "";
    case fs::file_type::not_found:
      return "not found";
    case fs::file_type::directory:
      return "is a directory";
    case fs::file_type::character:
    case fs::file_type::block:
    case fs::file_type::fifo:
    case fs::file_type::socket:
      return "is not a regular file (it is " + std::string(file_kind_name(status.type())) + ")";
    default:
      // No status at all (no search permission on a folder, a name too long): opening it will
      // say why, and cannot block on what it cannot reach.
      return ec ? "cannot be read (" + ec.message() + ")" : "is not a regular file";
  }
}

std::string scene_names_hint(const std::string& name) {
  std::vector<std::string> scenes;
  std::string names;
  for (const auto& file : list_scene_files()) {
    scenes.push_back(file.stem().string());
    names += (names.empty() ? "" : ", ") + scenes.back();
  }
  if (names.empty()) return "";
  return did_you_mean(name, scenes) + "; scenes: " + names;  // at most two edits away
}

std::string scene_file_error(const std::filesystem::path& file) {
  const std::string problem = input_file_problem(file);
  if (problem.empty()) return "";
  const std::string shown = printable(file.string());
  if (problem != "not found") return shown + " " + problem;
  // A bare name is meant as one of the shipped scenes: say which exist, and the nearest one.
  const bool bare = !file.has_parent_path() && !file.has_extension();
  return "scene file not found: " + shown + (bare ? scene_names_hint(file.string()) : "");
}

}  // namespace particles
