#pragma once
// Where the program's files are: scenes and shaders are found next to the executable (an
// installed or copied build) or, failing that, in the source tree it was built from.
#include <filesystem>

namespace particles {

// The directory holding the running executable (from /proc/self/exe); empty if unknown.
std::filesystem::path executable_dir();

// The first existing of <exe dir>/relative, <exe dir>/../relative and
// PARTICLES_SOURCE_DIR/relative; if none exists, the last candidate, so an error message can
// still name a path.
std::filesystem::path find_resource(const std::filesystem::path& relative);

}  // namespace particles
