#pragma once
// The vertex element mapped to particles: which properties are x, y, z and the colour channels
// (checked once, from the header), and one PointRecord built from a record's values. Internal to
// ply_reader; make_point is inline because it runs once a vertex.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "app/scene/ply_header.hpp"

namespace particles::ply {

// Where the vertex record's fields are, and what colour it has.
struct VertexLayout {
  std::array<int, 3> xyz{};  // property indices
  std::array<int, 4> rgba{-1, -1, -1, -1};
  std::vector<std::uint64_t> offsets;  // binary: byte offset of each property in the record
  std::uint64_t bytes = 0;
};

// Fails unless x, y, z are float or double and the colour, if any, is red, green, blue (and
// alpha) of a type it can read.
VertexLayout vertex_layout(const Input& in, const Element& v);

// A colour channel of type t as a byte; false for NaN.
inline bool channel_byte(double value, Type t, std::uint32_t& out) {
  if (std::isnan(value)) return false;
  double unit = value;
  if (t == Type::u8) unit = value / 255.0;
  if (t == Type::u16) unit = value / 65535.0;
  unit = std::clamp(unit, 0.0, 1.0);
  out = static_cast<std::uint32_t>(unit * 255.0 + 0.5);
  return true;
}

// One vertex from its properties' values (`value(i)` gives property i's).
template <class Value>
PointRecord make_point(const Input& in, const Element& v, const VertexLayout& layout,
                       std::uint64_t index, Value&& value) {
  float xyz[3];
  for (int a = 0; a < 3; ++a) {
    xyz[a] = static_cast<float>(value(layout.xyz[a]));
    if (!std::isfinite(xyz[a])) {
      in.fail("vertex " + std::to_string(index) + ": " + v.properties[layout.xyz[a]].name + " = " +
              std::to_string(value(layout.xyz[a])) + " is not a finite float");
    }
  }
  std::uint32_t rgba8 = 0;
  if (layout.rgba[0] >= 0) {
    rgba8 = 0xff000000u;
    for (int c = 0; c < 4; ++c) {
      const int p = layout.rgba[c];
      if (p < 0) continue;
      std::uint32_t byte = 0;
      if (!channel_byte(value(p), v.properties[p].type, byte)) {
        in.fail("vertex " + std::to_string(index) + ": " + v.properties[p].name +
                " is not a number");
      }
      rgba8 = (rgba8 & ~(0xffu << (8 * c))) | (byte << (8 * c));
    }
  }
  return {xyz[0], xyz[1], xyz[2], rgba8};
}

}  // namespace particles::ply
