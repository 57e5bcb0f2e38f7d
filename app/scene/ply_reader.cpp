#include "app/scene/ply_reader.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

#include "app/scene/paths.hpp"
#include "app/scene/printable.hpp"
#include "core/color.hpp"

namespace particles {
namespace {

constexpr std::size_t kMaxHeaderBytes = 1 << 16;
constexpr std::size_t kMaxLineBytes = 1 << 16;     // an ascii record
constexpr std::uint64_t kProgressEvery = 1 << 18;  // vertices

enum class Type { i8, u8, i16, u16, i32, u32, f32, f64 };

struct TypeName {
  std::string_view name, alias;
  Type type;
  int bytes;
};
constexpr std::array<TypeName, 8> kTypes = {{{"char", "int8", Type::i8, 1},
                                             {"uchar", "uint8", Type::u8, 1},
                                             {"short", "int16", Type::i16, 2},
                                             {"ushort", "uint16", Type::u16, 2},
                                             {"int", "int32", Type::i32, 4},
                                             {"uint", "uint32", Type::u32, 4},
                                             {"float", "float32", Type::f32, 4},
                                             {"double", "float64", Type::f64, 8}}};

const TypeName* find_type(std::string_view name) {
  for (const TypeName& t : kTypes) {
    if (t.name == name || t.alias == name) return &t;
  }
  return nullptr;
}
int bytes_of(Type t) {
  return kTypes[static_cast<int>(t)].bytes;
}
std::string_view name_of(Type t) {
  return kTypes[static_cast<int>(t)].name;
}
bool is_integer(Type t) {
  return t != Type::f32 && t != Type::f64;
}

// A little-endian value of type t at p (this machine is little-endian, as the GL layout assumes).
double value_at(const unsigned char* p, Type t) {
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

std::vector<std::string_view> split(std::string_view line) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) words.push_back(line.substr(start, i - start));
  }
  return words;
}

std::string plural(std::uint64_t n, std::string_view what) {
  if (n == 1) return "1 " + std::string(what);
  return std::to_string(n) + " " + (what == "vertex" ? "vertices" : std::string(what) + "s");
}

// The file, read through a buffer; `fail` prefixes every message with its name.
class Input {
 public:
  explicit Input(const std::filesystem::path& file) : name_(file.string()) {
    // From its status, before opening: opening a FIFO to read blocks until something writes.
    if (const std::string problem = input_file_problem(file); !problem.empty()) {
      fail("cannot open point cloud file: " + problem);
    }
    std::error_code ec;
    file_.reset(std::fopen(file.c_str(), "rb"));
    if (!file_) fail("cannot open point cloud file");
    size_ = std::filesystem::file_size(file, ec);
    if (ec) fail("cannot read the size of the point cloud file");
    buffer_.resize(1 << 20);
  }

  // Names and words from the file are quoted in messages: a NUL in a property name would cut
  // what() short, an escape sequence would reach the terminal.
  [[noreturn]] void fail(const std::string& message) const {
    throw PlyError(printable(name_ + ": " + message));
  }

  std::uint64_t size() const { return size_; }
  std::uint64_t offset() const { return start_ + pos_; }
  std::uint64_t remaining() const { return size_ > offset() ? size_ - offset() : 0; }
  std::uint64_t line_number() const { return lines_; }

  // False when the file ends before n bytes.
  bool read(void* out, std::size_t n) {
    auto* dst = static_cast<unsigned char*>(out);
    while (n > 0) {
      if (pos_ == end_ && !fill()) return false;
      const std::size_t take = std::min(n, end_ - pos_);
      std::memcpy(dst, buffer_.data() + pos_, take);
      pos_ += take;
      dst += take;
      n -= take;
    }
    return true;
  }

  bool skip(std::uint64_t n) {
    while (n > 0) {
      if (pos_ == end_ && !fill()) return false;
      const auto take = static_cast<std::size_t>(std::min<std::uint64_t>(n, end_ - pos_));
      pos_ += take;
      n -= take;
    }
    return true;
  }

  // The next line without its "\n" or "\r\n"; false at the end of the file. `what` names the
  // line in the message when it is too long.
  bool line(std::string& out, std::string_view what) {
    out.clear();
    bool any = false;
    for (;;) {
      if (pos_ == end_ && !fill()) break;
      any = true;
      const char* begin = buffer_.data() + pos_;
      const auto* nl = static_cast<const char*>(std::memchr(begin, '\n', end_ - pos_));
      const std::size_t take = nl ? static_cast<std::size_t>(nl - begin) : end_ - pos_;
      if (out.size() + take > kMaxLineBytes) {
        fail(std::string(what) + " (line " + std::to_string(lines_ + 1) + ") is longer than " +
             std::to_string(kMaxLineBytes) + " bytes: not a PLY record");
      }
      out.append(begin, take);
      pos_ += take;
      if (nl) {
        ++pos_;
        break;
      }
    }
    if (!any) return false;
    ++lines_;
    if (!out.empty() && out.back() == '\r') out.pop_back();
    return true;
  }

 private:
  bool fill() {
    start_ += end_;
    pos_ = end_ = 0;
    end_ = std::fread(buffer_.data(), 1, buffer_.size(), file_.get());
    if (end_ == 0 && std::ferror(file_.get())) fail("read error");
    return end_ > 0;
  }

  struct Closer {
    void operator()(std::FILE* f) const noexcept { std::fclose(f); }
  };
  std::string name_;
  std::unique_ptr<std::FILE, Closer> file_;
  std::uint64_t size_ = 0;
  std::vector<char> buffer_;
  std::size_t pos_ = 0, end_ = 0;
  std::uint64_t start_ = 0;  // file offset of buffer_[0]
  std::uint64_t lines_ = 0;
};

struct Header {
  Format format = Format::ascii;
  std::vector<Element> elements;
};

Header read_header(Input& in) {
  std::string line;
  if (!in.line(line, "the first line") || line != "ply") {
    in.fail("not a PLY file: it does not start with the line \"ply\"");
  }
  Header h;
  bool have_format = false;
  for (;;) {
    if (in.offset() > kMaxHeaderBytes) {
      in.fail("the header is longer than " + std::to_string(kMaxHeaderBytes) +
              " bytes without end_header: not a PLY file");
    }
    if (!in.line(line, "a header line")) in.fail("the header has no end_header line (truncated?)");
    const std::string at = "header line " + std::to_string(in.line_number()) + ": ";
    const std::vector<std::string_view> w = split(line);
    if (w.empty()) continue;
    if (w[0] == "comment" || w[0] == "obj_info") continue;
    if (w[0] == "end_header") break;
    if (w[0] == "format") {
      if (w.size() != 3) in.fail(at + "expected \"format <ascii|binary_little_endian> 1.0\"");
      if (w[1] == "ascii") {
        h.format = Format::ascii;
      } else if (w[1] == "binary_little_endian") {
        h.format = Format::binary_little_endian;
      } else if (w[1] == "binary_big_endian") {
        in.fail(at +
                "format binary_big_endian is not supported: save the file as "
                "binary_little_endian or ascii");
      } else {
        in.fail(at + "unknown format '" + std::string(w[1]) +
                "' (expected ascii or binary_little_endian)");
      }
      if (w[2] != "1.0") in.fail(at + "unsupported PLY version " + std::string(w[2]));
      have_format = true;
    } else if (w[0] == "element") {
      if (w.size() != 3) in.fail(at + "expected \"element <name> <count>\"");
      Element e;
      e.name = w[1];
      const auto [end, ec] = std::from_chars(w[2].data(), w[2].data() + w[2].size(), e.count);
      if (ec != std::errc{} || end != w[2].data() + w[2].size()) {
        in.fail(at + "element " + e.name + ": bad count '" + std::string(w[2]) + "'");
      }
      for (const Element& other : h.elements) {
        if (other.name == e.name) in.fail(at + "a second element " + e.name);
      }
      h.elements.push_back(std::move(e));
    } else if (w[0] == "property") {
      if (h.elements.empty()) in.fail(at + "a property before any element");
      Element& e = h.elements.back();
      Property p;
      const TypeName* type = nullptr;
      if (w.size() == 5 && w[1] == "list") {
        const TypeName* count = find_type(w[2]);
        type = find_type(w[3]);
        if (!count || !is_integer(count->type)) {
          in.fail(at + "a list's count type must be an integer type, got '" + std::string(w[2]) +
                  "'");
        }
        p.list = true;
        p.count_type = count->type;
        p.name = w[4];
        if (!type) in.fail(at + "unknown type '" + std::string(w[3]) + "'");
      } else if (w.size() == 3) {
        type = find_type(w[1]);
        p.name = w[2];
        if (!type) in.fail(at + "unknown type '" + std::string(w[1]) + "'");
      } else {
        in.fail(at + "expected \"property <type> <name>\" or \"property list <count type> " +
                "<item type> <name>\"");
      }
      p.type = type->type;
      for (const Property& other : e.properties) {
        if (other.name == p.name) in.fail(at + "a second property " + p.name + " in " + e.name);
      }
      e.properties.push_back(std::move(p));
    } else {
      in.fail(at + "unknown keyword '" + std::string(w[0]) + "'");
    }
  }
  if (!have_format) in.fail("the header has no format line");
  return h;
}

// Where the vertex record's fields are, and what colour it has.
struct VertexLayout {
  std::array<int, 3> xyz{};  // property indices
  std::array<int, 4> rgba{-1, -1, -1, -1};
  std::vector<std::uint64_t> offsets;  // binary: byte offset of each property in the record
  std::uint64_t bytes = 0;
};

VertexLayout vertex_layout(const Input& in, const Element& v) {
  VertexLayout layout;
  auto find = [&](std::string_view name) {
    for (std::size_t i = 0; i < v.properties.size(); ++i) {
      if (v.properties[i].name == name) return static_cast<int>(i);
    }
    return -1;
  };
  auto have = [&] {
    std::string list;
    for (const Property& p : v.properties) list += (list.empty() ? "" : ", ") + p.name;
    return list.empty() ? std::string("none") : list;
  };
  for (const Property& p : v.properties) {
    if (p.list) {
      in.fail("vertex property '" + p.name + "' is a list: lists are supported only in elements " +
              "other than vertex");
    }
  }
  const char* axes[3] = {"x", "y", "z"};
  for (int a = 0; a < 3; ++a) {
    layout.xyz[a] = find(axes[a]);
    if (layout.xyz[a] < 0) {
      in.fail(std::string("the vertex element has no '") + axes[a] +
              "' property (it has: " + have() + ")");
    }
    const Type t = v.properties[layout.xyz[a]].type;
    if (t != Type::f32 && t != Type::f64) {
      in.fail(std::string("vertex property '") + axes[a] + "' is " + std::string(name_of(t)) +
              ": expected float or double");
    }
  }
  const char* channels[4] = {"red", "green", "blue", "alpha"};
  int found = 0;
  for (int c = 0; c < 4; ++c) {
    layout.rgba[c] = find(channels[c]);
    if (layout.rgba[c] < 0) continue;
    found += c < 3 ? 1 : 0;
    const Type t = v.properties[layout.rgba[c]].type;
    if (t != Type::u8 && t != Type::u16 && t != Type::f32 && t != Type::f64) {
      in.fail(std::string("vertex property '") + channels[c] + "' is " + std::string(name_of(t)) +
              ": expected uchar, ushort, float or double");
    }
  }
  if (found != 0 && found != 3) {
    in.fail("the vertex element has some of red, green, blue but not all three (it has: " + have() +
            ")");
  }
  if (found == 0 && layout.rgba[3] >= 0) {
    in.fail("the vertex element has alpha but no red, green, blue");
  }
  for (const Property& p : v.properties) {
    layout.offsets.push_back(layout.bytes);
    layout.bytes += bytes_of(p.type);
  }
  return layout;
}

// A colour channel of type t as a byte; false for NaN.
bool channel_byte(double value, Type t, std::uint32_t& out) {
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

[[noreturn]] void ended_in(const Input& in, const Element& e, std::uint64_t done) {
  in.fail("the file ends after " + std::to_string(done) + " of the " + plural(e.count, e.name) +
          " its header declares (truncated, or the count is wrong)");
}

// --- binary ---------------------------------------------------------------------------------

void skip_binary(Input& in, const Element& e) {
  if (!e.has_lists()) {
    const std::uint64_t bytes = e.record_bytes();
    if (bytes != 0 && e.count > in.remaining() / bytes) {
      ended_in(in, e, in.remaining() / bytes);
    }
    in.skip(e.count * bytes);
    return;
  }
  unsigned char value[8];
  for (std::uint64_t r = 0; r < e.count; ++r) {
    for (const Property& p : e.properties) {
      if (!p.list) {
        if (!in.skip(bytes_of(p.type))) ended_in(in, e, r);
        continue;
      }
      if (!in.read(value, bytes_of(p.count_type))) ended_in(in, e, r);
      const double n = value_at(value, p.count_type);
      if (n < 0)
        in.fail(e.name + " " + std::to_string(r) + ": list " + p.name + " has a negative length");
      const auto bytes = static_cast<std::uint64_t>(n) * bytes_of(p.type);
      if (bytes > in.remaining() || !in.skip(bytes)) ended_in(in, e, r);
    }
  }
}

void read_binary_vertices(Input& in, const Element& v, const VertexLayout& layout,
                          const PlyProgress& progress, std::vector<PointRecord>& out) {
  constexpr std::uint64_t kChunk = 1 << 16;  // records per read
  std::vector<unsigned char> chunk(
      static_cast<std::size_t>(std::min(v.count, kChunk) * layout.bytes));
  std::uint64_t next_report = kProgressEvery;
  for (std::uint64_t first = 0; first < v.count; first += kChunk) {
    const std::uint64_t n = std::min(kChunk, v.count - first);
    if (!in.read(chunk.data(), static_cast<std::size_t>(n * layout.bytes))) {
      ended_in(in, v, first);  // the size check said otherwise: the file shrank while read
    }
    for (std::uint64_t r = 0; r < n; ++r) {
      const unsigned char* record = chunk.data() + r * layout.bytes;
      out.push_back(make_point(in, v, layout, first + r, [&](int p) {
        return value_at(record + layout.offsets[p], v.properties[p].type);
      }));
    }
    if (progress && first + n >= next_report) {
      progress(first + n, v.count);
      next_report += kProgressEvery;
    }
  }
}

// --- ascii ----------------------------------------------------------------------------------

// The next non-blank line, split; false at the end of the file.
bool next_record(Input& in, std::string& line, std::vector<std::string_view>& words,
                 std::string_view what) {
  while (in.line(line, what)) {
    words = split(line);
    if (!words.empty()) return true;
  }
  return false;
}

void skip_ascii(Input& in, const Element& e) {
  std::string line;
  std::vector<std::string_view> words;
  for (std::uint64_t r = 0; r < e.count; ++r) {
    if (!next_record(in, line, words, e.name)) ended_in(in, e, r);
  }
}

void read_ascii_vertices(Input& in, const Element& v, const VertexLayout& layout,
                         const PlyProgress& progress, std::vector<PointRecord>& out) {
  std::string line;
  std::vector<std::string_view> words;
  std::vector<double> values(v.properties.size());
  for (std::uint64_t r = 0; r < v.count; ++r) {
    if (!next_record(in, line, words, "a vertex")) ended_in(in, v, r);
    const std::string at =
        "line " + std::to_string(in.line_number()) + ": vertex " + std::to_string(r);
    if (words.size() != values.size()) {
      in.fail(at + " has " + plural(words.size(), "value") + ", expected " +
              std::to_string(values.size()));
    }
    for (std::size_t i = 0; i < words.size(); ++i) {
      const std::string_view word = words[i];
      const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), values[i]);
      if (ec == std::errc::result_out_of_range) {
        in.fail(at + ": " + v.properties[i].name + " = " + std::string(word) + " is out of range");
      }
      if (ec != std::errc{} || end != word.data() + word.size()) {
        in.fail(at + ": '" + std::string(word) + "' is not a number (property " +
                v.properties[i].name + ")");
      }
    }
    out.push_back(make_point(in, v, layout, r, [&](int p) { return values[p]; }));
    if (progress && (r + 1) % kProgressEvery == 0) progress(r + 1, v.count);
  }
}

}  // namespace

PlyCloud read_ply(const std::filesystem::path& file, const PlyProgress& progress) {
  Input in(file);
  const Header header = read_header(in);
  const auto vertex = std::find_if(header.elements.begin(), header.elements.end(),
                                   [](const Element& e) { return e.name == "vertex"; });
  if (vertex == header.elements.end()) in.fail("the header declares no vertex element");
  if (vertex->count == 0) in.fail("the file has no vertices (element vertex 0)");
  if (vertex->count > kPlyMaxPoints) {
    in.fail("the header declares " + plural(vertex->count, "vertex") + ": more than the " +
            std::to_string(kPlyMaxPoints) + " a scene can hold");
  }
  const VertexLayout layout = vertex_layout(in, *vertex);
  const bool binary = header.format == Format::binary_little_endian;

  // Before allocating: the elements up to the vertices, at their smallest, must fit in the file
  // (an ascii value takes at least two bytes, a digit and a separator, except the file's very
  // last value, which may end the file without a newline: one byte more is counted as there).
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

  PlyCloud cloud;
  cloud.has_color = layout.rgba[0] >= 0;
  cloud.has_alpha = layout.rgba[3] >= 0;
  cloud.points.reserve(static_cast<std::size_t>(vertex->count));
  for (auto e = header.elements.begin(); e != header.elements.end(); ++e) {
    if (e != vertex) {
      binary ? skip_binary(in, *e) : skip_ascii(in, *e);
    } else if (binary) {
      read_binary_vertices(in, *e, layout, progress, cloud.points);
    } else {
      read_ascii_vertices(in, *e, layout, progress, cloud.points);
    }
  }
  if (progress && vertex->count % kProgressEvery != 0) progress(vertex->count, vertex->count);

  // Data left over means the header's counts are not the file's.
  if (binary) {
    if (in.remaining() != 0) {
      in.fail(plural(in.remaining(), "byte") +
              " follow the last element the header declares: its counts do not match the data");
    }
  } else {
    std::string line;
    std::vector<std::string_view> words;
    if (next_record(in, line, words, "a line after the data")) {
      in.fail("line " + std::to_string(in.line_number()) +
              ": data after the last element the header declares: its counts do not match the "
              "data");
    }
  }
  return cloud;
}

}  // namespace particles
