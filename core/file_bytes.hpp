#pragma once
// A whole file's bytes: what the shaders are compiled from, and what the tests and tools read
// back of the files the program wrote. Header-only, so that the tools, which link none of the
// project's libraries, share it too.
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

namespace particles {

// The bytes of `file`; std::nullopt where it cannot be opened or a read fails part-way.
inline std::optional<std::string> file_bytes(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return bytes.str();
}

}  // namespace particles
