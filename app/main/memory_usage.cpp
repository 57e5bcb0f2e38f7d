#include "app/main/memory_usage.hpp"

#include <unistd.h>

#include <fstream>

namespace particles {

std::optional<std::uint64_t> host_rss_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t size_pages = 0, resident_pages = 0;
  if (!(statm >> size_pages >> resident_pages)) return std::nullopt;
  const long page = sysconf(_SC_PAGESIZE);
  if (page <= 0) return std::nullopt;
  return resident_pages * static_cast<std::uint64_t>(page);
}

}  // namespace particles
