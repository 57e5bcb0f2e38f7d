#pragma once
// The data after a PLY header, one element at a time: the vertices read into points, every other
// element (faces and their lists, say) skipped, in the binary or the ascii format. Internal to
// ply_reader.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "app/scene/ply_header.hpp"
#include "app/scene/ply_vertex.hpp"

namespace particles::ply {

// Vertices between progress reports.
inline constexpr std::uint64_t kProgressEvery = 1 << 18;

void skip_binary(Input& in, const Element& e);
void read_binary_vertices(Input& in, const Element& v, const VertexLayout& layout,
                          const PlyProgress& progress, std::vector<PointRecord>& out);

void skip_ascii(Input& in, const Element& e);
void read_ascii_vertices(Input& in, const Element& v, const VertexLayout& layout,
                         const PlyProgress& progress, std::vector<PointRecord>& out);

// The next non-blank line, split; false at the end of the file.
bool next_record(Input& in, std::string& line, std::vector<std::string_view>& words,
                 std::string_view what);

}  // namespace particles::ply
