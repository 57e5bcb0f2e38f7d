#pragma once
// Compares two float images of one frame (rows bottom first, as a RenderTarget's
// read_float_pixels and the compositors leave them): how many pixels are lit, and how far their
// channels are apart, in 8-bit steps (1/255).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <ostream>
#include <vector>

#include "core/composite/pixel.hpp"

namespace particles::test {

struct ImageDifference {
  std::size_t pixels = 0;
  std::size_t lit = 0;          // pixels where either image differs from the background
  std::size_t lit_within2 = 0;  // of those, every channel within 2/255
  std::size_t above4 = 0;       // pixels with a channel more than 4/255 apart
  std::size_t identical = 0;    // pixels equal bit for bit
  float max = 0.0f;             // largest channel difference, in 1/255
  double lit_within2_share() const { return lit == 0 ? 1.0 : double(lit_within2) / double(lit); }
  // The bar for "the same picture": 99.9% of lit pixels within 2/255, none above 4/255.
  bool same_image() const { return lit_within2_share() >= 0.999 && above4 == 0; }
};

inline std::ostream& operator<<(std::ostream& os, const ImageDifference& d) {
  return os << d.lit << " lit of " << d.pixels << ", " << 100.0 * d.lit_within2_share()
            << "% within 2/255, " << d.above4 << " above 4/255, max " << d.max << "/255, "
            << d.identical << " identical";
}

inline ImageDifference compare(const std::vector<PixelF>& a, const std::vector<PixelF>& b,
                               const PixelF& background) {
  ImageDifference d;
  const std::uint32_t bg = rgba8_of(background);
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    const PixelF& p = a[i];
    const PixelF& q = b[i];
    const float worst = 255.0f * std::max({std::fabs(p.r - q.r), std::fabs(p.g - q.g),
                                           std::fabs(p.b - q.b), std::fabs(p.a - q.a)});
    ++d.pixels;
    if (rgba8_of(p) != bg || rgba8_of(q) != bg) {
      ++d.lit;
      d.lit_within2 += worst <= 2.0f ? 1 : 0;
    }
    d.above4 += worst > 4.0f ? 1 : 0;
    d.identical += p == q ? 1 : 0;
    d.max = std::max(d.max, worst);
  }
  // Images of different sizes differ everywhere the shorter one has no pixel.
  d.pixels += std::max(a.size(), b.size()) - std::min(a.size(), b.size());
  d.above4 += std::max(a.size(), b.size()) - std::min(a.size(), b.size());
  return d;
}

}  // namespace particles::test
