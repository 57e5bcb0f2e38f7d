#pragma once
// The tile compositor's blend kernel (step 6 of tile_compositor.hpp), with the sprite masks it
// picks each pixel's sprites by and the writers of its two kinds of output. Launched by
// tile_compositor.cu, the one source that includes this header.
#include <cstdint>

#include "core/composite/front_to_back.hpp"
#include "core/composite/pixel.hpp"
#include "core/composite/sprite.hpp"
#include "core/composite/tile_grid.hpp"
#include "cuda/composite/tile_kernel_shapes.cuh"
#include "cuda/composite/tile_work_items.cuh"

namespace particles::cuda {
namespace {

// A sprite's pixel bounds within the tile whose first pixel is (x0, y0), as a mask of its
// columns (bits 0-7) and of its rows (bits 8-15): pixel (x, y) of the tile lies inside exactly
// when column bit x and row bit 8 + y are both set.
__device__ std::uint32_t tile_masks(const PixelBounds& b, int x0, int y0) {
  const auto span = [](int from, int to) {  // bits [from, to) of 0..kTileSize, clamped
    from = max(from, 0);
    to = min(to, kTileSize);
    return from < to ? ((1u << to) - 1u) & ~((1u << from) - 1u) : 0u;
  };
  return span(b.x0 - x0, b.x1 - x0) | span(b.y0 - y0, b.y1 - y0) << kTileSize;
}

constexpr int kBlendWarps = kBlendThreads / 32;
constexpr int kMaskBits = 2 * kTileSize;  // a tile's columns, then its rows
static_assert(kBlendThreads % 32 == 0 && kMaskBits <= 32, "a warp's lanes hold the mask bits");

// Turns the batch's masks (tile_masks, sprite k held by thread k) around: bit l of
// `sprites_over[w][b]` is set when sprite 32w + l covers column b (or row b - kTileSize) of the
// tile. A pixel's candidates are then its column's sprites that also cover its row, so that it
// visits only those rather than testing every sprite of the batch.
__device__ void transpose_masks(std::uint32_t mask, std::uint32_t (*sprites_over)[kMaskBits]) {
  const int lane = static_cast<int>(threadIdx.x % 32u), warp = static_cast<int>(threadIdx.x / 32u);
  std::uint32_t mine = 0u;
#pragma unroll
  for (int b = 0; b < kMaskBits; ++b) {
    const std::uint32_t sprites = __ballot_sync(~0u, (mask >> b) & 1u);
    if (lane == b) mine = sprites;
  }
  if (lane < kMaskBits) sprites_over[warp][lane] = mine;
}

struct SurfaceWriter {
  cudaSurfaceObject_t surface;
  __device__ PixelF read(int x, int y) const {
    const float4 v = surf2Dread<float4>(surface, x * static_cast<int>(sizeof(float4)), y);
    return {v.x, v.y, v.z, v.w};
  }
  __device__ void write(int x, int y, const PixelF& p) const {
    surf2Dwrite(make_float4(p.r, p.g, p.b, p.a), surface, x * static_cast<int>(sizeof(float4)), y);
  }
};
struct LinearWriter {
  PixelF* pixels;
  int width;
  __device__ PixelF read(int x, int y) const { return pixels[y * width + x]; }
  __device__ void write(int x, int y, const PixelF& p) const { pixels[y * width + x] = p; }
};

__device__ float4 as_float4(const FrontToBack& f) {
  return make_float4(f.r, f.g, f.b, f.transmittance);
}
__device__ FrontToBack from_float4(float4 v) {
  return {v.x, v.y, v.z, v.w};
}

// One work item: a chunk of a tile's list (the entries nearest first), one thread per pixel. A
// batch of kBlendThreads sprites goes through shared memory, a sprite a thread; then each thread
// takes the batch's sprites that cover its pixel, nearest first, until its transmittance falls
// below kTransmittanceFloor (front_to_back.hpp), and the block stops once every pixel has. A
// tile of one chunk writes its pixels; a chunk of a longer list leaves its sums in `partial`, and
// the tile's last chunk to finish takes them all, nearest chunk first, and writes.
template <class Writer>
__global__ void __launch_bounds__(kBlendThreads)
    blend_kernel(TileGrid grid, const uint2* __restrict__ items,
                 const std::uint32_t* __restrict__ first_extra, const uint2* __restrict__ ranges,
                 const std::uint32_t* __restrict__ sprites, const float4* __restrict__ geometry,
                 const std::uint32_t* __restrict__ colors, float4* __restrict__ partial,
                 std::uint32_t* __restrict__ chunks_done, std::uint32_t* __restrict__ hidden_from,
                 const std::uint64_t* __restrict__ total, std::uint64_t binned,
                 std::uint32_t* __restrict__ incomplete, PixelF background, bool start_from_image,
                 Writer out) {
  __shared__ float4 batch_geometry[kBlendThreads];
  __shared__ SpriteColor batch_colors[kBlendThreads];
  __shared__ std::uint32_t sprites_over[kBlendWarps][kMaskBits];
  __shared__ bool last_chunk, hidden;
  // A frame with more entries than were binned (it outgrew the estimate its buffers were sized
  // by) writes nothing: the image keeps the frame before, never a frame with sprites missing.
  if (*total > binned) {
    if (blockIdx.x == 0 && threadIdx.x == 0) *incomplete = 1u;
    return;
  }
  const auto tiles = static_cast<std::uint32_t>(grid.count());
  if (blockIdx.x >= tiles + first_extra[tiles]) return;
  const uint2 item = items[blockIdx.x];
  const std::uint32_t tile = item.x;
  const uint2 range = ranges[tile];
  const std::uint32_t chunks = chunks_of(range.y - range.x);
  // Chunk 0 holds the list's last (nearest) kChunk entries, chunk k > 0 the kFartherChunk before
  // chunk k - 1's, each nearest last.
  const std::uint32_t hi =
      item.y == 0 ? range.y
                  : range.y - min(range.y - range.x, kChunk + (item.y - 1) * kFartherChunk);
  const std::uint32_t lo = hi - min(hi - range.x, item.y == 0 ? kChunk : kFartherChunk);

  const int pixel = static_cast<int>(threadIdx.x);
  const int px = static_cast<int>(tile % static_cast<std::uint32_t>(grid.columns)) * kTileSize +
                 pixel % kTileSize;
  const int py = static_cast<int>(tile / static_cast<std::uint32_t>(grid.columns)) * kTileSize +
                 pixel / kTileSize;
  const bool in_image = px < grid.width && py < grid.height;
  const int tile_x0 = px - pixel % kTileSize, tile_y0 = py - pixel / kTileSize;
  FrontToBack sum;
  bool closed = false;  // every pixel of the tile closed by this chunk's sprites alone
  for (std::uint32_t end = hi; end > lo; end -= min(end - lo, std::uint32_t{kBlendThreads})) {
    const int taken = static_cast<int>(min(end - lo, std::uint32_t{kBlendThreads}));
    // A nearer chunk that closed every pixel of the tile on its own hides this one: the join
    // stops before it, so it need not be finished (whenever it stops, the image is the same).
    if (pixel == 0) hidden = item.y > 0 && __ldcg(&hidden_from[tile]) < item.y;
    std::uint32_t mask = 0u;  // a sprite a thread: its geometry, colour and pixels in this tile
    if (pixel < taken) {
      const std::uint32_t sprite = sprites[end - 1 - static_cast<std::uint32_t>(pixel)];
      const float4 g = geometry[sprite];
      batch_geometry[pixel] = g;
      batch_colors[pixel] = sprite_color(colors[sprite]);
      mask = tile_masks(geometry_pixel_bounds(g, grid), tile_x0, tile_y0);
    }
    transpose_masks(mask, sprites_over);
    __syncthreads();
    if (hidden) break;
    // A pixel visits only the sprites whose bounds cover it, nearest first: its work follows
    // its fragments, so a batch of small sprites costs each pixel a few steps, not one a sprite.
    for (int warp = 0; warp < kBlendWarps; ++warp) {
      std::uint32_t candidates =
          sprites_over[warp][pixel % kTileSize] & sprites_over[warp][kTileSize + pixel / kTileSize];
      while (candidates != 0u && sum.open()) {
        const int k = 32 * warp + __ffs(static_cast<int>(candidates)) - 1;
        candidates &= candidates - 1u;
        const float4 g = batch_geometry[k];
        const float w = sprite_weight_at(g.x, g.y, g.z, px, py);
        if (w >= 0.0f) sum.take(batch_colors[k], g.w * w);
      }
    }
    // Stop once no pixel of the tile takes more (pixels outside the image take nothing useful).
    if (__syncthreads_count(in_image && sum.open()) == 0) {
      closed = true;
      break;
    }
  }

  if (chunks > 1) {
    if (closed && pixel == 0) atomicMin(&hidden_from[tile], item.y);
    partial[static_cast<std::size_t>(blockIdx.x) * kBlendThreads + pixel] = as_float4(sum);
    __threadfence();  // the sums are visible before the count says so
    __syncthreads();
    if (pixel == 0) {
      last_chunk = atomicAdd(&chunks_done[tile], 1u) == chunks - 1;
      if (last_chunk) {  // ready for the next pass and frame
        chunks_done[tile] = 0;
        hidden_from[tile] = ~0u;
      }
    }
    __syncthreads();
    if (!last_chunk) return;
    __threadfence();
    sum = FrontToBack{};
    for (std::uint32_t k = 0; k < chunks && sum.open(); ++k) {
      const std::uint32_t chunk = chunk_item(tile, k, tiles, first_extra);
      sum.take_behind(
          from_float4(__ldcg(&partial[static_cast<std::size_t>(chunk) * kBlendThreads + pixel])));
    }
  }
  if (!in_image) return;
  const PixelF under = start_from_image ? out.read(px, py) : background;
  out.write(px, py, sum.over(under));
}

}  // namespace
}  // namespace particles::cuda
