#include "core/composite/cpu_compositor.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/composite/tile_grid.hpp"
#include "core/parallel_for.hpp"

namespace particles {
namespace {

// Rows per band: a band is the unit of parallel blending (one tile row).
constexpr int kBandRows = kTileSize;

}  // namespace

CpuCompositor::CpuCompositor(unsigned threads)
    : threads_(threads != 0 ? threads : parallel_threads()) {}

void CpuCompositor::composite(std::span<const ParticleVertex> vertices,
                              std::span<const std::uint32_t> order, const SpriteCamera& camera,
                              const PixelF& background, CompositeImage& out,
                              std::span<const float> sprite_scales) {
  if (camera.width <= 0 || camera.height <= 0) {
    throw std::invalid_argument("CpuCompositor: viewport " + std::to_string(camera.width) + "x" +
                                std::to_string(camera.height) + " is empty");
  }
  if (!sprite_scales.empty() && sprite_scales.size() != vertices.size()) {
    throw std::invalid_argument("CpuCompositor: " + std::to_string(sprite_scales.size()) +
                                " sprite scales for " + std::to_string(vertices.size()) +
                                " vertices");
  }
  for (std::uint32_t index : order) {
    if (index >= vertices.size()) {
      throw std::invalid_argument("CpuCompositor: draw order names particle " +
                                  std::to_string(index) + " of " + std::to_string(vertices.size()));
    }
  }
  out.width = camera.width;
  out.height = camera.height;
  out.pixels.resize(static_cast<std::size_t>(out.width) * static_cast<std::size_t>(out.height));

  const std::size_t n = order.size();
  const int bands = (out.height + kBandRows - 1) / kBandRows;
  const std::size_t chunks = std::max<std::size_t>(1, std::min<std::size_t>(threads_ * 4, n));
  const std::size_t chunk_size = (n + chunks - 1) / chunks;
  sprites_.resize(n);
  bounds_.resize(n);
  band_lists_.resize(chunks);
  band_pixels_.resize(static_cast<std::size_t>(bands));
  parallel_for_each_index(threads_, chunks, [&](std::size_t c) {
    auto& lists = band_lists_[c];
    lists.resize(static_cast<std::size_t>(bands));
    for (auto& list : lists) list.clear();
    const std::size_t end = std::min(n, (c + 1) * chunk_size);
    for (std::size_t i = c * chunk_size; i < end; ++i) {
      const std::uint32_t p = order[i];
      const ProjectedSprite s =
          project_sprite(camera, vertices[p], sprite_scales.empty() ? 1.0f : sprite_scales[p]);
      sprites_[i] = s;
      const PixelBounds b = bounds_[i] = sprite_pixel_bounds(s, out.width, out.height);
      if (b.empty()) continue;
      for (int band = b.y0 / kBandRows; band <= (b.y1 - 1) / kBandRows; ++band) {
        lists[static_cast<std::size_t>(band)].push_back(static_cast<std::uint32_t>(i));
      }
    }
  });
  parallel_for_each_index(threads_, static_cast<std::size_t>(bands), [&](std::size_t band) {
    const int band_y0 = static_cast<int>(band) * kBandRows;
    const int band_y1 = std::min(out.height, band_y0 + kBandRows);
    std::vector<FrontToBack>& sums = band_pixels_[band];
    sums.assign(static_cast<std::size_t>(out.width) * static_cast<std::size_t>(band_y1 - band_y0),
                FrontToBack{});
    // Pixels still taking sprites: once none is, the band's farther sprites cannot show.
    std::size_t open = sums.size();
    for (std::size_t c = chunks; c-- > 0 && open > 0;) {
      const std::vector<std::uint32_t>& list = band_lists_[c][band];
      for (std::size_t k = list.size(); k-- > 0 && open > 0;) {
        const std::uint32_t i = list[k];
        const ProjectedSprite& s = sprites_[i];
        const PixelBounds& b = bounds_[i];
        const SpriteColor color = sprite_color(s.rgba8);
        for (int y = std::max(b.y0, band_y0); y < std::min(b.y1, band_y1); ++y) {
          FrontToBack* row = sums.data() + static_cast<std::size_t>(y - band_y0) * out.width;
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
    for (int y = band_y0; y < band_y1; ++y) {
      for (int x = 0; x < out.width; ++x) {
        out.pixels[static_cast<std::size_t>(y) * out.width + x] =
            sums[static_cast<std::size_t>(y - band_y0) * out.width + x].over(background);
      }
    }
  });
}

}  // namespace particles
