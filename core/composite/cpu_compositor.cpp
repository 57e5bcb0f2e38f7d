#include "core/composite/cpu_compositor.hpp"

#include <algorithm>

#include "core/parallel_for.hpp"

namespace particles {

void CpuCompositor::composite(std::span<const ParticleVertex> vertices,
                              std::span<const std::uint32_t> order, const SpriteCamera& camera,
                              const PixelF& background, CompositeImage& out,
                              std::span<const float> sprite_scales) {
  project("CpuCompositor", vertices, order, camera, sprite_scales);
  band_pixels_.resize(static_cast<std::size_t>(bands_.bands));
  blend_bands(threads_, bands_, out, [&](std::size_t band, BandRows rows) {
    std::vector<FrontToBack>& sums = band_pixels_[band];
    sums.assign(rows.pixels(out.width), FrontToBack{});
    // Pixels still taking sprites: once none is, the band's farther sprites cannot show.
    std::size_t open = sums.size();
    for (std::size_t c = bands_.lists.size(); c-- > 0 && open > 0;) {
      const std::vector<std::uint32_t>& list = bands_.lists[c][band];
      for (std::size_t k = list.size(); k-- > 0 && open > 0;) {
        const std::uint32_t i = list[k];
        const ProjectedSprite& s = bands_.sprites[i];
        const PixelBounds& b = bands_.bounds[i];
        const SpriteColor color = sprite_color(s.rgba8);
        for (int y = std::max(b.y0, rows.y0); y < std::min(b.y1, rows.y1); ++y) {
          FrontToBack* row = sums.data() + rows.local(out.width, 0, y);
          for (int x = b.x0; x < b.x1; ++x) {
            if (!row[x].open()) continue;
            const float w = sprite_weight(s, x, y);
            if (w < 0.0f) continue;
            row[x].take(color, s.alpha * w);
            open -= row[x].open() ? 0 : 1;
          }
        }
      }
    }
    write_band(sums, rows, background, out);
  });
}

}  // namespace particles
