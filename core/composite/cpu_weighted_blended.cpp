#include "core/composite/cpu_weighted_blended.hpp"

#include <algorithm>

#include "core/composite/front_to_back.hpp"
#include "core/parallel_for.hpp"

namespace particles {

CpuWeightedBlended::CpuWeightedBlended(unsigned threads)
    : threads_(threads != 0 ? threads : parallel_threads()) {}

void CpuWeightedBlended::composite(std::span<const ParticleVertex> vertices,
                                   std::span<const std::uint32_t> order, const SpriteCamera& camera,
                                   const PixelF& background, CompositeImage& out,
                                   std::span<const float> sprite_scales) {
  project_into_bands("CpuWeightedBlended", threads_, vertices, order, camera, sprite_scales,
                     bands_);
  out.width = camera.width;
  out.height = camera.height;
  out.pixels.resize(static_cast<std::size_t>(out.width) * static_cast<std::size_t>(out.height));
  const float nearest = bands_.depth_near;
  const float inverse_span = inverse_depth_span(nearest, bands_.depth_far);
  band_pixels_.resize(static_cast<std::size_t>(bands_.bands));
  parallel_for_each_index(threads_, band_pixels_.size(), [&](std::size_t band) {
    const int band_y0 = static_cast<int>(band) * kSpriteBandRows;
    const int band_y1 = std::min(out.height, band_y0 + kSpriteBandRows);
    std::vector<WeightedBlended>& sums = band_pixels_[band];
    sums.assign(static_cast<std::size_t>(out.width) * static_cast<std::size_t>(band_y1 - band_y0),
                WeightedBlended{});
    for (const auto& chunk_lists : bands_.lists) {
      for (const std::uint32_t i : chunk_lists[band]) {
        const ProjectedSprite& s = bands_.sprites[i];
        const PixelBounds& b = bands_.bounds[i];
        const SpriteColor color = sprite_color(s.rgba8);
        const float z = normalized_depth(bands_.depths[i], nearest, inverse_span);
        for (int y = std::max(b.y0, band_y0); y < std::min(b.y1, band_y1); ++y) {
          WeightedBlended* row = sums.data() + static_cast<std::size_t>(y - band_y0) * out.width;
          for (int x = b.x0; x < b.x1; ++x) {
            const float w = sprite_weight(s, x, y);
            if (w < 0.0f) continue;
            const float a = s.alpha * w;
            row[x].take(color, a, weighted_blended_weight(a, z));
          }
        }
      }
    }
    for (int y = band_y0; y < band_y1; ++y) {
      for (int x = 0; x < out.width; ++x) {
        out.pixels[static_cast<std::size_t>(y) * out.width + x] =
            sums[static_cast<std::size_t>(y - band_y0) * out.width + x].over(background);
      }
    }
  });
}

}  // namespace particles
