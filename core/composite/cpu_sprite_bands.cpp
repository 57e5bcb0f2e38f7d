#include "core/composite/cpu_sprite_bands.hpp"

#include <algorithm>
#include <cfloat>
#include <stdexcept>
#include <string>

#include "core/composite/sprite_depth.hpp"
#include "core/parallel_for.hpp"

namespace particles {

void project_into_bands(std::string_view who, unsigned threads,
                        std::span<const ParticleVertex> vertices,
                        std::span<const std::uint32_t> order, const SpriteCamera& camera,
                        std::span<const float> sprite_scales, SpriteBands& out) {
  const std::string name(who);
  if (camera.width <= 0 || camera.height <= 0) {
    throw std::invalid_argument(name + ": viewport " + std::to_string(camera.width) + "x" +
                                std::to_string(camera.height) + " is empty");
  }
  if (!sprite_scales.empty() && sprite_scales.size() != vertices.size()) {
    throw std::invalid_argument(name + ": " + std::to_string(sprite_scales.size()) +
                                " sprite scales for " + std::to_string(vertices.size()) +
                                " vertices");
  }
  for (std::uint32_t index : order) {
    if (index >= vertices.size()) {
      throw std::invalid_argument(name + ": draw order names particle " + std::to_string(index) +
                                  " of " + std::to_string(vertices.size()));
    }
  }
  out.width = camera.width;
  out.height = camera.height;
  out.bands = (out.height + kSpriteBandRows - 1) / kSpriteBandRows;

  const std::size_t n = order.size();
  const std::size_t chunks =
      std::max<std::size_t>(1, std::min<std::size_t>(std::size_t{threads} * 4, n));
  const std::size_t chunk_size = (n + chunks - 1) / chunks;
  out.sprites.resize(n);
  out.bounds.resize(n);
  out.depths.resize(n);
  out.lists.resize(chunks);
  std::vector<float> chunk_near(chunks, FLT_MAX), chunk_far(chunks, -FLT_MAX);
  parallel_for_each_index(threads, chunks, [&](std::size_t c) {
    auto& lists = out.lists[c];
    lists.resize(static_cast<std::size_t>(out.bands));
    for (auto& list : lists) list.clear();
    float nearest = FLT_MAX, farthest = -FLT_MAX;
    const std::size_t end = std::min(n, (c + 1) * chunk_size);
    for (std::size_t i = c * chunk_size; i < end; ++i) {
      const std::uint32_t p = order[i];
      const ProjectedSprite s =
          project_sprite(camera, vertices[p], sprite_scales.empty() ? 1.0f : sprite_scales[p]);
      out.sprites[i] = s;
      const float depth = out.depths[i] = sprite_view_depth(camera, vertices[p]);
      if (s.visible) {
        nearest = std::min(nearest, depth);
        farthest = std::max(farthest, depth);
      }
      const PixelBounds b = out.bounds[i] = sprite_pixel_bounds(s, out.width, out.height);
      if (b.empty()) continue;
      for (int band = b.y0 / kSpriteBandRows; band <= (b.y1 - 1) / kSpriteBandRows; ++band) {
        lists[static_cast<std::size_t>(band)].push_back(static_cast<std::uint32_t>(i));
      }
    }
    chunk_near[c] = nearest;
    chunk_far[c] = farthest;
  });
  out.depth_near = *std::min_element(chunk_near.begin(), chunk_near.end());
  out.depth_far = *std::max_element(chunk_far.begin(), chunk_far.end());
}

}  // namespace particles
