#include "app/main/lit_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "app/gl/particle_buffers.hpp"
#include "app/gl/particle_renderer.hpp"
#include "app/gl/render_target.hpp"
#include "app/main/scene_draw.hpp"
#include "core/camera.hpp"

namespace particles {
namespace {

// The largest of the colour channels' differences; NaN when any is (fmax would drop it).
float largest_difference(const PixelF& p, const PixelF& background) {
  const float r = std::fabs(p.r - background.r);
  const float g = std::fabs(p.g - background.g);
  const float b = std::fabs(p.b - background.b);
  if (std::isnan(r) || std::isnan(g) || std::isnan(b)) return std::nanf("");
  return std::fmax(std::fmax(r, g), b);
}

}  // namespace

LitCheck check_lit_frame(std::span<const PixelF> image, PixelF background,
                         std::span<const ParticleVertex> vertices,
                         std::span<const float> sprite_scales, const SpriteCamera& camera) {
  LitCheck check;
  for (const PixelF& p : image) {
    // A NaN pixel is no background either: "not within the threshold" rather than "above it".
    if (!(largest_difference(p, background) <= kLitThreshold)) {
      check.lit = true;
      return check;
    }
  }
  // All background: is that what the particles make? Count the ones that must show, and keep
  // the one that would show most, to name it.
  std::size_t example = 0;
  float example_change = 0.0f;
  int example_x = 0, example_y = 0;
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    const float scale = i < sprite_scales.size() ? sprite_scales[i] : 1.0f;
    const ProjectedSprite s = project_sprite(camera, vertices[i], scale);
    if (!s.visible) continue;
    ++check.in_view;
    const int px = std::min(std::max(static_cast<int>(std::floor(s.x)), 0), camera.width - 1);
    const int py = std::min(std::max(static_cast<int>(std::floor(s.y)), 0), camera.height - 1);
    const float weight = sprite_weight(s, px, py);
    if (!(weight > 0.0f)) continue;
    // The sprite alone "over" the background: the pixel moves by alpha * (colour - background).
    const float alpha = s.alpha * weight;
    const PixelF colour = pixel_of_rgba8(vertices[i].rgba8);
    const float change = alpha * largest_difference({colour.r, colour.g, colour.b, 1.0f},
                                                    {background.r, background.g, background.b});
    if (!(change >= kMustLight)) continue;
    if (check.must_light++ == 0 || change > example_change) {
      example = i;
      example_change = change;
      example_x = px;
      example_y = py;
    }
  }
  if (check.must_light == 0) return check;
  check.ok = false;
  char text[320];
  std::snprintf(text, sizeof text,
                "no lit pixel: the image is all background although %llu of %zu particles should "
                "light it (%llu in view; particle %zu alone would change pixel (%d, %d) by "
                "%.0f/255)",
                static_cast<unsigned long long>(check.must_light), vertices.size(),
                static_cast<unsigned long long>(check.in_view), example, example_x,
                camera.height - 1 - example_y, static_cast<double>(example_change) * 255.0);
  check.problem = text;
  return check;
}

LitCheck check_drawn_frame_lit(const SceneDesc& scene, const CameraMatrices& camera,
                               const gl::ParticleRenderer& renderer, gl::RenderTarget& target,
                               const gl::ParticleBuffers& buffers,
                               std::span<const ParticleVertex> vertices) {
  const CompositeRequest request = composite_request(
      scene_draw_params(scene, buffers.count(), camera, target.size()), renderer, target);
  const std::vector<PixelF> image = target.read_float_pixels();
  const std::vector<float> scales = buffers.read_sprite_scales();
  return check_lit_frame(image, request.background, vertices, scales, request.camera);
}

}  // namespace particles
