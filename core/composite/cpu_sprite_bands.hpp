#pragma once
// The CPU compositors' two passes (cpu_compositor, cpu_weighted_blended, cpu_stochastic): first
// the sprites projected once (core/composite/sprite.hpp), each with its view depth, and listed by
// band of rows; then the bands blended in parallel, each compositor blending a band its own way.
// The lists keep the draw positions in order, and chunks of draw positions are contiguous, so a
// band meets its sprites in the same order whatever the thread count: the images agree bit for
// bit. The exact compositor walks a band's lists backwards (nearest first); the sort-free ones
// take them in any order.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/composite/composite_image.hpp"
#include "core/composite/pixel.hpp"
#include "core/composite/sprite.hpp"
#include "core/composite/tile_grid.hpp"
#include "core/parallel_for.hpp"
#include "core/particle.hpp"

namespace particles {

// Rows per band, the unit of parallel blending (one tile row, as in the exact compositor).
inline constexpr int kSpriteBandRows = kTileSize;

struct SpriteBands {
  int width = 0, height = 0;
  int bands = 0;
  std::vector<ProjectedSprite> sprites;  // by draw position
  std::vector<PixelBounds> bounds;       // the pixels each may touch, by draw position
  std::vector<float> depths;             // view depth, by draw position
  // The view depths of the visible sprites: near > far where none is visible.
  float depth_near = 0.0f, depth_far = 0.0f;
  // Per chunk of draw positions, per band: the draw positions that reach the band, in order.
  std::vector<std::vector<std::vector<std::uint32_t>>> lists;
};

// Checks the inputs (an empty viewport, sprite scales that do not match the vertices, an order
// naming a missing particle: std::invalid_argument, the message starting with `who`), then fills
// `out` on up to `threads` threads.
void project_into_bands(std::string_view who, unsigned threads,
                        std::span<const ParticleVertex> vertices,
                        std::span<const std::uint32_t> order, const SpriteCamera& camera,
                        std::span<const float> sprite_scales, SpriteBands& out);

// What every CPU compositor holds: its thread count and its sprites projected into bands, kept
// between frames so that a warm frame allocates nothing; and its two passes over them.
class BandCompositor {
 public:
  unsigned threads() const { return threads_; }

 protected:
  // threads: 0 takes every core.
  explicit BandCompositor(unsigned threads)
      : threads_(threads != 0 ? threads : parallel_threads()) {}

  // The first pass: project_into_bands into bands_, `who` naming the compositor in errors.
  void project(std::string_view who, std::span<const ParticleVertex> vertices,
               std::span<const std::uint32_t> order, const SpriteCamera& camera,
               std::span<const float> sprite_scales) {
    project_into_bands(who, threads_, vertices, order, camera, sprite_scales, bands_);
  }

  unsigned threads_;
  SpriteBands bands_;
};

// The rows of one band, [y0, y1): the last band of an image stops at its top row.
struct BandRows {
  int y0 = 0, y1 = 0;
  std::size_t pixels(int width) const {
    return static_cast<std::size_t>(width) * static_cast<std::size_t>(y1 - y0);
  }
  // The index of pixel (x, y) of the band in a buffer of the band's pixels alone.
  std::size_t local(int width, int x, int y) const {
    return static_cast<std::size_t>(y - y0) * static_cast<std::size_t>(width) +
           static_cast<std::size_t>(x);
  }
};

// Sizes `out` to the bands' viewport, then runs blend(band, rows) for every band on up to
// `threads` threads. Each band writes its own rows of `out`, so the bands need no lock.
template <class Blend>
void blend_bands(unsigned threads, const SpriteBands& bands, CompositeImage& out,
                 const Blend& blend) {
  out.width = bands.width;
  out.height = bands.height;
  out.pixels.resize(static_cast<std::size_t>(out.width) * static_cast<std::size_t>(out.height));
  parallel_for_each_index(threads, static_cast<std::size_t>(bands.bands), [&](std::size_t band) {
    const int y0 = static_cast<int>(band) * kSpriteBandRows;
    blend(band, BandRows{y0, std::min(bands.height, y0 + kSpriteBandRows)});
  });
}

// Writes a band's per-pixel sums (anything with over(background)) into its rows of `out`.
template <class Sum>
void write_band(const std::vector<Sum>& sums, BandRows rows, const PixelF& background,
                CompositeImage& out) {
  for (int y = rows.y0; y < rows.y1; ++y) {
    for (int x = 0; x < out.width; ++x) {
      out.pixels[static_cast<std::size_t>(y) * out.width + x] =
          sums[rows.local(out.width, x, y)].over(background);
    }
  }
}

}  // namespace particles
