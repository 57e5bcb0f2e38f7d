#include "app/scene/printable.hpp"

#include <cstdint>

namespace particles {
namespace {

void escape(std::string& out, unsigned char byte) {
  constexpr char kHex[] = "0123456789abcdef";
  out += "\\x";
  out += kHex[byte >> 4];
  out += kHex[byte & 0xf];
}

// The length of the well-formed UTF-8 sequence of two bytes or more at text[i] and its code
// point, or 0 when there is none (a stray continuation byte, a truncated or overlong sequence).
std::size_t utf8_sequence(std::string_view text, std::size_t i, std::uint32_t& code) {
  const auto lead = static_cast<unsigned char>(text[i]);
  std::size_t length = 0;
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2, code = lead & 0x1fu;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3, code = lead & 0x0fu;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4, code = lead & 0x07u;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    const auto next = static_cast<unsigned char>(text[i + k]);
    if ((next & 0xc0) != 0x80) return 0;
    code = code << 6 | (next & 0x3fu);
  }
  const std::uint32_t least = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000;
  if (code < least || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return 0;
  return length;
}

}  // namespace

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x80) {
      if (byte < 0x20 || byte == 0x7f) {
        escape(out, byte);
      } else {
        out += text[i];
      }
      ++i;
      continue;
    }
    std::uint32_t code = 0;
    const std::size_t length = utf8_sequence(text, i, code);
    if (length == 0) {
      escape(out, byte);
      ++i;
      continue;
    }
    for (std::size_t k = 0; k < length; ++k) {
      if (code <= 0x9f) {  // C1
        escape(out, static_cast<unsigned char>(text[i + k]));
      } else {
        out += text[i + k];
      }
    }
    i += length;
  }
  return out;
}

}  // namespace particles
