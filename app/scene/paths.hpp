#pragma once
// Where the program's files are: scenes and shaders are found next to the executable (an
// installed or copied build) or, failing that, in the source tree it was built from.
#include <filesystem>
#include <string>
#include <vector>

namespace particles {

// The directory holding the running executable (from /proc/self/exe); empty if unknown.
std::filesystem::path executable_dir();

// The first existing of <exe dir>/relative, <exe dir>/../relative and
// PARTICLES_SOURCE_DIR/relative; if none exists, the last candidate, so an error message can
// still name a path.
std::filesystem::path find_resource(const std::filesystem::path& relative);

// Every scenes/*.toml of the directory find_resource("scenes") gives, sorted by file name; empty
// when there is none.
std::vector<std::filesystem::path> list_scene_files();

// What --scene and the bench's scenes take: a file that exists as given; else a bare name with
// no directory and no extension ("galaxy") as scenes/<name>.toml found by find_resource, when
// that exists; else the argument unchanged, so an error names what the user typed.
std::filesystem::path resolve_scene_argument(const std::string& name_or_path);

// Why `file` cannot be read as an input (a scene, a bench file, a point cloud), from its status
// alone, or "" for a regular file (or a link to one): "not found", "is a directory", "is not a
// regular file (it is a FIFO)", ... It never opens the file: opening a FIFO to read blocks until
// something writes to it, and a device may never end.
std::string input_file_problem(const std::filesystem::path& file);

// The message for a scene path that input_file_problem refuses, its path escaped for a terminal
// (app/scene/printable.hpp): "scene file not found: X", "X is a directory", "X is not a regular
// file (it is a FIFO)"; "" for a regular file. A bare name not found ("galaxi") is followed by
// scene_names_hint.
std::string scene_file_error(const std::filesystem::path& file);

// " (did you mean 'galaxy'?); scenes: fireworks, fountain, ..." for a scene name not found: the
// shipped scene nearest to `name` (at most two edits away), then every shipped scene's name.
std::string scene_names_hint(const std::string& name);

}  // namespace particles
