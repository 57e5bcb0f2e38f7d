#include "cuda/composite/tile_compositor.hpp"

#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/composite/tile_grid.hpp"
#include "cuda/common/check.hpp"

namespace particles::cuda {
namespace {

constexpr int kProjectThreads = 256;
constexpr int kEmitThreads = 256;  // also the sprites each emit block takes
constexpr int kRangeThreads = 256;
constexpr int kTilePixels = kTileSize * kTileSize;
constexpr int kBlendThreads = 256;
// A tile whose list is longer than this (a heavy tile) is blended by kHeavySplit blocks, each
// taking a band of kBandRows rows: one block walks a list in order, so the longest list bounds the
// whole blend. Each band gets a list of its own, the tile's entries whose sprites reach its rows
// (band_count_kernel, band_scatter_kernel), so a band's block walks only those.
constexpr std::uint32_t kHeavyList = 2048;
constexpr int kHeavySplit = 4;
constexpr int kBandRows = kTileSize / kHeavySplit;
static_assert(kTileSize % kHeavySplit == 0);
// The band kernels take kBandChunk entries a block; a block's count per band fits 16 bits, so a
// thread's counts of every band travel packed in one 64-bit word.
constexpr int kBandThreads = 256;
constexpr int kBandChunk = 8 * kBandThreads;
static_assert(kHeavySplit <= 4 && kBandChunk < 65536);
// Fewest entries of a long tile list blended first, from its end (blend_kernel).
constexpr std::uint32_t kFirstWindow = 1024;

unsigned blocks_for(std::uint64_t items, int threads) {
  return static_cast<unsigned>((items + static_cast<std::uint64_t>(threads) - 1) /
                               static_cast<std::uint64_t>(threads));
}

int bits_for(std::size_t values) {  // bits that hold 0 .. values - 1
  int bits = 1;
  while ((std::size_t{1} << bits) < values) ++bits;
  return bits;
}

// The pixel bounds of a sprite kept as geometry (x, y, inv_half, alpha): the same bounds the
// projection counted its tiles from.
__device__ PixelBounds geometry_pixel_bounds(float4 g, const TileGrid& grid) {
  ProjectedSprite s;
  s.x = g.x;
  s.y = g.y;
  s.inv_half = g.z;
  s.visible = true;
  return sprite_pixel_bounds(s, grid.width, grid.height);
}

__global__ void project_kernel(const ParticleVertex* __restrict__ vertices,
                               const float* __restrict__ sprite_scales,
                               const std::uint32_t* __restrict__ order, std::uint32_t count,
                               SpriteCamera camera, float4* __restrict__ geometry,
                               std::uint32_t* __restrict__ colors,
                               std::uint64_t* __restrict__ tile_counts) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > count) return;
  if (i == count) {  // the scan's last element: its exclusive sum is the total
    tile_counts[i] = 0;
    return;
  }
  const std::uint32_t p = order[i];
  const ProjectedSprite s =
      project_sprite(camera, vertices[p], sprite_scales != nullptr ? sprite_scales[p] : 1.0f);
  const TileRange tiles = tiles_of(sprite_pixel_bounds(s, camera.width, camera.height));
  geometry[i] = make_float4(s.x, s.y, s.inv_half, s.alpha);
  colors[i] = s.rgba8;
  tile_counts[i] = tiles.count();
}

// One sprite's entries k in [k0, count) of its range, k striding by `step`.
__device__ void emit_entries(const TileRange& r, std::uint64_t at, std::uint32_t sprite, int k0,
                             int count, int step, int columns, std::uint32_t* __restrict__ tiles,
                             std::uint32_t* __restrict__ sprites) {
  const int across = r.tx1 - r.tx0;
  for (int k = k0; k < count; k += step) {
    const int tx = r.tx0 + k % across;
    const int ty = r.ty0 + k / across;
    tiles[at + k] = static_cast<std::uint32_t>(ty * columns + tx);
    sprites[at + k] = sprite;
  }
}

// Entries [offsets[first], offsets[last]) of one pass, written from entry 0 of the arrays. Each
// thread writes its own sprite's few entries; a sprite over more than kSmallSprite tiles is left
// to the whole block, so one sprite over thousands of tiles does not hold up one thread.
__global__ void emit_kernel(const float4* __restrict__ geometry,
                            const std::uint64_t* __restrict__ offsets, std::uint32_t first,
                            std::uint32_t last, TileGrid grid, std::uint32_t* __restrict__ tiles,
                            std::uint32_t* __restrict__ sprites) {
  constexpr int kSmallSprite = 8;
  __shared__ std::uint32_t large[kEmitThreads];
  __shared__ int large_count;
  if (threadIdx.x == 0) large_count = 0;
  __syncthreads();
  const std::uint64_t pass_base = offsets[first];
  const std::uint32_t sprite = first + blockIdx.x * kEmitThreads + threadIdx.x;
  TileRange range;
  std::uint64_t at = 0;
  int count = 0;
  if (sprite < last) {
    at = offsets[sprite] - pass_base;
    count = static_cast<int>(offsets[sprite + 1] - offsets[sprite]);
    if (count > 0) {
      range = tiles_of(geometry_pixel_bounds(geometry[sprite], grid));
    }
  }
  if (count > kSmallSprite) {
    large[atomicAdd(&large_count, 1)] = threadIdx.x;
  } else {
    emit_entries(range, at, sprite, 0, count, 1, grid.columns, tiles, sprites);
  }
  __shared__ TileRange shared_range;
  __shared__ std::uint64_t shared_at;
  __shared__ int shared_count;
  __syncthreads();
  for (int i = 0; i < large_count; ++i) {
    if (threadIdx.x == large[i]) {
      shared_range = range;
      shared_at = at;
      shared_count = count;
    }
    __syncthreads();
    emit_entries(shared_range, shared_at, first + blockIdx.x * kEmitThreads + large[i],
                 static_cast<int>(threadIdx.x), shared_count, kEmitThreads, grid.columns, tiles,
                 sprites);
    __syncthreads();
  }
}

// Each tile's range in the sorted entries, and the list of tiles whose lists are longer than
// kHeavyList (heavy), in no particular order: a tile starting at entry i is heavy exactly when
// entry i + kHeavyList still belongs to it.
__global__ void tile_range_kernel(const std::uint32_t* __restrict__ tiles, std::uint32_t entries,
                                  uint2* __restrict__ ranges, std::uint32_t* __restrict__ heavy,
                                  std::uint32_t* __restrict__ heavy_count) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= entries) return;
  const std::uint32_t tile = tiles[i];
  if (i == 0 || tiles[i - 1] != tile) {
    ranges[tile].x = i;
    if (entries - i > kHeavyList && tiles[i + kHeavyList] == tile) {
      heavy[atomicAdd(heavy_count, 1u)] = tile;
    }
  }
  if (i + 1 == entries || tiles[i + 1] != tile) ranges[tile].y = i + 1;
}

// Bit b: entry i's tile is heavy and its sprite's pixel rows reach the tile's band b.
__device__ unsigned band_mask(std::uint32_t i, const std::uint32_t* __restrict__ tiles,
                              const std::uint32_t* __restrict__ sprites,
                              const uint2* __restrict__ ranges, const float4* __restrict__ geometry,
                              const TileGrid& grid) {
  const std::uint32_t tile = tiles[i];
  const uint2 range = ranges[tile];
  if (range.y - range.x <= kHeavyList) return 0u;
  const PixelBounds b = geometry_pixel_bounds(geometry[sprites[i]], grid);
  const int tile_y0 = static_cast<int>(tile / static_cast<std::uint32_t>(grid.columns)) * kTileSize;
  unsigned mask = 0;
  for (int band = 0; band < kHeavySplit; ++band) {
    const int top = tile_y0 + band * kBandRows;
    if (b.y0 < top + kBandRows && b.y1 > top) mask |= 1u << band;
  }
  return mask;
}

// A band mask as one count per band, 16 bits each.
__device__ std::uint64_t band_counts(unsigned mask) {
  std::uint64_t packed = 0;
  for (int band = 0; band < kHeavySplit; ++band) {
    packed |= std::uint64_t{(mask >> band) & 1u} << (16 * band);
  }
  return packed;
}

__device__ std::uint32_t band_count(std::uint64_t packed, int band) {
  return static_cast<std::uint32_t>(packed >> (16 * band)) & 0xffffu;
}

// Each entry's band mask, and each block's entries per band: chunk_counts[band * chunks + block].
__global__ void band_count_kernel(const std::uint32_t* __restrict__ tiles,
                                  const std::uint32_t* __restrict__ sprites, std::uint32_t entries,
                                  const uint2* __restrict__ ranges,
                                  const float4* __restrict__ geometry, TileGrid grid,
                                  std::uint8_t* __restrict__ masks,
                                  std::uint32_t* __restrict__ chunk_counts, std::uint32_t chunks) {
  using Reduce = cub::BlockReduce<std::uint64_t, kBandThreads>;
  __shared__ typename Reduce::TempStorage reduce;
  const std::uint32_t first = blockIdx.x * kBandChunk + threadIdx.x;
  std::uint64_t packed = 0;
  for (std::uint32_t i = first; i < min(entries, (blockIdx.x + 1) * kBandChunk);
       i += kBandThreads) {
    const unsigned mask = band_mask(i, tiles, sprites, ranges, geometry, grid);
    masks[i] = static_cast<std::uint8_t>(mask);
    packed += band_counts(mask);
  }
  packed = Reduce(reduce).Sum(packed);
  if (threadIdx.x == 0) {
    for (int band = 0; band < kHeavySplit; ++band) {
      chunk_counts[band * chunks + blockIdx.x] = band_count(packed, band);
    }
  }
}

// The band lists, in the tiles' order: band b's entries of every heavy tile in one run of
// band_sprites, from chunk_offsets (the exclusive scan of band_count_kernel's counts), each
// tile's part of it in band_ranges[tile * kHeavySplit + b]. Stable, as the tile lists are.
__global__ void band_scatter_kernel(const std::uint32_t* __restrict__ tiles,
                                    const std::uint32_t* __restrict__ sprites,
                                    std::uint32_t entries, const uint2* __restrict__ ranges,
                                    const std::uint8_t* __restrict__ masks,
                                    const std::uint32_t* __restrict__ chunk_offsets,
                                    std::uint32_t chunks, std::uint32_t* __restrict__ band_sprites,
                                    uint2* __restrict__ band_ranges) {
  using Scan = cub::BlockScan<std::uint64_t, kBandThreads>;
  __shared__ typename Scan::TempStorage scan;
  std::uint32_t at[kHeavySplit];
  for (int band = 0; band < kHeavySplit; ++band)
    at[band] = chunk_offsets[band * chunks + blockIdx.x];
  for (int j = 0; j < kBandChunk / kBandThreads; ++j) {
    const std::uint32_t i = blockIdx.x * kBandChunk + j * kBandThreads + threadIdx.x;
    const bool listed = i < entries;
    const unsigned mask = listed ? masks[i] : 0u;
    std::uint64_t before = 0, total = 0;
    Scan(scan).ExclusiveSum(band_counts(mask), before, total);
    if (listed) {
      const std::uint32_t tile = tiles[i];
      const uint2 range = ranges[tile];
      // A heavy tile's first and last entries mark its bands' ranges, whatever their masks.
      if (mask != 0u || ((i == range.x || i + 1 == range.y) && range.y - range.x > kHeavyList)) {
        const std::uint32_t sprite = sprites[i];
        for (int band = 0; band < kHeavySplit; ++band) {
          const std::uint32_t position = at[band] + band_count(before, band);
          const std::uint32_t taken = (mask >> band) & 1u;
          if (taken != 0u) band_sprites[position] = sprite;
          if (i == range.x) band_ranges[tile * kHeavySplit + band].x = position;
          if (i + 1 == range.y) band_ranges[tile * kHeavySplit + band].y = position + taken;
        }
      }
    }
    for (int band = 0; band < kHeavySplit; ++band) at[band] += band_count(total, band);
    __syncthreads();  // the scan's storage is used again
  }
}

struct SurfaceWriter {
  cudaSurfaceObject_t surface;
  __device__ std::uint32_t read(int x, int y) const {
    return surf2Dread<std::uint32_t>(surface, x * 4, y);
  }
  __device__ void write(int x, int y, std::uint32_t v) const { surf2Dwrite(v, surface, x * 4, y); }
};
struct LinearWriter {
  std::uint32_t* pixels;
  int width;
  __device__ std::uint32_t read(int x, int y) const { return pixels[y * width + x]; }
  __device__ void write(int x, int y, std::uint32_t v) const { pixels[y * width + x] = v; }
};

// A block's share of shared memory for one batch: up to 32 entries per thread of a pixel.
constexpr int kMaxBatch = 32 * (kBlendThreads / (kTilePixels / kHeavySplit));

struct BlendBatch {
  float4 geometry[kMaxBatch];
  std::uint32_t colors[kMaxBatch];
  // The sprite's candidate pixels in the block's region: a rectangle, packed as its first pixel
  // (x, y relative to the region, 4 bits each) and its width, and where its candidates start in
  // the batch's numbering of all of them (at most kMaxBatch * kTilePixels / kHeavySplit).
  std::uint16_t rectangle[kMaxBatch];
  std::uint16_t first_candidate[kMaxBatch];
  std::uint32_t fragments[kMaxBatch * (kTilePixels / kHeavySplit)];  // premultiplied, [k][pixel]
  std::uint32_t covering[kBlendThreads];  // [k / 32][pixel]: bit k % 32, sprite k covers pixel
  bool pixel_active[kTilePixels];         // whether the pixel takes part (blend_entries)
  cub::BlockScan<int, kBlendThreads>::TempStorage scan;
};
static_assert(kMaxBatch * (kTilePixels / kHeavySplit) == 32 * kBlendThreads);
static_assert(kTileSize <= 15 && kMaxBatch * (kTilePixels / kHeavySplit) < 65536);

// A sprite's candidate pixels in a block's region (kRows rows of a tile from pixel (x0, y0)):
// the region's pixels inside its pixel bounds, packed for BlendBatch::rectangle, and their count.
template <int kRows>
__device__ int candidate_rectangle(float4 g, int x0, int y0, const TileGrid& grid,
                                   std::uint16_t& packed) {
  const PixelBounds b = geometry_pixel_bounds(g, grid);
  const int cx0 = max(b.x0, x0), cx1 = min(b.x1, x0 + kTileSize);
  const int cy0 = max(b.y0, y0), cy1 = min(b.y1, y0 + kRows);
  if (cx0 >= cx1 || cy0 >= cy1) return 0;
  packed = static_cast<std::uint16_t>((cx0 - x0) | (cy0 - y0) << 4 | (cx1 - cx0) << 8);
  return (cx1 - cx0) * (cy1 - cy0);
}

// The store and blend rules (RasterRules) as types, so that each combination compiles to its own
// arithmetic: a test of the rule inside the dependent chain of 8-bit blends costs every sprite.
template <Unorm8Store kStore, BlendProduct kProduct>
struct BlendRules {
  static constexpr Unorm8Store store = kStore;
  static constexpr BlendProduct product = kProduct;
};

// Calls launch(BlendRules<...>{}) with the combination `rules` names.
template <class Launch>
void with_blend_rules(const RasterRules& rules, const Launch& launch) {
  const bool twelve = rules.store == Unorm8Store::via_12_bit_fraction;
  const bool rounded = rules.product == BlendProduct::rounded;
  if (twelve && rounded) {
    launch(BlendRules<Unorm8Store::via_12_bit_fraction, BlendProduct::rounded>{});
  } else if (twelve) {
    launch(BlendRules<Unorm8Store::via_12_bit_fraction, BlendProduct::shifted_sum>{});
  } else if (rounded) {
    launch(BlendRules<Unorm8Store::nearest_even, BlendProduct::rounded>{});
  } else {
    launch(BlendRules<Unorm8Store::nearest_even, BlendProduct::shifted_sum>{});
  }
}

// Blends entries [begin, end) of a tile's list into each of a block's kPixels pixels' chains, a
// batch at a time, in two phases. First every thread of the block tests and shades: the batch's
// sprites' candidate pixels (the block's pixels inside each sprite's pixel bounds) are numbered
// one after another (a block scan of their counts), and each thread takes an equal run of them,
// so that the work spreads evenly whatever the sprites' sizes. A covered pixel's fragment (the
// costly float work, independent of the pixel's value) goes to shared memory with a bit per
// (sprite, pixel). Sprites are a few pixels wide in most scenes, so this tests a small part of
// what a pixel-major walk of every sprite over every pixel would, and no warp waits on the
// shading of one pixel's sprites in turn. Then one thread per pixel runs the dependent 8-bit
// blends over the fragments of its covering sprites alone, in draw order: integer arithmetic, a
// dozen instructions each. A fragment whose 8 bits are all zero (a sprite's faint edge) leaves
// every pixel as it is, so it takes no bit. The next batch's sprite indices are read during a
// batch.
//
// Two chains (kTwoChains): `low` and `high` started from different values. Every sprite's blend
// is a non-decreasing map of each 8-bit channel, so chains started from 0 and from 255 bound
// every chain in between; once they meet, the pixel no longer depends on what lay under the
// entries blended. Only the first kPixels threads' chains mean anything. `active`: whether this
// thread's pixel takes part (the same for every thread of a pixel); (x0, y0): the region's first
// pixel.
template <bool kTwoChains, int kPixels, class Rules>
__device__ void blend_entries(std::uint32_t begin, std::uint32_t end, int x0, int y0,
                              const TileGrid& grid, const std::uint32_t* __restrict__ sprites,
                              const float4* __restrict__ geometry,
                              const std::uint32_t* __restrict__ colors, Rules rules, bool active,
                              BlendBatch& batch, std::uint32_t& low, std::uint32_t& high) {
  constexpr int kLanes = kBlendThreads / kPixels;
  constexpr int kBatch = 32 * kLanes;
  constexpr int kRows = kPixels / kTileSize;
  // A thread's batch slots, consecutive so that the scan numbers the candidates in slot order.
  constexpr int kSlots = kBatch >= kBlendThreads ? kBatch / kBlendThreads : 1;
  const int pixel = static_cast<int>(threadIdx.x) % kPixels;
  const int first_slot = static_cast<int>(threadIdx.x) * kSlots;
  if (threadIdx.x < kPixels) batch.pixel_active[pixel] = active;
  batch.covering[threadIdx.x] = 0;  // each pixel's reader clears its words after that

  std::uint32_t next[kSlots];
  for (int l = 0; l < kSlots; ++l) {
    const std::uint32_t e = begin + static_cast<std::uint32_t>(first_slot + l);
    if (first_slot + l < kBatch && e < end) next[l] = sprites[e];
  }
  for (std::uint32_t base = begin; base < end; base += kBatch) {
    int counts[kSlots];
    int candidates = 0;
    for (int l = 0; l < kSlots; ++l) {
      const int slot = first_slot + l;
      counts[l] = 0;
      if (slot < kBatch && base + static_cast<std::uint32_t>(slot) < end) {
        const float4 g = geometry[next[l]];
        batch.geometry[slot] = g;
        batch.colors[slot] = colors[next[l]];
        counts[l] = candidate_rectangle<kRows>(g, x0, y0, grid, batch.rectangle[slot]);
        const std::uint32_t ahead = base + kBatch + static_cast<std::uint32_t>(slot);
        if (ahead < end) next[l] = sprites[ahead];
      }
      candidates += counts[l];
    }
    int first = 0, total = 0;
    cub::BlockScan<int, kBlendThreads>(batch.scan).ExclusiveSum(candidates, first, total);
    for (int l = 0; l < kSlots; ++l) {
      // Slots past the batch's end start at the total, after every candidate.
      if (first_slot + l < kBatch) {
        batch.first_candidate[first_slot + l] = static_cast<std::uint16_t>(first);
      }
      first += counts[l];
    }
    __syncthreads();
    // Each thread takes a run of consecutive candidates: one search for the run's first sprite,
    // then a walk through the sprites' rectangles in turn.
    const int run = (total + kBlendThreads - 1) / kBlendThreads;
    const int run_begin = static_cast<int>(threadIdx.x) * run;
    const int run_end = min(run_begin + run, total);
    if (run_begin < run_end) {
      int k = 0;  // the last slot whose candidates start at or before run_begin
      for (int step = kBatch / 2; step > 0; step /= 2) {
        if (batch.first_candidate[k + step] <= run_begin) k += step;
      }
      int next_sprite_at = k + 1 < kBatch ? batch.first_candidate[k + 1] : total;
      int r = batch.rectangle[k];
      int across = r >> 8;
      int c = run_begin - batch.first_candidate[k];
      int rx = (r & 0xf) + c % across, ry = ((r >> 4) & 0xf) + c / across;
      float4 g = batch.geometry[k];
      for (int i = run_begin;;) {
        const int at = ry * kTileSize + rx;
        if (batch.pixel_active[at]) {
          const float w = sprite_weight_at(g.x, g.y, g.z, x0 + rx, y0 + ry);
          const std::uint32_t fragment =
              w >= 0.0f ? premultiplied_fragment_unorm8(batch.colors[k], g.w * w, rules.store) : 0u;
          if (fragment != 0u) {
            batch.fragments[k * kPixels + at] = fragment;
            atomicOr(&batch.covering[(k / 32) * kPixels + at], 1u << (k % 32));
          }
        }
        if (++i == run_end) break;
        if (i < next_sprite_at) {
          if (++rx == (r & 0xf) + across) {
            rx = r & 0xf;
            ++ry;
          }
          continue;
        }
        do {  // the next sprite with candidates (empty ones share their start with it)
          ++k;
          next_sprite_at = k + 1 < kBatch ? batch.first_candidate[k + 1] : total;
        } while (next_sprite_at == i);
        r = batch.rectangle[k];
        across = r >> 8;
        rx = r & 0xf;
        ry = (r >> 4) & 0xf;
        g = batch.geometry[k];
      }
    }
    __syncthreads();
    if (threadIdx.x < kPixels) {
      for (int q = 0; q < kLanes; ++q) {
        std::uint32_t bits = batch.covering[q * kPixels + pixel];
        batch.covering[q * kPixels + pixel] = 0;
        while (bits != 0) {
          const int k = q * 32 + __ffs(bits) - 1;
          bits &= bits - 1;
          const std::uint32_t fragment = batch.fragments[k * kPixels + pixel];
          const bool apart = kTwoChains && high != low;  // chains that met stay together
          low = blend_premultiplied_unorm8(low, fragment, rules.product);
          high = apart ? blend_premultiplied_unorm8(high, fragment, rules.product) : low;
        }
      }
    }
    __syncthreads();
  }
}

// The pixels [first_pixel, first_pixel + kPixels) of one tile, the tile's list in draw order. A
// long list is blended from its end first: its last quarter (at least kFirstWindow entries) from
// the bounds 0 and 255 (blend_entries). A pixel whose bounds meet has its exact 8-bit result and
// needs nothing of the rest of the list; the pixels whose bounds did not meet (sparse ones, whose
// few sprites leave the bounds apart) are blended over the whole list from the true value under
// them (the background, or the image a pass before left), and only they test and blend in that
// pass. Over an opaque background every chain's alpha stays 255 (each blend maps 255 to 255), so
// the bounds start there. Dense regions, whose pixels saturate after some hundreds of sprites,
// cost the tile's dependent blends a quarter of its list. (Windows growing from 512 entries cost
// more: docs/notes/compositor.md, "Blend blocks for long tiles".)
template <int kPixels, class Writer, class Rules>
__device__ void blend_tile(int tile, int first_pixel, const TileGrid& grid, uint2 range,
                           const std::uint32_t* __restrict__ sprites,
                           const float4* __restrict__ geometry,
                           const std::uint32_t* __restrict__ colors, Rules rules,
                           std::uint32_t background, bool start_from_image, const Writer& out,
                           BlendBatch& batch, bool* resolved) {
  const int pixel = first_pixel + static_cast<int>(threadIdx.x) % kPixels;
  const int x0 = (tile % grid.columns) * kTileSize;  // the block's region's first pixel
  const int y0 = (tile / grid.columns) * kTileSize + first_pixel / kTileSize;
  const int px = x0 + pixel % kTileSize;
  const int py = (tile / grid.columns) * kTileSize + pixel / kTileSize;
  const bool in_image = px < grid.width && py < grid.height;
  const bool writes = in_image && threadIdx.x < kPixels;
  std::uint32_t under = background;
  if (start_from_image && writes) under = out.read(px, py);
  const std::uint32_t opaque_alpha = (under >> 24) == 255u ? 0xff000000u : 0u;
  std::uint32_t value = under;
  bool active = in_image;  // still to be blended over the whole list
  const std::uint32_t window = max(kFirstWindow, (range.y - range.x) / 4);
  if (range.y - range.x > window) {
    std::uint32_t low = opaque_alpha, high = 0xffffffffu;
    blend_entries<true, kPixels>(range.y - window, range.y, x0, y0, grid, sprites, geometry, colors,
                                 rules, in_image, batch, low, high);
    if (threadIdx.x < kPixels) {
      resolved[threadIdx.x] = !in_image || low == high;
      if (low == high) value = low;
    }
    __syncthreads();
    active = in_image && !resolved[threadIdx.x % kPixels];
  }
  if (__syncthreads_or(active)) {
    std::uint32_t whole = under, unused = 0;
    blend_entries<false, kPixels>(range.x, range.y, x0, y0, grid, sprites, geometry, colors, rules,
                                  active, batch, whole, unused);
    if (active) value = whole;
  }
  if (writes) out.write(px, py, value);
}

// The first heavy_blocks blocks share the heavy tiles, kHeavySplit blocks each, a band of its
// rows a block, sixteen threads a pixel (heavy_blocks is a bound: blocks past the heavy tiles
// found return at once); they come first so that the longest lists start first. Every other
// block blends one tile with a short list whole, four threads a pixel.
template <class Writer, class Rules>
__global__ void __launch_bounds__(kBlendThreads)
    blend_kernel(TileGrid grid, const uint2* __restrict__ ranges,
                 const std::uint32_t* __restrict__ heavy,
                 const std::uint32_t* __restrict__ heavy_count, unsigned heavy_blocks,
                 const uint2* __restrict__ band_ranges,
                 const std::uint32_t* __restrict__ band_sprites,
                 const std::uint32_t* __restrict__ sprites, const float4* __restrict__ geometry,
                 const std::uint32_t* __restrict__ colors, Rules rules, std::uint32_t background,
                 bool start_from_image, Writer out) {
  __shared__ BlendBatch batch;
  __shared__ bool resolved[kTilePixels];
  if (blockIdx.x < heavy_blocks) {
    const std::uint32_t h = blockIdx.x / kHeavySplit;
    if (h >= *heavy_count) return;
    const int tile = static_cast<int>(heavy[h]);
    constexpr int kPixels = kTilePixels / kHeavySplit;
    const int band = static_cast<int>(blockIdx.x % kHeavySplit);
    blend_tile<kPixels>(tile, band * kPixels, grid, band_ranges[tile * kHeavySplit + band],
                        band_sprites, geometry, colors, rules, background, start_from_image, out,
                        batch, resolved);
    return;
  }
  const int tile = static_cast<int>(blockIdx.x - heavy_blocks);
  const uint2 range = ranges[tile];
  if (range.y - range.x > kHeavyList) return;
  blend_tile<kTilePixels>(tile, 0, grid, range, sprites, geometry, colors, rules, background,
                          start_from_image, out, batch, resolved);
}

}  // namespace

void TileCompositor::reserve_sprites(std::uint32_t count) {
  if (sprite_geometry_.size() >= count && sprite_offsets_.size() >= count + 1u) return;
  sprite_geometry_.resize(count);
  sprite_colors_.resize(count);
  sprite_offsets_.resize(count + 1u);
  std::size_t bytes = 0;
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, sprite_offsets_.data(),
                                           sprite_offsets_.data(),
                                           static_cast<std::int64_t>(count) + 1));
  scan_workspace_.resize(std::max<std::size_t>(bytes, 1));
}

void TileCompositor::reserve_entries(std::size_t entries) {
  if (entries_capacity() >= entries && sorter_) return;
  // Headroom so that a frame that needs a few more entries than the last allocates nothing.
  const std::size_t capacity = entries + entries / 4 + 4096;
  sorter_.reset();
  entry_tiles_ = DeviceBuffer<std::uint32_t>();
  entry_sprites_ = DeviceBuffer<std::uint32_t>();
  entry_tiles_.resize(capacity);
  entry_sprites_.resize(capacity);
  sorter_ = make_sorter(binning_, capacity);
  band_masks_ = DeviceBuffer<std::uint8_t>();
  band_sprites_ = DeviceBuffer<std::uint32_t>();
  band_masks_.resize(capacity);
  band_sprites_.resize(capacity * kHeavySplit);  // every sprite in every band, at most
  const std::size_t chunk_counts = std::size_t{blocks_for(capacity, kBandChunk)} * kHeavySplit;
  band_chunk_offsets_.resize(chunk_counts);
  std::size_t bytes = 0;
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, band_chunk_offsets_.data(),
                                           band_chunk_offsets_.data(),
                                           static_cast<std::int64_t>(chunk_counts)));
  band_scan_workspace_.resize(std::max<std::size_t>(bytes, 1));
}

void TileCompositor::reserve_tiles(std::size_t tiles) {
  if (tile_ranges_.size() < tiles) {
    tile_ranges_.resize(tiles);
    heavy_tiles_.resize(tiles);
    band_ranges_.resize(tiles * kHeavySplit);
  }
  if (heavy_count_.empty()) heavy_count_.resize(1);
}

void TileCompositor::composite(cudaStream_t stream, const ParticleVertex* vertices,
                               const float* sprite_scales, const std::uint32_t* order,
                               std::uint32_t count, const SpriteCamera& camera,
                               std::uint32_t background, const CompositeOutput& output) {
  if (camera.width <= 0 || camera.height <= 0) {
    throw std::invalid_argument("TileCompositor: viewport " + std::to_string(camera.width) + "x" +
                                std::to_string(camera.height) + " is empty");
  }
  if (output.surface == 0 && output.pixels == nullptr) {
    throw std::invalid_argument("TileCompositor: no output surface or pixels");
  }
  if (max_entries_per_pass_ > std::numeric_limits<std::uint32_t>::max() / kHeavySplit) {
    throw std::invalid_argument("TileCompositor: " + std::to_string(max_entries_per_pass_) +
                                " entries a pass overflow the band lists' 32-bit positions");
  }
  const TileGrid grid = tile_grid(camera.width, camera.height);
  const int tile_bits = bits_for(static_cast<std::size_t>(grid.count()));
  reserve_sprites(std::max(count, 1u));
  reserve_tiles(static_cast<std::size_t>(grid.count()));

  TimingSlot& timing = timing_[next_timing_];
  const bool timed = !timing.pending;  // a slot still unread is not overwritten
  if (timed) CUDA_CHECK(cudaEventRecord(timing.start.get(), stream));

  project_kernel<<<blocks_for(std::uint64_t{count} + 1, kProjectThreads), kProjectThreads, 0,
                   stream>>>(vertices, sprite_scales, order, count, camera, sprite_geometry_.data(),
                             sprite_colors_.data(), sprite_offsets_.data());
  CUDA_CHECK_LAUNCH("project_kernel", stream);
  std::size_t scan_bytes = scan_workspace_.size();
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scan_workspace_.data(), scan_bytes,
                                           sprite_offsets_.data(), sprite_offsets_.data(),
                                           static_cast<std::int64_t>(count) + 1, stream));
  std::uint64_t total = 0;
  CUDA_CHECK(cudaMemcpyAsync(&total, sprite_offsets_.data() + count, sizeof total,
                             cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  last_entries_ = total;

  // Pass boundaries: draw positions whose entries fit a pass. Nearly every frame has one pass,
  // which needs no offsets on the host.
  std::vector<std::uint32_t> cuts{0u, count};
  if (total > max_entries_per_pass_) {
    std::vector<std::uint64_t> offsets(std::size_t{count} + 1);
    CUDA_CHECK(cudaMemcpy(offsets.data(), sprite_offsets_.data(),
                          offsets.size() * sizeof(offsets[0]), cudaMemcpyDeviceToHost));
    cuts = {0u};
    while (cuts.back() < count) {
      const std::uint64_t limit = offsets[cuts.back()] + max_entries_per_pass_;
      auto it = std::upper_bound(offsets.begin() + cuts.back() + 1, offsets.end(), limit);
      std::uint32_t next = static_cast<std::uint32_t>(it - offsets.begin()) - 1;
      if (next == cuts.back()) ++next;  // one sprite over the limit: a pass of its own
      cuts.push_back(next);
    }
    total = 0;
    for (std::size_t p = 1; p < cuts.size(); ++p) {
      total = std::max(total, offsets[cuts[p]] - offsets[cuts[p - 1]]);
    }
  }
  if (std::max<std::uint64_t>(total, 1) > entries_capacity()) {
    CUDA_CHECK(cudaStreamSynchronize(stream));  // no sort still uses the old buffers
  }
  reserve_entries(static_cast<std::size_t>(std::max<std::uint64_t>(total, 1)));
  last_passes_ = cuts.size() - 1;

  for (std::size_t p = 1; p < cuts.size(); ++p) {
    const std::uint32_t first = cuts[p - 1], last = cuts[p];
    std::uint64_t entries = total;
    if (cuts.size() > 2) {
      std::uint64_t bounds[2] = {0, 0};
      CUDA_CHECK(cudaMemcpyAsync(&bounds[0], sprite_offsets_.data() + first, sizeof(std::uint64_t),
                                 cudaMemcpyDeviceToHost, stream));
      CUDA_CHECK(cudaMemcpyAsync(&bounds[1], sprite_offsets_.data() + last, sizeof(std::uint64_t),
                                 cudaMemcpyDeviceToHost, stream));
      CUDA_CHECK(cudaStreamSynchronize(stream));
      entries = bounds[1] - bounds[0];
    }
    CUDA_CHECK(cudaMemsetAsync(tile_ranges_.data(), 0,
                               static_cast<std::size_t>(grid.count()) * sizeof(uint2), stream));
    CUDA_CHECK(cudaMemsetAsync(heavy_count_.data(), 0, sizeof(std::uint32_t), stream));
    if (entries > 0) {
      emit_kernel<<<blocks_for(last - first, kEmitThreads), kEmitThreads, 0, stream>>>(
          sprite_geometry_.data(), sprite_offsets_.data(), first, last, grid, entry_tiles_.data(),
          entry_sprites_.data());
      CUDA_CHECK_LAUNCH("emit_kernel", stream);
      sorter_->sort(entry_tiles_.data(), entry_sprites_.data(), static_cast<std::size_t>(entries),
                    0, tile_bits, stream);
      tile_range_kernel<<<blocks_for(entries, kRangeThreads), kRangeThreads, 0, stream>>>(
          entry_tiles_.data(), static_cast<std::uint32_t>(entries), tile_ranges_.data(),
          heavy_tiles_.data(), heavy_count_.data());
      CUDA_CHECK_LAUNCH("tile_range_kernel", stream);
    }
    const bool over_image = p > 1;
    // At most entries / (kHeavyList + 1) tiles have longer lists than kHeavyList.
    const std::uint64_t heavy_bound = std::min<std::uint64_t>(
        entries / (kHeavyList + 1), static_cast<std::uint64_t>(grid.count()));
    if (heavy_bound > 0) {
      const std::uint32_t chunks = blocks_for(entries, kBandChunk);
      band_count_kernel<<<chunks, kBandThreads, 0, stream>>>(
          entry_tiles_.data(), entry_sprites_.data(), static_cast<std::uint32_t>(entries),
          tile_ranges_.data(), sprite_geometry_.data(), grid, band_masks_.data(),
          band_chunk_offsets_.data(), chunks);
      CUDA_CHECK_LAUNCH("band_count_kernel", stream);
      std::size_t bytes = band_scan_workspace_.size();
      CUDA_CHECK(cub::DeviceScan::ExclusiveSum(
          band_scan_workspace_.data(), bytes, band_chunk_offsets_.data(),
          band_chunk_offsets_.data(), static_cast<std::int64_t>(chunks) * kHeavySplit, stream));
      band_scatter_kernel<<<chunks, kBandThreads, 0, stream>>>(
          entry_tiles_.data(), entry_sprites_.data(), static_cast<std::uint32_t>(entries),
          tile_ranges_.data(), band_masks_.data(), band_chunk_offsets_.data(), chunks,
          band_sprites_.data(), band_ranges_.data());
      CUDA_CHECK_LAUNCH("band_scatter_kernel", stream);
    }
    const unsigned heavy_blocks = static_cast<unsigned>(heavy_bound) * kHeavySplit;
    const unsigned blocks = heavy_blocks + static_cast<unsigned>(grid.count());
    with_blend_rules(camera.rules, [&](auto rules) {
      if (output.surface != 0) {
        blend_kernel<<<blocks, kBlendThreads, 0, stream>>>(
            grid, tile_ranges_.data(), heavy_tiles_.data(), heavy_count_.data(), heavy_blocks,
            band_ranges_.data(), band_sprites_.data(), entry_sprites_.data(),
            sprite_geometry_.data(), sprite_colors_.data(), rules, background, over_image,
            SurfaceWriter{output.surface});
      } else {
        blend_kernel<<<blocks, kBlendThreads, 0, stream>>>(
            grid, tile_ranges_.data(), heavy_tiles_.data(), heavy_count_.data(), heavy_blocks,
            band_ranges_.data(), band_sprites_.data(), entry_sprites_.data(),
            sprite_geometry_.data(), sprite_colors_.data(), rules, background, over_image,
            LinearWriter{output.pixels, grid.width});
      }
    });
    CUDA_CHECK_LAUNCH("blend_kernel", stream);
  }

  if (timed) {
    CUDA_CHECK(cudaEventRecord(timing.end.get(), stream));
    timing.frame = frame_;
    timing.pending = true;
    next_timing_ ^= 1;
  }
}

std::uint32_t TileCompositor::longest_tile_list(cudaStream_t stream) const {
  std::vector<uint2> ranges(tile_ranges_.size());
  CUDA_CHECK(cudaMemcpyAsync(ranges.data(), tile_ranges_.data(), tile_ranges_.size_bytes(),
                             cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  std::uint32_t longest = 0;
  for (const uint2& r : ranges) longest = std::max(longest, r.y - r.x);
  return longest;
}

std::optional<TileCompositor::Timing> TileCompositor::poll_timing() {
  // The older pending slot first: timings come out in the order they were taken.
  for (int k = 0; k < 2; ++k) {
    TimingSlot& slot = timing_[(next_timing_ + k) & 1];
    if (!slot.pending) continue;
    const cudaError_t state = cudaEventQuery(slot.end.get());
    if (state == cudaErrorNotReady) return std::nullopt;
    CUDA_CHECK(state);
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, slot.start.get(), slot.end.get()));
    slot.pending = false;
    return Timing{slot.frame, ms};
  }
  return std::nullopt;
}

}  // namespace particles::cuda
