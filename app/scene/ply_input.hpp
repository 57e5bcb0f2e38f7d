#pragma once
// A PLY file read through a buffer: raw bytes for the binary records, lines for the header and
// the ascii records, and the file's name on every message. Internal to ply_reader; its members
// are inline because the element readers call them once a record.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "app/scene/paths.hpp"
#include "app/scene/ply_reader.hpp"
#include "app/scene/printable.hpp"

namespace particles::ply {

inline constexpr std::size_t kMaxLineBytes = 1 << 16;  // an ascii record

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

}  // namespace particles::ply
