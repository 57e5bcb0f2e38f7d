// read_ply: the header (ply_header.cpp), the vertex layout (ply_vertex.cpp), a check that the
// declared counts fit the file before anything is allocated, the elements (ply_elements.cpp),
// and a check that nothing follows them.
#include "app/scene/ply_reader.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "app/scene/ply_elements.hpp"
#include "app/scene/ply_header.hpp"
#include "app/scene/ply_input.hpp"
#include "app/scene/ply_vertex.hpp"

namespace particles {
namespace {

using ply::Element;
using ply::plural;

// The vertex element, with a count a scene can hold.
std::vector<Element>::const_iterator find_vertices(ply::Input& in, const ply::Header& header) {
  const auto vertex = std::find_if(header.elements.begin(), header.elements.end(),
                                   [](const Element& e) { return e.name == "vertex"; });
  if (vertex == header.elements.end()) in.fail("the header declares no vertex element");
  if (vertex->count == 0) in.fail("the file has no vertices (element vertex 0)");
  if (vertex->count > kPlyMaxPoints) {
    in.fail("the header declares " + plural(vertex->count, "vertex") + ": more than the " +
            std::to_string(kPlyMaxPoints) + " a scene can hold");
  }
  return vertex;
}

// Before allocating: the elements up to the vertices, at their smallest, must fit in the file
// (an ascii value takes at least two bytes, a digit and a separator, except the file's very
// last value, which may end the file without a newline: one byte more is counted as there).
void check_counts_fit(ply::Input& in, const ply::Header& header,
                      std::vector<Element>::const_iterator vertex, bool binary) {
  const std::uint64_t available = in.remaining() + (binary ? 0 : 1);
  std::uint64_t least = 0;
  for (auto e = header.elements.begin(); e <= vertex; ++e) {
    const std::uint64_t per_record =
        binary ? e->record_bytes() : 2 * std::max<std::uint64_t>(1, e->properties.size());
    if (per_record != 0 && e->count > (available - least) / per_record) {
      in.fail("the header declares " + plural(e->count, e->name) + " of at least " +
              plural(per_record, "byte") + " each, but only " + plural(in.remaining(), "byte") +
              " follow the header: the file is truncated or the count is wrong");
    }
    least += e->count * per_record;
  }
}

// Data left over means the header's counts are not the file's.
void check_nothing_follows(ply::Input& in, bool binary) {
  if (binary) {
    if (in.remaining() != 0) {
      in.fail(plural(in.remaining(), "byte") +
              " follow the last element the header declares: its counts do not match the data");
    }
    return;
  }
  std::string line;
  std::vector<std::string_view> words;
  if (ply::next_record(in, line, words, "a line after the data")) {
    in.fail("line " + std::to_string(in.line_number()) +
            ": data after the last element the header declares: its counts do not match the "
            "data");
  }
}

}  // namespace

PlyCloud read_ply(const std::filesystem::path& file, const PlyProgress& progress) {
  ply::Input in(file);
  const ply::Header header = ply::read_header(in);
  const auto vertex = find_vertices(in, header);
  const ply::VertexLayout layout = ply::vertex_layout(in, *vertex);
  const bool binary = header.format == ply::Format::binary_little_endian;
  check_counts_fit(in, header, vertex, binary);

  PlyCloud cloud;
  cloud.has_color = layout.rgba[0] >= 0;
  cloud.has_alpha = layout.rgba[3] >= 0;
  cloud.points.reserve(static_cast<std::size_t>(vertex->count));
  for (auto e = header.elements.begin(); e != header.elements.end(); ++e) {
    if (e != vertex) {
      binary ? ply::skip_binary(in, *e) : ply::skip_ascii(in, *e);
    } else if (binary) {
      ply::read_binary_vertices(in, *e, layout, progress, cloud.points);
    } else {
      ply::read_ascii_vertices(in, *e, layout, progress, cloud.points);
    }
  }
  if (progress && vertex->count % ply::kProgressEvery != 0) {
    progress(vertex->count, vertex->count);
  }
  check_nothing_follows(in, binary);
  return cloud;
}

}  // namespace particles
