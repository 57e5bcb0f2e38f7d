#pragma once
// The image core/composite/sprite.hpp says GL draws, computed the plain way: every sprite of a
// draw, nearest first, into each pixel it covers (core/composite/front_to_back.hpp), then over the
// background. No tiles, no threads and no early stop at kTransmittanceFloor (that stop is the
// compositors' choice, tested with them; here it would only blur what the header itself says).
// tests/composite/sprite_agreement_test.cpp holds GL's float image against it.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <glm/gtc/type_ptr.hpp>
#include <glm/vec2.hpp>
#include <limits>
#include <ostream>
#include <span>
#include <vector>

#include "app/gl/particle_renderer.hpp"
#include "core/composite/front_to_back.hpp"
#include "core/composite/pixel.hpp"
#include "core/composite/sprite.hpp"
#include "core/particle.hpp"

namespace particles::test {

// What particle.vert is given for `draw`, as the header takes it.
inline SpriteCamera sprite_camera(const gl::DrawParams& draw, glm::vec2 point_size_range) {
  SpriteCamera cam;
  const float* view = glm::value_ptr(draw.camera.view);
  const float* projection = glm::value_ptr(draw.camera.projection);
  std::copy(view, view + 16, cam.view);
  std::copy(projection, projection + 16, cam.projection);
  cam.width = draw.viewport.x;
  cam.height = draw.viewport.y;
  cam.sprite_size = draw.sprite_size;
  cam.point_size_min = point_size_range.x;
  cam.point_size_max = point_size_range.y;
  return cam;
}

// vertices[order[0]] drawn first (farthest); `sprite_scales` empty or one per vertex. Rows bottom
// first, as RenderTarget::read_float_pixels gives GL's.
inline std::vector<PixelF> header_image(std::span<const ParticleVertex> vertices,
                                        std::span<const std::uint32_t> order,
                                        const SpriteCamera& cam, const PixelF& background,
                                        std::span<const float> sprite_scales = {}) {
  const auto width = static_cast<std::size_t>(cam.width);
  std::vector<FrontToBack> taken(width * static_cast<std::size_t>(cam.height));
  for (std::size_t i = order.size(); i-- > 0;) {  // last drawn is nearest
    const std::uint32_t index = order[i];
    const float scale = sprite_scales.empty() ? 1.0f : sprite_scales[index];
    const ProjectedSprite s = project_sprite(cam, vertices[index], scale);
    const PixelBounds b = sprite_pixel_bounds(s, cam.width, cam.height);
    for (int y = b.y0; y < b.y1; ++y) {
      for (int x = b.x0; x < b.x1; ++x) {
        const float weight = sprite_weight(s, x, y);
        if (weight < 0.0f) continue;  // particle.frag discards it
        taken[static_cast<std::size_t>(y) * width + static_cast<std::size_t>(x)].take(
            sprite_color(s.rgba8), s.alpha * weight);
      }
    }
  }
  std::vector<PixelF> image(taken.size());
  std::transform(taken.begin(), taken.end(), image.begin(),
                 [&](const FrontToBack& f) { return f.over(background); });
  return image;
}

inline float largest_channel_difference(const PixelF& a, const PixelF& b) {
  const float d = std::max(std::max(std::abs(a.r - b.r), std::abs(a.g - b.g)),
                           std::max(std::abs(a.b - b.b), std::abs(a.a - b.a)));
  return d == d ? d : std::numeric_limits<float>::infinity();  // a NaN on either side is as far
                                                               // apart as can be
}

struct FloatDifference {
  std::size_t pixels = 0;
  std::size_t lit = 0;  // pixels where either image is not exactly the background
  float max = 0.0f;     // largest channel difference
};

inline std::ostream& operator<<(std::ostream& os, const FloatDifference& d) {
  return os << d.lit << " lit of " << d.pixels << ", largest channel difference " << d.max;
}

inline FloatDifference compare(std::span<const PixelF> a, std::span<const PixelF> b,
                               const PixelF& background) {
  FloatDifference d;
  d.pixels = a.size();
  const auto is_background = [&](const PixelF& p) {
    return p.r == background.r && p.g == background.g && p.b == background.b && p.a == background.a;
  };
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    d.lit += is_background(a[i]) && is_background(b[i]) ? 0 : 1;
    d.max = std::max(d.max, largest_channel_difference(a[i], b[i]));
  }
  if (a.size() != b.size()) d.max = std::numeric_limits<float>::infinity();
  return d;
}

// Pixels with a channel more than `threshold` apart.
inline std::size_t pixels_apart(std::span<const PixelF> a, std::span<const PixelF> b,
                                float threshold) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    n += largest_channel_difference(a[i], b[i]) > threshold ? 1 : 0;
  }
  return n;
}

}  // namespace particles::test
