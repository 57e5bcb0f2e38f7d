#pragma once
// The compositor's screen tiles, shared by the CUDA kernels and the CPU twin: kTileSize-pixel
// squares in rows from the bottom-left corner (GL's window coordinates), numbered row by row.
// Small tiles keep the per-pixel blend chains short where particles pile up (every pixel blends
// its tile's whole list in order), at the price of more tiles per large sprite.
#include <cstdint>

#include "core/composite/sprite.hpp"
#include "core/host_device.hpp"

namespace particles {

inline constexpr int kTileSize = 8;

struct TileGrid {
  int width = 0, height = 0;  // pixels
  int columns = 0, rows = 0;  // tiles
  PARTICLES_HD int count() const { return columns * rows; }
};

PARTICLES_HD TileGrid tile_grid(int width, int height) {
  return {width, height, (width + kTileSize - 1) / kTileSize, (height + kTileSize - 1) / kTileSize};
}

// The tiles [tx0, tx1) x [ty0, ty1) that pixel bounds touch (empty bounds: an empty range).
struct TileRange {
  int tx0 = 0, ty0 = 0, tx1 = 0, ty1 = 0;
  PARTICLES_HD std::uint32_t count() const {
    return tx0 < tx1 && ty0 < ty1 ? static_cast<std::uint32_t>((tx1 - tx0) * (ty1 - ty0)) : 0u;
  }
};

PARTICLES_HD TileRange tiles_of(const PixelBounds& b) {
  if (b.empty()) return {};
  return {b.x0 / kTileSize, b.y0 / kTileSize, (b.x1 - 1) / kTileSize + 1,
          (b.y1 - 1) / kTileSize + 1};
}

}  // namespace particles
