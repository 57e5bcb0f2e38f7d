// A PNG file's pixels as RGBA bytes, for the tests that judge the real binary's screenshots and
// recordings. The including file includes <stb/stb_image.h> first (with STB_IMAGE_IMPLEMENTATION
// and STB_IMAGE_STATIC in one file of the test binary): stb's implementation cannot be included
// twice in one file, so this header does not include it.
#pragma once

#include <cstddef>
#include <filesystem>
#include <vector>

namespace particles::test {

struct PngPixels {
  int width = 0, height = 0, channels = 0;  // channels: the file's own
  std::vector<unsigned char> pixels;        // RGBA, rows top first; empty when unreadable
};

inline PngPixels read_png(const std::filesystem::path& png) {
  PngPixels p;
  unsigned char* data = stbi_load(png.c_str(), &p.width, &p.height, &p.channels, 4);
  if (data != nullptr) {
    p.pixels.assign(data, data + static_cast<std::size_t>(p.width) * p.height * 4);
    stbi_image_free(data);
  }
  return p;
}

}  // namespace particles::test
