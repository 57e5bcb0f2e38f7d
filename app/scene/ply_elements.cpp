// The element readers. A file that ends early fails naming how many records of the element it
// had; the binary vertices are read a chunk of records at a time, not value by value.
#include "app/scene/ply_elements.hpp"

#include <charconv>
#include <system_error>

namespace particles::ply {
namespace {

[[noreturn]] void ended_in(const Input& in, const Element& e, std::uint64_t done) {
  in.fail("the file ends after " + std::to_string(done) + " of the " + plural(e.count, e.name) +
          " its header declares (truncated, or the count is wrong)");
}

// One ascii record's words as numbers into `values`; `at` names the record in messages.
void parse_ascii_values(const Input& in, const Element& v, const std::string& at,
                        const std::vector<std::string_view>& words, std::vector<double>& values) {
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
}

}  // namespace

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
    parse_ascii_values(in, v, at, words, values);
    out.push_back(make_point(in, v, layout, r, [&](int p) { return values[p]; }));
    if (progress && (r + 1) % kProgressEvery == 0) progress(r + 1, v.count);
  }
}

}  // namespace particles::ply
