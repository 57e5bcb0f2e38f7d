#pragma once
// What a file that is not a regular one is, in words, for the messages that refuse it: an input
// (a scene, a bench file, a PLY) that would block or never end, an output that must not be
// written through.
#include <filesystem>
#include <string_view>

#include "core/enum_names.hpp"

namespace particles {

inline constexpr EnumNames<std::filesystem::file_type, 6> kFileKindNames = {
    {{std::filesystem::file_type::directory, "a directory"},
     {std::filesystem::file_type::symlink, "a symbolic link"},
     {std::filesystem::file_type::character, "a character device"},
     {std::filesystem::file_type::block, "a block device"},
     {std::filesystem::file_type::fifo, "a FIFO"},
     {std::filesystem::file_type::socket, "a socket"}}};

// "a directory", "a FIFO", ... (the table above); "not a regular file" for any other type.
constexpr std::string_view file_kind_name(std::filesystem::file_type type) {
  return name_of(kFileKindNames, type, "not a regular file");
}

}  // namespace particles
