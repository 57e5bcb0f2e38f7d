#include "app/gl/image.hpp"

#include <stdexcept>
#include <string>

#include "core/output_file.hpp"

// The one place stb_image_write's implementation is compiled. Static linkage keeps it private
// to this file, so no other library (Debian's libstb also exports it) can clash with it.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#include <stb/stb_image_write.h>

namespace particles::gl {

void write_png(const std::filesystem::path& path, const Image& image, Overwrite overwrite,
               PngChannels channels) {
  const std::size_t expected =
      static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) * 4;
  if (image.width <= 0 || image.height <= 0 || image.rgba.size() != expected) {
    throw std::runtime_error("write_png " + path.string() + ": image is empty or malformed");
  }
  // Encoded in memory, then written whole (core/output_file.hpp): never a truncated PNG.
  std::string png;
  const auto append = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data),
                                               static_cast<std::size_t>(size));
  };
  const std::uint8_t* pixels = image.rgba.data();
  std::vector<std::uint8_t> rgb;
  if (channels == PngChannels::rgb) {
    rgb.resize(expected / 4 * 3);
    for (std::size_t i = 0, o = 0; i < expected; i += 4, o += 3) {
      rgb[o] = image.rgba[i];
      rgb[o + 1] = image.rgba[i + 1];
      rgb[o + 2] = image.rgba[i + 2];
    }
    pixels = rgb.data();
  }
  const int n = channels == PngChannels::rgb ? 3 : 4;
  if (stbi_write_png_to_func(append, &png, image.width, image.height, n, pixels, image.width * n) ==
      0) {
    throw std::runtime_error("write_png: cannot encode " + path.string());
  }
  write_file_atomically(path, png, overwrite);
}

}  // namespace particles::gl
