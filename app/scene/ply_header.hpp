#pragma once
// What a PLY header declares: the format, and the elements with their properties and value
// types. Shared by the header's parser (ply_header.cpp) and the element readers
// (ply_elements.cpp); internal to ply_reader.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "app/scene/ply_input.hpp"

namespace particles::ply {

enum class Type { i8, u8, i16, u16, i32, u32, f32, f64 };

struct TypeName {
  std::string_view name, alias;
  Type type;
  int bytes;
};
inline constexpr std::array<TypeName, 8> kTypes = {{{"char", "int8", Type::i8, 1},
                                                    {"uchar", "uint8", Type::u8, 1},
                                                    {"short", "int16", Type::i16, 2},
                                                    {"ushort", "uint16", Type::u16, 2},
                                                    {"int", "int32", Type::i32, 4},
                                                    {"uint", "uint32", Type::u32, 4},
                                                    {"float", "float32", Type::f32, 4},
                                                    {"double", "float64", Type::f64, 8}}};

inline int bytes_of(Type t) {
  return kTypes[static_cast<int>(t)].bytes;
}
inline std::string_view name_of(Type t) {
  return kTypes[static_cast<int>(t)].name;
}

// A little-endian value of type t at p (this machine is little-endian, as the GL layout assumes).
// Inline: it runs once a value of every binary record.
inline double value_at(const unsigned char* p, Type t) {
  auto as = [p]<class T>(T) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return static_cast<double>(v);
  };
  switch (t) {
    case Type::i8:
      return as(std::int8_t{});
    case Type::u8:
      return as(std::uint8_t{});
    case Type::i16:
      return as(std::int16_t{});
    case Type::u16:
      return as(std::uint16_t{});
    case Type::i32:
      return as(std::int32_t{});
    case Type::u32:
      return as(std::uint32_t{});
    case Type::f32:
      return as(float{});
    case Type::f64:
      break;
  }
  return as(double{});
}

struct Property {
  std::string name;
  Type type = Type::f32;  // of the items, for a list
  bool list = false;
  Type count_type = Type::u8;
};

struct Element {
  std::string name;
  std::uint64_t count = 0;
  std::vector<Property> properties;
  bool has_lists() const {
    return std::any_of(properties.begin(), properties.end(), [](const auto& p) { return p.list; });
  }
  // Bytes of one binary record; for lists, the least (every list empty).
  std::uint64_t record_bytes() const {
    std::uint64_t n = 0;
    for (const Property& p : properties) n += bytes_of(p.list ? p.count_type : p.type);
    return n;
  }
};

enum class Format { ascii, binary_little_endian };

struct Header {
  Format format = Format::ascii;
  std::vector<Element> elements;
};

// Reads up to and including end_header; fails on anything it does not know.
Header read_header(Input& in);

// The words of a header line or an ascii record, split at spaces and tabs.
std::vector<std::string_view> split(std::string_view line);

// "1 vertex", "3 vertices", "2 bytes".
std::string plural(std::uint64_t n, std::string_view what);

}  // namespace particles::ply
