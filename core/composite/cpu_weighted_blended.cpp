#include "core/composite/cpu_weighted_blended.hpp"

#include <algorithm>

#include "core/parallel_for.hpp"

namespace particles {

void CpuWeightedBlended::composite(std::span<const ParticleVertex> vertices,
                                   std::span<const std::uint32_t> order, const SpriteCamera& camera,
                                   const PixelF& background, CompositeImage& out,
                                   std::span<const float> sprite_scales) {
  project("CpuWeightedBlended", vertices, order, camera, sprite_scales);
  const float nearest = bands_.depth_near;
  const float inverse_span = inverse_depth_span(nearest, bands_.depth_far);
  band_pixels_.resize(static_cast<std::size_t>(bands_.bands));
  blend_bands(threads_, bands_, out, [&](std::size_t band, BandRows rows) {
    std::vector<WeightedBlended>& sums = band_pixels_[band];
    sums.assign(rows.pixels(out.width), WeightedBlended{});
    for (const auto& chunk_lists : bands_.lists) {
      for (const std::uint32_t i : chunk_lists[band]) {
        const ProjectedSprite& s = bands_.sprites[i];
        const PixelBounds& b = bands_.bounds[i];
        const SpriteColor color = sprite_color(s.rgba8);
        const float z = normalized_depth(bands_.depths[i], nearest, inverse_span);
        for (int y = std::max(b.y0, rows.y0); y < std::min(b.y1, rows.y1); ++y) {
          WeightedBlended* row = sums.data() + rows.local(out.width, 0, y);
          for (int x = b.x0; x < b.x1; ++x) {
            const float w = sprite_weight(s, x, y);
            if (w < 0.0f) continue;
            const float a = s.alpha * w;
            row[x].take(color, a, weighted_blended_weight(a, z));
          }
        }
      }
    }
    write_band(sums, rows, background, out);
  });
}

}  // namespace particles
