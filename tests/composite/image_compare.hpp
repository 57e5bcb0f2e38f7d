#pragma once
// Compares a GL image (read back from a RenderTarget, rows top first) with a composited one
// (rows bottom first): how many pixels are lit, and how far their channels are apart.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <ostream>
#include <string>

#include "app/gl/image.hpp"
#include "core/composite/cpu_compositor.hpp"

namespace particles::test {

struct ImageDifference {
  std::size_t pixels = 0;
  std::size_t lit = 0;          // pixels where either image differs from the background
  std::size_t lit_within3 = 0;  // of those, every channel within 3/255
  std::size_t above16 = 0;      // pixels with a channel more than 16/255 apart
  std::size_t differing8 = 0;   // pixels with a channel more than 8/255 apart
  int max = 0;                  // largest channel difference
  double lit_within3_share() const { return lit == 0 ? 1.0 : double(lit_within3) / double(lit); }
  // The bar for "the same image": 99% of lit pixels within 3/255, none above 16/255.
  bool same_image() const { return lit_within3_share() >= 0.99 && above16 == 0; }
};

inline std::ostream& operator<<(std::ostream& os, const ImageDifference& d) {
  return os << d.lit << " lit of " << d.pixels << ", " << 100.0 * d.lit_within3_share()
            << "% within 3/255, " << d.differing8 << " above 8/255, " << d.above16
            << " above 16/255, max " << d.max;
}

inline std::uint32_t gl_pixel(const gl::Image& image, int x, int y_bottom_up) {
  const std::uint8_t* p = image.pixel(x, image.height - 1 - y_bottom_up);
  return p[0] | (p[1] << 8) | (p[2] << 16) | (std::uint32_t{p[3]} << 24);
}

inline ImageDifference compare_rgba8(std::uint32_t background, int width, int height,
                                     auto&& pixel_a, auto&& pixel_b) {
  ImageDifference d;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const std::uint32_t a = pixel_a(x, y), b = pixel_b(x, y);
      int worst = 0;
      for (int c = 0; c < 4; ++c) {
        const int ca = static_cast<int>((a >> (8 * c)) & 0xffu);
        const int cb = static_cast<int>((b >> (8 * c)) & 0xffu);
        worst = std::max(worst, std::abs(ca - cb));
      }
      ++d.pixels;
      const bool lit = a != background || b != background;
      if (lit) {
        ++d.lit;
        d.lit_within3 += worst <= 3 ? 1 : 0;
      }
      d.differing8 += worst > 8 ? 1 : 0;
      d.above16 += worst > 16 ? 1 : 0;
      d.max = std::max(d.max, worst);
    }
  }
  return d;
}

inline ImageDifference compare(const gl::Image& raster, const CompositeImage& composite,
                               std::uint32_t background) {
  return compare_rgba8(
      background, composite.width, composite.height,
      [&](int x, int y) { return gl_pixel(raster, x, y); },
      [&](int x, int y) { return composite.at(x, y); });
}

inline ImageDifference compare(const gl::Image& a, const gl::Image& b, std::uint32_t background) {
  return compare_rgba8(
      background, a.width, a.height, [&](int x, int y) { return gl_pixel(a, x, y); },
      [&](int x, int y) { return gl_pixel(b, x, y); });
}

}  // namespace particles::test
