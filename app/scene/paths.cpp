#include "app/scene/paths.hpp"

#include <system_error>
#include <vector>

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

}  // namespace particles
