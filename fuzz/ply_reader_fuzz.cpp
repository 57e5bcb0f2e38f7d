// libFuzzer target: bytes as a PLY file through read_ply, the point-cloud loader (read_ply reads
// a path, so each input is written to a file of this process first). Every input must either
// load or be refused with a PlyError; another exception, a crash, a sanitizer report or a hang
// is a finding. So is a cloud the reader accepts that breaks its promises: between one point and
// the scene's most, finite coordinates, the progress reaching the declared count exactly once
// and never going back, and no colour without a colour property.
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "app/scene/ply_reader.hpp"

namespace {

void require(bool condition) {
  if (!condition) std::abort();  // libFuzzer keeps the input that got here
}

const std::filesystem::path& input_file() {
  static const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("fuzz_ply_" + std::to_string(::getpid()) + ".ply");
  return path;
}

void write_input(const std::uint8_t* data, std::size_t size) {
  std::FILE* f = std::fopen(input_file().c_str(), "wb");
  require(f != nullptr);
  require(size == 0 || std::fwrite(data, 1, size, f) == size);
  require(std::fclose(f) == 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  write_input(data, size);
  std::uint64_t last_done = 0, declared = 0;
  int ends = 0;
  const auto progress = [&](std::uint64_t done, std::uint64_t total) {
    require(done >= last_done && done <= total);
    require(declared == 0 || total == declared);
    last_done = done;
    declared = total;
    ends += done == total ? 1 : 0;
  };
  try {
    const particles::PlyCloud cloud = particles::read_ply(input_file(), progress);
    require(!cloud.points.empty() && cloud.points.size() <= particles::kPlyMaxPoints);
    require(cloud.points.size() == declared && ends == 1);
    require(cloud.has_color || !cloud.has_alpha);
    for (const particles::PointRecord& p : cloud.points) {
      require(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z));
      require(cloud.has_color || p.rgba8 == 0);
    }
  } catch (const particles::PlyError&) {
    // Refused with a message: what the loader is for.
  }
  return 0;
}
