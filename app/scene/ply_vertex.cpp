// The vertex element's layout, checked from the header before a record is read: a file the
// reader cannot map to particles fails here, naming what it has.
#include "app/scene/ply_vertex.hpp"

namespace particles::ply {
namespace {

int find_property(const Element& v, std::string_view name) {
  for (std::size_t i = 0; i < v.properties.size(); ++i) {
    if (v.properties[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

// "x, y, z, red": what a message offers when a property is missing.
std::string property_names(const Element& v) {
  std::string list;
  for (const Property& p : v.properties) list += (list.empty() ? "" : ", ") + p.name;
  return list.empty() ? std::string("none") : list;
}

void find_position(const Input& in, const Element& v, VertexLayout& layout) {
  const char* axes[3] = {"x", "y", "z"};
  for (int a = 0; a < 3; ++a) {
    layout.xyz[a] = find_property(v, axes[a]);
    if (layout.xyz[a] < 0) {
      in.fail(std::string("the vertex element has no '") + axes[a] +
              "' property (it has: " + property_names(v) + ")");
    }
    const Type t = v.properties[layout.xyz[a]].type;
    if (t != Type::f32 && t != Type::f64) {
      in.fail(std::string("vertex property '") + axes[a] + "' is " + std::string(name_of(t)) +
              ": expected float or double");
    }
  }
}

// No colour, or red, green and blue (alpha optional with them).
void find_colour(const Input& in, const Element& v, VertexLayout& layout) {
  const char* channels[4] = {"red", "green", "blue", "alpha"};
  int found = 0;
  for (int c = 0; c < 4; ++c) {
    layout.rgba[c] = find_property(v, channels[c]);
    if (layout.rgba[c] < 0) continue;
    found += c < 3 ? 1 : 0;
    const Type t = v.properties[layout.rgba[c]].type;
    if (t != Type::u8 && t != Type::u16 && t != Type::f32 && t != Type::f64) {
      in.fail(std::string("vertex property '") + channels[c] + "' is " + std::string(name_of(t)) +
              ": expected uchar, ushort, float or double");
    }
  }
  if (found != 0 && found != 3) {
    in.fail("the vertex element has some of red, green, blue but not all three (it has: " +
            property_names(v) + ")");
  }
  if (found == 0 && layout.rgba[3] >= 0) {
    in.fail("the vertex element has alpha but no red, green, blue");
  }
}

}  // namespace

VertexLayout vertex_layout(const Input& in, const Element& v) {
  VertexLayout layout;
  for (const Property& p : v.properties) {
    if (p.list) {
      in.fail("vertex property '" + p.name + "' is a list: lists are supported only in elements " +
              "other than vertex");
    }
  }
  find_position(in, v, layout);
  find_colour(in, v, layout);
  for (const Property& p : v.properties) {
    layout.offsets.push_back(layout.bytes);
    layout.bytes += bytes_of(p.type);
  }
  return layout;
}

}  // namespace particles::ply
