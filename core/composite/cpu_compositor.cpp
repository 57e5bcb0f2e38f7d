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
                              std::uint32_t background, CompositeImage& out) {
  if (camera.width <= 0 || camera.height <= 0) {
    throw std::invalid_argument("CpuCompositor: viewport " + std::to_string(camera.width) + "x" +
                                std::to_string(camera.height) + " is empty");
  }
  for (std::uint32_t index : order) {
    if (index >= vertices.size()) {
      throw std::invalid_argument("CpuCompositor: draw order names particle " +
                                  std::to_string(index) + " of " + std::to_string(vertices.size()));
    }
  }
  out.width = camera.width;
  out.height = camera.height;
  out.rgba8.resize(static_cast<std::size_t>(out.width) * static_cast<std::size_t>(out.height));

  const std::size_t n = order.size();
  const int bands = (out.height + kBandRows - 1) / kBandRows;
  const std::size_t chunks = std::max<std::size_t>(1, std::min<std::size_t>(threads_ * 4, n));
  const std::size_t chunk_size = (n + chunks - 1) / chunks;
  sprites_.resize(n);
  bounds_.resize(n);
  band_lists_.resize(chunks);
  parallel_for_each_index(threads_, chunks, [&](std::size_t c) {
    auto& lists = band_lists_[c];
    lists.resize(static_cast<std::size_t>(bands));
    for (auto& list : lists) list.clear();
    const std::size_t end = std::min(n, (c + 1) * chunk_size);
    for (std::size_t i = c * chunk_size; i < end; ++i) {
      const ProjectedSprite s = project_sprite(camera, vertices[order[i]]);
      sprites_[i] = s;
      const PixelBounds b = bounds_[i] = sprite_pixel_bounds(s, out.width, out.height);
      if (b.empty()) continue;
      for (int band = b.y0 / kBandRows; band <= (b.y1 - 1) / kBandRows; ++band) {
        lists[static_cast<std::size_t>(band)].push_back(static_cast<std::uint32_t>(i));
      }
    }
  });
  blends_.assign(out.rgba8.size(), PixelBlend{});
  parallel_for_each_index(threads_, static_cast<std::size_t>(bands), [&](std::size_t band) {
    const int band_y0 = static_cast<int>(band) * kBandRows;
    const int band_y1 = std::min(out.height, band_y0 + kBandRows);
    PixelBlend* band_blends = blends_.data() + static_cast<std::size_t>(band_y0) * out.width;
    // Pixels of the band not yet opaque: once none is, the farther sprites change nothing.
    std::size_t open = static_cast<std::size_t>(band_y1 - band_y0) * out.width;
    for (std::size_t c = chunks; c-- > 0 && open > 0;) {
      const auto& list = band_lists_[c][band];
      for (auto it = list.rbegin(); it != list.rend() && open > 0; ++it) {
        const ProjectedSprite& s = sprites_[*it];
        const PixelBounds& b = bounds_[*it];
        for (int y = std::max(b.y0, band_y0); y < std::min(b.y1, band_y1); ++y) {
          PixelBlend* row = band_blends + static_cast<std::size_t>(y - band_y0) * out.width;
          for (int x = b.x0; x < b.x1; ++x) {
            if (blend_opaque(row[x])) continue;
            const float w = sprite_weight(s, x, y);
            if (w < 0.0f) continue;
            blend_under(row[x], s.rgba8, s.alpha * w);
            open -= blend_opaque(row[x]) ? 1 : 0;
          }
        }
      }
    }
    const std::size_t first = static_cast<std::size_t>(band_y0) * out.width;
    const std::size_t last = static_cast<std::size_t>(band_y1) * out.width;
    for (std::size_t p = first; p < last; ++p) out.rgba8[p] = blend_resolve(blends_[p], background);
  });
}

}  // namespace particles
