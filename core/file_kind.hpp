#pragma once
// What a file that is not a regular one is, in words, for the messages that refuse it: an input
// (a scene, a bench file, a PLY) that would block or never end, an output that must not be
// written through.
#include <filesystem>
#include <string_view>

namespace particles {

// "a directory", "a symbolic link", "a character device", "a block device", "a FIFO",
// "a socket"; "not a regular file" for any other type.
constexpr std::string_view file_kind_name(std::filesystem::file_type type) {
  using std::filesystem::file_type;
  switch (type) {
    case file_type::directory:
      return "a directory";
    case file_type::symlink:
      return "a symbolic link";
    case file_type::character:
      return "a character device";
    case file_type::block:
      return "a block device";
    case file_type::fifo:
      return "a FIFO";
    case file_type::socket:
      return "a socket";
    default:
      return "not a regular file";
  }
}

}  // namespace particles
