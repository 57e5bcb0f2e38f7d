#pragma once
// PLY files (the polygon file format MeshLab, CloudCompare, Open3D and most scanners write) ->
// the points of their vertex element. Reads `format ascii 1.0` and `format binary_little_endian
// 1.0`: x, y, z as float or double, optional red, green, blue (and alpha) as uchar, ushort, float
// or double; every other property is skipped, and so are other elements (faces and their lists).
// Every problem is a PlyError naming the file and what is wrong; sizes are checked against the
// file before anything is allocated, so a huge declared count costs nothing.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <vector>

#include "core/backend_limits.hpp"
#include "core/models/model_params.hpp"

namespace particles {

// what() is "file: message".
class PlyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct PlyCloud {
  // x, y, z as the file has them; rgba8 (pack_rgba8's layout) the file's colour, opaque when it
  // has no alpha, 0 when it has no colour.
  std::vector<PointRecord> points;
  bool has_color = false;
  bool has_alpha = false;
};

// The most vertices a file may declare: a scene's largest particle count (core/backend_limits.hpp).
inline constexpr std::uint64_t kPlyMaxPoints = kMaxCount;

// Called every so often while the vertices are read, and once at the end: (read, declared).
using PlyProgress = std::function<void(std::uint64_t done, std::uint64_t total)>;

// Throws PlyError.
PlyCloud read_ply(const std::filesystem::path& file, const PlyProgress& progress = {});

}  // namespace particles
