#pragma once
// A CPU-side RGBA8 image, as read back from a RenderTarget, and PNG output for screenshots.
#include <cstdint>
#include <filesystem>
#include <vector>

#include "core/output_file.hpp"

namespace particles::gl {

// Rows top first (as image files store them, unlike GL), 4 bytes per pixel, no padding.
struct Image {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgba;

  const std::uint8_t* pixel(int x, int y) const {
    return rgba.data() + (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                          static_cast<std::size_t>(x)) *
                             4;
  }
};

// What a PNG keeps of the image: all four channels, or the colour alone (a recording's frames:
// a video has no alpha, and the file is about a quarter smaller).
enum class PngChannels { rgba, rgb };

// Writes `image` as a PNG through write_file_atomically (core/output_file.hpp), replacing an
// earlier file of that name only when `overwrite` allows; throws std::runtime_error naming the
// path on failure.
void write_png(const std::filesystem::path& path, const Image& image,
               Overwrite overwrite = Overwrite::replace, PngChannels channels = PngChannels::rgba);

}  // namespace particles::gl
