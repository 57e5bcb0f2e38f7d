#include "cuda/composite/tile_compositor.hpp"

#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/composite/front_to_back.hpp"
#include "core/composite/tile_grid.hpp"
#include "cuda/common/check.hpp"

namespace particles::cuda {
namespace {

constexpr int kProjectThreads = 256;
constexpr int kEmitThreads = 256;
constexpr std::uint32_t kEmitEntries = 2048;  // entries an emit block writes
constexpr int kRangeThreads = 256;
constexpr unsigned kPadBlocks = 1024;  // the padding kernel's grid, striding over any length
constexpr int kTilePixels = kTileSize * kTileSize;
// One blend thread per pixel of a tile.
constexpr int kBlendThreads = kTilePixels;
// A tile's list is blended in chunks of at most this many entries, each by a block of its own,
// so that no tile's list bounds the whole blend; a tile of several chunks is put together by the
// block that finishes last (blend_kernel).
constexpr std::uint32_t kChunk = kBlendChunk;
// A tile's farther chunks, after its nearest (kChunk): shorter, so that a list that does not close
// early (many faint sprites) spreads over many blocks, while one that does closes in its first.
constexpr std::uint32_t kFartherChunk = kBlendFartherChunk;

// How many chunks a list of `length` entries is blended in: one at least, so that every pixel of
// its tile is written.
__host__ __device__ std::uint32_t chunks_of(std::uint32_t length) {
  return length <= kChunk ? 1u : 1u + (length - kChunk + kFartherChunk - 1) / kFartherChunk;
}
constexpr int kWorkThreads = 256;

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

// The entries of one pass: those whose place in the frame's numbering of all of them (the scanned
// offsets) lies in [window, window + length), written from entry 0 of the arrays; a sprite whose
// entries straddle two windows has some in each. A block writes kEmitEntries consecutive entries,
// a thread every kEmitThreads-th, so that every write is coalesced and a sprite over thousands of
// tiles is spread over many blocks. Each entry's sprite is the last whose first entry is at or
// before it: found from the block's first by a search, then by each thread from its last.
__global__ void __launch_bounds__(kEmitThreads)
    emit_kernel(const float4* __restrict__ geometry, const std::uint64_t* __restrict__ offsets,
                std::uint32_t count, std::uint64_t window, std::uint64_t length, TileGrid grid,
                std::uint32_t* __restrict__ tiles, std::uint32_t* __restrict__ sprites) {
  __shared__ std::uint32_t block_sprite;
  const std::uint64_t begin = window + std::uint64_t{blockIdx.x} * kEmitEntries;
  const std::uint64_t end = min(min(begin + kEmitEntries, window + length), offsets[count]);
  if (begin >= end) return;
  // The sprite of entry e: the last s whose first entry offsets[s] <= e, searched in [s, hi].
  const auto sprite_of = [&](std::uint64_t e, std::uint32_t s) {
    std::uint32_t step = 1, hi = count - 1;
    while (s + step <= hi && offsets[s + step] <= e) {  // gallop past the sprites before e
      s += step;
      step *= 2;
    }
    hi = min(hi, s + step - 1);
    while (s < hi) {
      const std::uint32_t mid = s + (hi - s + 1) / 2;
      if (offsets[mid] <= e) {
        s = mid;
      } else {
        hi = mid - 1;
      }
    }
    return s;
  };
  if (threadIdx.x == 0) block_sprite = sprite_of(begin, 0);
  __syncthreads();
  std::uint32_t sprite = block_sprite, ranged = ~0u;
  TileRange r;
  for (std::uint64_t e = begin + threadIdx.x; e < end; e += kEmitThreads) {
    sprite = sprite_of(e, sprite);
    if (sprite != ranged) {
      r = tiles_of(geometry_pixel_bounds(geometry[sprite], grid));
      ranged = sprite;
    }
    const auto k = static_cast<int>(e - offsets[sprite]);
    const int across = r.tx1 - r.tx0;
    tiles[e - window] =
        static_cast<std::uint32_t>((r.ty0 + k / across) * grid.columns + r.tx0 + k % across);
    sprites[e - window] = sprite;
  }
}

// The pass's entries past the frame's last (its window reaches beyond the total) get the key
// `sentinel`, one past every tile, so that the sort puts them last and no tile's range holds them,
// and a value (never read) that the sort may move. A fixed grid strides over them from the total.
__global__ void pad_kernel(const std::uint64_t* __restrict__ total, std::uint64_t window,
                           std::uint32_t length, std::uint32_t sentinel,
                           std::uint32_t* __restrict__ tiles, std::uint32_t* __restrict__ sprites) {
  const std::uint64_t last = *total;
  const std::uint64_t first = last > window ? last - window : 0;
  for (std::uint64_t i = first + blockIdx.x * blockDim.x + threadIdx.x; i < length;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    tiles[i] = sentinel;
    sprites[i] = 0u;
  }
}

// Each tile's range [begin, end) in the sorted entries (tiles with no entry keep {0, 0}; the
// padding's sentinel key is no tile).
__global__ void tile_range_kernel(const std::uint32_t* __restrict__ tiles, std::uint32_t entries,
                                  std::uint32_t sentinel, uint2* __restrict__ ranges) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= entries) return;
  const std::uint32_t tile = tiles[i];
  if (tile == sentinel) return;
  if (i == 0 || tiles[i - 1] != tile) ranges[tile].x = i;
  if (i + 1 == entries || tiles[i + 1] != tile) ranges[tile].y = i + 1;
}

// How many chunks each tile's list is blended in beyond its first (every tile has one, so that
// every pixel is written).
__global__ void extra_chunk_kernel(const uint2* __restrict__ ranges, std::uint32_t tiles,
                                   std::uint32_t* __restrict__ extra_chunks) {
  const std::uint32_t tile = blockIdx.x * blockDim.x + threadIdx.x;
  if (tile > tiles) return;
  if (tile == tiles) {  // the scan's last element: its exclusive sum is the total
    extra_chunks[tile] = 0;
    return;
  }
  const uint2 r = ranges[tile];
  extra_chunks[tile] = chunks_of(r.y - r.x) - 1u;
}

// The work item of chunk k of a tile: every tile's first chunk (its nearest) comes first, in tile
// order, and the further chunks after them all, so that a tile's first chunk has mostly finished
// (and may have hidden the rest: blend_kernel) before its further ones start.
__device__ std::uint32_t chunk_item(std::uint32_t tile, std::uint32_t k, std::uint32_t tiles,
                                    const std::uint32_t* __restrict__ first_extra) {
  return k == 0 ? tile : tiles + first_extra[tile] + k - 1;
}

// Work items (tile, chunk), from the scanned extra chunks (chunk_item).
__global__ void work_item_kernel(const std::uint32_t* __restrict__ first_extra, std::uint32_t tiles,
                                 uint2* __restrict__ items) {
  const std::uint32_t tile = blockIdx.x * blockDim.x + threadIdx.x;
  if (tile >= tiles) return;
  const std::uint32_t chunks = 1 + first_extra[tile + 1] - first_extra[tile];
  for (std::uint32_t k = 0; k < chunks; ++k) {
    items[chunk_item(tile, k, tiles, first_extra)] = make_uint2(tile, k);
  }
}

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

void TileCompositor::reserve_entries(std::size_t entries, cudaStream_t stream) {
  if (entries_capacity() >= entries && sorter_) return;
  CUDA_CHECK(cudaStreamSynchronize(stream));  // no sort still uses the old buffers
  // Headroom, so that frames whose binning creeps up allocate once, not every few frames.
  const std::size_t capacity = entries + entries / 4;
  sorter_.reset();
  entry_tiles_ = DeviceBuffer<std::uint32_t>();
  entry_sprites_ = DeviceBuffer<std::uint32_t>();
  entry_tiles_.resize(capacity);
  entry_sprites_.resize(capacity);
  sorter_ = make_sorter(binning_, capacity);
}

void TileCompositor::reserve_tiles(std::size_t tiles) {
  if (incomplete_.empty()) {
    incomplete_.resize(1);
    CUDA_CHECK(cudaMemset(incomplete_.data(), 0, incomplete_.size_bytes()));
  }
  if (tile_ranges_.size() >= tiles) return;
  tile_ranges_.resize(tiles);
  first_extra_chunk_.resize(tiles + 1);
  chunks_done_.resize(tiles);
  hidden_from_.resize(tiles);
  // The blend's counters start at zero once; its last chunk of a tile puts its counter back.
  CUDA_CHECK(cudaMemset(chunks_done_.data(), 0, chunks_done_.size_bytes()));
  CUDA_CHECK(cudaMemset(hidden_from_.data(), 0xff, hidden_from_.size_bytes()));
  std::size_t bytes = 0;
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, first_extra_chunk_.data(),
                                           first_extra_chunk_.data(),
                                           static_cast<std::int64_t>(tiles) + 1));
  chunk_scan_workspace_.resize(std::max<std::size_t>(bytes, 1));
}

void TileCompositor::reserve_work_items(std::size_t items) {
  if (work_items_.size() >= items) return;
  const std::size_t capacity = items + items / 4;  // headroom, as for the entries
  work_items_.resize(capacity);
  partial_sums_.resize(capacity * static_cast<std::size_t>(kBlendThreads));
}

void TileCompositor::take_reports() {
  for (Report& r : reports_) {
    if (!r.pending) continue;
    const cudaError_t state = cudaEventQuery(r.done.get());
    if (state == cudaErrorNotReady) continue;
    CUDA_CHECK(state);
    r.pending = false;
    const std::uint64_t total = reported_totals_.data()[&r - reports_];
    overflowed_ += total > r.binned ? 1 : 0;
    // The newest report sizes the next frames.
    if (r.sequence > newest_report_) {
      newest_report_ = r.sequence;
      expected_entries_ = total;
    }
  }
}

void TileCompositor::composite(cudaStream_t stream, const ParticleVertex* vertices,
                               const float* sprite_scales, const std::uint32_t* order,
                               std::uint32_t count, const SpriteCamera& camera,
                               const PixelF& background, const CompositeOutput& output) {
  if (camera.width <= 0 || camera.height <= 0) {
    throw std::invalid_argument("TileCompositor: viewport " + std::to_string(camera.width) + "x" +
                                std::to_string(camera.height) + " is empty");
  }
  if (output.surface == 0 && output.pixels == nullptr) {
    throw std::invalid_argument("TileCompositor: no output surface or pixels");
  }
  const TileGrid grid = tile_grid(camera.width, camera.height);
  const auto tiles = static_cast<std::uint32_t>(grid.count());
  const std::uint32_t sentinel = tiles;                                 // the padding's key
  const int tile_bits = bits_for(static_cast<std::size_t>(tiles) + 1);  // tiles and the sentinel
  reserve_sprites(std::max(count, 1u));
  reserve_tiles(tiles);
  take_reports();

  TimingSlot& timing = timing_[next_timing_];
  // A slot still unread is not overwritten.
  const bool timed = frame_ != kUntimedFrame && !timing.pending;
  if (timed) CUDA_CHECK(cudaEventRecord(timing.start.get(), stream));

  project_kernel<<<blocks_for(std::uint64_t{count} + 1, kProjectThreads), kProjectThreads, 0,
                   stream>>>(vertices, sprite_scales, order, count, camera, sprite_geometry_.data(),
                             sprite_colors_.data(), sprite_offsets_.data());
  CUDA_CHECK_LAUNCH("project_kernel", stream);
  std::size_t scan_bytes = scan_workspace_.size();
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scan_workspace_.data(), scan_bytes,
                                           sprite_offsets_.data(), sprite_offsets_.data(),
                                           static_cast<std::int64_t>(count) + 1, stream));
  const std::uint64_t* total = sprite_offsets_.data() + count;
  if (!expected_entries_) {
    // The first composite has no report to go by: it waits for its own total, once.
    std::uint64_t first_total = 0;
    CUDA_CHECK(
        cudaMemcpyAsync(&first_total, total, sizeof first_total, cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    expected_entries_ = first_total;
  }

  // Entries binned: the newest reported total with a quarter's headroom, in passes of at most
  // max_entries_per_pass_ (each pass's window of the frame's entries sorted apart, blended over
  // the image the one before left).
  const std::uint64_t wanted = *expected_entries_ + *expected_entries_ / 4 + 4096;
  const std::uint64_t passes = (wanted + max_entries_per_pass_ - 1) / max_entries_per_pass_;
  const std::uint64_t per_pass = (wanted + passes - 1) / passes;
  const std::uint64_t binned = per_pass * passes;
  reserve_entries(static_cast<std::size_t>(per_pass), stream);
  const std::uint64_t item_bound = std::uint64_t{tiles} + per_pass / kFartherChunk;
  reserve_work_items(static_cast<std::size_t>(item_bound));
  last_passes_ = static_cast<std::size_t>(passes);
  last_binned_ = binned;

  // The total goes back to the host without a wait: a later composite reads it (take_reports).
  for (Report& r : reports_) {
    if (r.pending) continue;
    CUDA_CHECK(cudaMemcpyAsync(reported_totals_.data() + (&r - reports_), total,
                               sizeof(std::uint64_t), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaEventRecord(r.done.get(), stream));
    r.binned = binned;
    r.sequence = ++reports_made_;
    r.pending = true;
    break;
  }

  const auto length = static_cast<std::uint32_t>(per_pass);
  for (std::uint64_t p = 0; p < passes; ++p) {
    const std::uint64_t window = p * per_pass;
    CUDA_CHECK(cudaMemsetAsync(tile_ranges_.data(), 0, std::size_t{tiles} * sizeof(uint2), stream));
    if (count > 0) {
      emit_kernel<<<blocks_for(length, kEmitEntries), kEmitThreads, 0, stream>>>(
          sprite_geometry_.data(), sprite_offsets_.data(), count, window, per_pass, grid,
          entry_tiles_.data(), entry_sprites_.data());
      CUDA_CHECK_LAUNCH("emit_kernel", stream);
    }
    pad_kernel<<<std::min(blocks_for(length, kRangeThreads), kPadBlocks), kRangeThreads, 0,
                 stream>>>(total, window, length, sentinel, entry_tiles_.data(),
                           entry_sprites_.data());
    CUDA_CHECK_LAUNCH("pad_kernel", stream);
    sorter_->sort(entry_tiles_.data(), entry_sprites_.data(), length, 0, tile_bits, stream);
    tile_range_kernel<<<blocks_for(length, kRangeThreads), kRangeThreads, 0, stream>>>(
        entry_tiles_.data(), length, sentinel, tile_ranges_.data());
    CUDA_CHECK_LAUNCH("tile_range_kernel", stream);
    // The work items: each tile's chunks, counted, scanned and listed on the device; the blend
    // is launched for the most there can be (a tile has at most 1 + its entries / kFartherChunk)
    // and its blocks past the count found return at once.
    extra_chunk_kernel<<<blocks_for(std::uint64_t{tiles} + 1, kWorkThreads), kWorkThreads, 0,
                         stream>>>(tile_ranges_.data(), tiles, first_extra_chunk_.data());
    CUDA_CHECK_LAUNCH("extra_chunk_kernel", stream);
    std::size_t bytes = chunk_scan_workspace_.size();
    CUDA_CHECK(cub::DeviceScan::ExclusiveSum(chunk_scan_workspace_.data(), bytes,
                                             first_extra_chunk_.data(), first_extra_chunk_.data(),
                                             static_cast<std::int64_t>(tiles) + 1, stream));
    work_item_kernel<<<blocks_for(tiles, kWorkThreads), kWorkThreads, 0, stream>>>(
        first_extra_chunk_.data(), tiles, work_items_.data());
    CUDA_CHECK_LAUNCH("work_item_kernel", stream);
    const auto blend = [&](auto writer) {
      blend_kernel<<<static_cast<unsigned>(item_bound), kBlendThreads, 0, stream>>>(
          grid, work_items_.data(), first_extra_chunk_.data(), tile_ranges_.data(),
          entry_sprites_.data(), sprite_geometry_.data(), sprite_colors_.data(),
          partial_sums_.data(), chunks_done_.data(), hidden_from_.data(), total, binned,
          incomplete_.data(), background, /*start_from_image=*/p > 0, writer);
    };
    if (output.surface != 0) {
      blend(SurfaceWriter{output.surface});
    } else {
      blend(LinearWriter{output.pixels, grid.width});
    }
    CUDA_CHECK_LAUNCH("blend_kernel", stream);
  }
  last_count_ = count;

  if (timed) {
    CUDA_CHECK(cudaEventRecord(timing.end.get(), stream));
    timing.frame = frame_;
    timing.pending = true;
    next_timing_ ^= 1;
  }
}

std::uint64_t TileCompositor::last_entries(cudaStream_t stream) const {
  std::uint64_t total = 0;
  CUDA_CHECK(cudaMemcpyAsync(&total, sprite_offsets_.data() + last_count_, sizeof total,
                             cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  return total;
}

bool TileCompositor::complete(cudaStream_t stream) {
  const std::uint64_t total = last_entries(stream);  // waits for the stream
  std::uint32_t incomplete = 0;
  CUDA_CHECK(
      cudaMemcpy(&incomplete, incomplete_.data(), sizeof incomplete, cudaMemcpyDeviceToHost));
  if (incomplete == 0u) return true;
  CUDA_CHECK(cudaMemset(incomplete_.data(), 0, sizeof incomplete));
  // The next composite bins them all (a frame's total does not depend on its order, so the
  // comparison view's two composites of one frame need the same).
  expected_entries_ = std::max(total, expected_entries_.value_or(0));
  return false;
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
