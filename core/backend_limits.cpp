#include "core/backend_limits.hpp"

#include <stdexcept>

namespace particles {

void check_backend_count(std::string_view backend, std::uint32_t count, std::string_view what) {
  std::uint32_t limit = kMaxCount;
  std::string text(kMaxCountText);
  for (const BackendLimits& b : kBackendLimits) {
    if (b.backend == backend) {
      limit = b.max_count;
      text = b.max_count_text;
    }
  }
  if (count <= limit) return;
  throw std::runtime_error(std::string(what) + ": " + std::to_string(count) +
                           " particles are more than the " + std::string(backend) +
                           " backend takes (at most " + std::to_string(limit) + ", " + text + ")");
}

std::string backend_limits_help() {
  std::string help = "Particle counts each backend takes (--count, bench and soak --counts):\n";
  for (const BackendLimits& b : kBackendLimits) {
    help += "  " + std::string(b.backend) + std::string(6 - b.backend.size(), ' ') + "1 to " +
            std::to_string(b.max_count) + " (" + std::string(b.max_count_text) + ")\n";
  }
  return help;
}

}  // namespace particles
