#include "cuda/composite/tile_compositor.hpp"

#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/composite/tile_grid.hpp"
#include "cuda/pipeline/launch_check.hpp"

namespace particles::cuda {
namespace {

constexpr int kProjectThreads = 256;
constexpr int kEmitThreads = 256;  // also the sprites each emit block takes
constexpr int kRangeThreads = 256;
constexpr int kBlendThreads = kTileSize * kTileSize;  // one per pixel of a tile

unsigned blocks_for(std::uint64_t items, int threads) {
  return static_cast<unsigned>((items + static_cast<std::uint64_t>(threads) - 1) /
                               static_cast<std::uint64_t>(threads));
}

int bits_for(std::size_t values) {  // bits that hold 0 .. values - 1
  int bits = 1;
  while ((std::size_t{1} << bits) < values) ++bits;
  return bits;
}

__global__ void project_kernel(const ParticleVertex* __restrict__ vertices,
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
  const ProjectedSprite s = project_sprite(camera, vertices[order[i]]);
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
      const float4 g = geometry[sprite];
      ProjectedSprite s;
      s.x = g.x;
      s.y = g.y;
      s.inv_half = g.z;
      s.visible = true;
      range = tiles_of(sprite_pixel_bounds(s, grid.width, grid.height));
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

__global__ void tile_range_kernel(const std::uint32_t* __restrict__ tiles, std::uint32_t entries,
                                  uint2* __restrict__ ranges) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= entries) return;
  const std::uint32_t tile = tiles[i];
  if (i == 0 || tiles[i - 1] != tile) ranges[tile].x = i;
  if (i + 1 == entries || tiles[i + 1] != tile) ranges[tile].y = i + 1;
}

struct SurfaceWriter {
  cudaSurfaceObject_t surface;
  __device__ void write(int x, int y, std::uint32_t v) const { surf2Dwrite(v, surface, x * 4, y); }
};
struct LinearWriter {
  std::uint32_t* pixels;
  int width;
  __device__ void write(int x, int y, std::uint32_t v) const { pixels[y * width + x] = v; }
};

// Where a pass's blends start and end. A frame in several passes takes its draw positions from
// the nearest pass to the farthest, carrying each pixel's PixelBlend between them.
struct PassEnds {
  bool nearest = true;   // the pixels start clear, with nothing in front of them
  bool farthest = true;  // the pixels are resolved over the background into the image
};

// The start of the batch of entries that ends at `end`, no earlier than `first`.
__device__ std::uint32_t batch_begin(std::uint32_t end, std::uint32_t first) {
  return end - min(end - first, std::uint32_t{kBlendThreads});
}

// Work units of the blend: a tile's list is cut, from its end, into segments of at most
// `segment_entries` entries, one block each, so that no tile's list holds up the frame. Per tile
// its segment count (at least one: an empty tile still writes its background), scanned in place
// into each tile's first unit.
__global__ void segment_count_kernel(const uint2* __restrict__ ranges, int tiles,
                                     std::uint32_t segment_entries,
                                     std::uint32_t* __restrict__ unit_starts) {
  const int tile = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (tile > tiles) return;
  if (tile == tiles) {  // the scan's last element: its exclusive sum is the unit count
    unit_starts[tile] = 0;
    return;
  }
  const std::uint32_t entries = ranges[tile].y - ranges[tile].x;
  unit_starts[tile] = max(1u, (entries + segment_entries - 1) / segment_entries);
}

__global__ void unit_tile_kernel(const std::uint32_t* __restrict__ unit_starts, int tiles,
                                 std::uint32_t* __restrict__ unit_tiles) {
  const int tile = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (tile >= tiles) return;
  for (std::uint32_t u = unit_starts[tile]; u < unit_starts[tile + 1]; ++u) unit_tiles[u] = tile;
}

// The pixels of the tile at (tile_x, tile_y) (pixels) that a sprite's pixel bounds hold, as bits
// y * kTileSize + x: a cheap test every pixel makes before the exact disc test.
__device__ std::uint64_t tile_pixel_mask(const float4& g, int tile_x, int tile_y) {
  ProjectedSprite s;
  s.x = g.x;
  s.y = g.y;
  s.inv_half = g.z;
  s.visible = true;
  const PixelBounds b =
      sprite_pixel_bounds(s, tile_x + kTileSize, tile_y + kTileSize);  // clamped past the tile
  const int x0 = max(b.x0 - tile_x, 0), x1 = min(b.x1 - tile_x, kTileSize);
  const int y0 = max(b.y0 - tile_y, 0), y1 = min(b.y1 - tile_y, kTileSize);
  if (x0 >= x1 || y0 >= y1) return 0;
  const std::uint64_t row = ((1ull << (x1 - x0)) - 1) << x0;
  const std::uint64_t rows = (y1 - y0 == kTileSize ? ~0ull : (1ull << (kTileSize * (y1 - y0))) - 1)
                             << (kTileSize * y0);
  return (row * 0x0101010101010101ull) & rows;
}

// Blends entries [first, end) of a tile's list into one pixel's blend, from the nearest (end)
// back, in batches of one entry per thread staged in shared memory, until the pixel is opaque;
// the block stops when all of its pixels are. Each entry is staged with the tile pixels its
// bounds hold, so that a pixel outside them costs a bit test. The next batch's sprites are read
// while a batch is blended, and the one after's indices, so that a long list of sparse pixels
// does not wait on memory every batch.
__device__ void blend_segment(std::uint32_t first, std::uint32_t end, int tile_x, int tile_y,
                              const std::uint32_t* __restrict__ sprites,
                              const float4* __restrict__ geometry,
                              const std::uint32_t* __restrict__ colors, bool open,
                              PixelBlend& blend) {
  __shared__ float4 batch_geometry[kBlendThreads];
  __shared__ std::uint32_t batch_colors[kBlendThreads];
  __shared__ std::uint64_t batch_masks[kBlendThreads];
  const int slot = static_cast<int>(threadIdx.x);
  const int px = tile_x + slot % kTileSize, py = tile_y + slot / kTileSize;
  const float cx = static_cast<float>(px) + 0.5f, cy = static_cast<float>(py) + 0.5f;
  std::uint32_t begin = batch_begin(end, first);
  float4 sprite_geometry = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  std::uint32_t sprite_color = 0, next_index = 0;
  if (begin + slot < end) {
    const std::uint32_t index = sprites[begin + slot];
    sprite_geometry = geometry[index];
    sprite_color = colors[index];
  }
  std::uint32_t next_begin = batch_begin(begin, first);
  if (next_begin + slot < begin) next_index = sprites[next_begin + slot];
  while (end > first) {
    if (__syncthreads_count(open) == 0) break;  // also: the last batch is read by everyone
    const int size = static_cast<int>(end - begin);
    if (slot < size) {
      batch_geometry[slot] = sprite_geometry;
      batch_colors[slot] = sprite_color;
      batch_masks[slot] = tile_pixel_mask(sprite_geometry, tile_x, tile_y);
    }
    if (next_begin + slot < begin) {
      sprite_geometry = geometry[next_index];
      sprite_color = colors[next_index];
    }
    const std::uint32_t after = batch_begin(next_begin, first);
    if (after + slot < next_begin) next_index = sprites[after + slot];
    __syncthreads();
    for (int k = size - 1; open && k >= 0; --k) {
      if (((batch_masks[k] >> slot) & 1u) == 0) continue;
      const float4 g = batch_geometry[k];
      const float dx = (cx - g.x) * g.z, dy = (cy - g.y) * g.z;
      if (dx * dx + dy * dy > 1.0f) continue;
      blend_under(blend, batch_colors[k], g.w * sprite_weight_at(g.x, g.y, g.z, px, py));
      open = !blend_opaque(blend);
    }
    end = begin;
    begin = next_begin;
    next_begin = after;
  }
  __syncthreads();  // the batch arrays are free for the block's next use
}

// One block per work unit (a segment of a tile's list), one thread per pixel of the tile. A
// tile of one segment is blended and written whole. The segments of a longer list are blended
// each from a clear pixel into `partials`, and the last of them to finish composes them, nearest
// first, until the pixel is opaque: the same sum as one walk down the list, its rounding and the
// point where it stops aside (within 1/255 of the CPU twin, which walks each pixel's list).
template <class Writer>
__global__ void __launch_bounds__(kBlendThreads)
    blend_kernel(TileGrid grid, const uint2* __restrict__ ranges,
                 const std::uint32_t* __restrict__ unit_starts,
                 const std::uint32_t* __restrict__ unit_tiles, std::uint32_t segment_entries,
                 const std::uint32_t* __restrict__ sprites, const float4* __restrict__ geometry,
                 const std::uint32_t* __restrict__ colors, std::uint32_t background, PassEnds ends,
                 float4* __restrict__ carried, float4* __restrict__ partials,
                 std::uint32_t* __restrict__ segments_done, Writer out) {
  const std::uint32_t unit = blockIdx.x;
  if (unit >= unit_starts[grid.count()]) return;
  const int tile = static_cast<int>(unit_tiles[unit]);
  const std::uint32_t first_unit = unit_starts[tile];
  const std::uint32_t segments = unit_starts[tile + 1] - first_unit;
  const std::uint32_t segment = unit - first_unit;
  const int slot = static_cast<int>(threadIdx.x);
  const int px = (tile % grid.columns) * kTileSize + slot % kTileSize;
  const int py = (tile / grid.columns) * kTileSize + slot / kTileSize;
  const bool in_image = px < grid.width && py < grid.height;
  const std::size_t at = static_cast<std::size_t>(py) * static_cast<std::size_t>(grid.width) +
                         static_cast<std::size_t>(px);
  // What nearer passes left in front of this pass's sprites.
  PixelBlend front;
  if (!ends.nearest && in_image) {
    const float4 c = carried[at];
    front = {c.x, c.y, c.z, c.w};
  }
  const uint2 range = ranges[tile];
  const std::uint32_t end = range.y - min(range.y - range.x, segment * segment_entries);
  const std::uint32_t begin = end - min(end - range.x, segment_entries);

  PixelBlend blend = segments == 1 ? front : PixelBlend{};
  blend_segment(begin, end, px - slot % kTileSize, py - slot / kTileSize, sprites, geometry, colors,
                in_image && !blend_opaque(blend), blend);
  if (segments > 1) {
    partials[static_cast<std::size_t>(unit) * kBlendThreads + slot] =
        make_float4(blend.r, blend.g, blend.b, blend.transmittance);
    __threadfence();  // this segment's partials are visible before it counts itself done
    __syncthreads();  // ... all of them, before its first thread counts it
    __shared__ bool last;
    if (slot == 0) last = atomicAdd(&segments_done[tile], 1u) == segments - 1;
    __syncthreads();
    if (!last) return;
    __threadfence();
    if (slot == 0) segments_done[tile] = 0;  // ready for the next composite
    blend = front;
    for (std::uint32_t k = 0; k < segments && !blend_opaque(blend); ++k) {
      const float4 p =
          __ldcg(&partials[static_cast<std::size_t>(first_unit + k) * kBlendThreads + slot]);
      const float t = blend.transmittance;
      blend.r += t * p.x;
      blend.g += t * p.y;
      blend.b += t * p.z;
      blend.transmittance = t * p.w;
    }
  }
  if (!in_image) return;
  if (ends.farthest) {
    out.write(px, py, blend_resolve(blend, background));
  } else {
    carried[at] = make_float4(blend.r, blend.g, blend.b, blend.transmittance);
  }
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
}

void TileCompositor::reserve_tiles(std::size_t tiles) {
  if (tile_ranges_.size() >= tiles) return;
  tile_ranges_.resize(tiles);
  unit_starts_.resize(tiles + 1);
  segments_done_.resize(tiles);
  CUDA_CHECK(cudaMemset(segments_done_.data(), 0, segments_done_.size_bytes()));
  std::size_t bytes = 0;
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, unit_starts_.data(), unit_starts_.data(),
                                           static_cast<int>(tiles) + 1));
  unit_scan_workspace_.resize(std::max<std::size_t>(bytes, 1));
}

void TileCompositor::reserve_units(std::size_t units) {
  if (unit_tiles_.size() >= units) return;
  const std::size_t capacity = units + units / 4;
  unit_tiles_.resize(capacity);
  partials_.resize(capacity * kBlendThreads);
}

void TileCompositor::composite(cudaStream_t stream, const ParticleVertex* vertices,
                               const std::uint32_t* order, std::uint32_t count,
                               const SpriteCamera& camera, std::uint32_t background,
                               const CompositeOutput& output) {
  if (camera.width <= 0 || camera.height <= 0) {
    throw std::invalid_argument("TileCompositor: viewport " + std::to_string(camera.width) + "x" +
                                std::to_string(camera.height) + " is empty");
  }
  if (output.surface == 0 && output.pixels == nullptr) {
    throw std::invalid_argument("TileCompositor: no output surface or pixels");
  }
  const TileGrid grid = tile_grid(camera.width, camera.height);
  const int tile_bits = bits_for(static_cast<std::size_t>(grid.count()));
  reserve_sprites(std::max(count, 1u));
  reserve_tiles(static_cast<std::size_t>(grid.count()));

  TimingSlot& timing = timing_[next_timing_];
  const bool timed = !timing.pending;  // a slot still unread is not overwritten
  if (timed) CUDA_CHECK(cudaEventRecord(timing.start.get(), stream));

  project_kernel<<<blocks_for(std::uint64_t{count} + 1, kProjectThreads), kProjectThreads, 0,
                   stream>>>(vertices, order, count, camera, sprite_geometry_.data(),
                             sprite_colors_.data(), sprite_offsets_.data());
  PARTICLES_CHECK_LAUNCH("project_kernel", stream);
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
  std::vector<std::uint64_t> offsets;  // on the host only when the frame needs several passes
  if (total > max_entries_per_pass_) {
    offsets.resize(std::size_t{count} + 1);
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

  const std::size_t passes = cuts.size() - 1;
  if (passes > 1 && carried_.size() < static_cast<std::size_t>(grid.width) * grid.height) {
    carried_.resize(static_cast<std::size_t>(grid.width) * grid.height);
  }
  // Nearest draw positions first: each pass blends behind what the passes before it took.
  for (std::size_t p = passes; p >= 1; --p) {
    const std::uint32_t first = cuts[p - 1], last = cuts[p];
    const std::uint64_t entries = passes > 1 ? offsets[last] - offsets[first] : total;
    const int tile_count = grid.count();
    const std::size_t units =
        static_cast<std::size_t>(tile_count) + static_cast<std::size_t>(entries / segment_entries_);
    if (units > unit_tiles_.size()) {
      CUDA_CHECK(cudaStreamSynchronize(stream));  // no blend still uses the old buffers
      reserve_units(units);
    }
    CUDA_CHECK(cudaMemsetAsync(tile_ranges_.data(), 0,
                               static_cast<std::size_t>(grid.count()) * sizeof(uint2), stream));
    if (entries > 0) {
      emit_kernel<<<blocks_for(last - first, kEmitThreads), kEmitThreads, 0, stream>>>(
          sprite_geometry_.data(), sprite_offsets_.data(), first, last, grid, entry_tiles_.data(),
          entry_sprites_.data());
      PARTICLES_CHECK_LAUNCH("emit_kernel", stream);
      sorter_->sort(entry_tiles_.data(), entry_sprites_.data(), static_cast<std::size_t>(entries),
                    0, tile_bits, stream);
      tile_range_kernel<<<blocks_for(entries, kRangeThreads), kRangeThreads, 0, stream>>>(
          entry_tiles_.data(), static_cast<std::uint32_t>(entries), tile_ranges_.data());
      PARTICLES_CHECK_LAUNCH("tile_range_kernel", stream);
    }
    segment_count_kernel<<<blocks_for(std::uint64_t(tile_count) + 1, kRangeThreads), kRangeThreads,
                           0, stream>>>(tile_ranges_.data(), tile_count, segment_entries_,
                                        unit_starts_.data());
    PARTICLES_CHECK_LAUNCH("segment_count_kernel", stream);
    std::size_t unit_scan_bytes = unit_scan_workspace_.size();
    CUDA_CHECK(cub::DeviceScan::ExclusiveSum(unit_scan_workspace_.data(), unit_scan_bytes,
                                             unit_starts_.data(), unit_starts_.data(),
                                             tile_count + 1, stream));
    unit_tile_kernel<<<blocks_for(std::uint64_t(tile_count), kRangeThreads), kRangeThreads, 0,
                       stream>>>(unit_starts_.data(), tile_count, unit_tiles_.data());
    PARTICLES_CHECK_LAUNCH("unit_tile_kernel", stream);
    const PassEnds ends{p == passes, p == 1};
    const unsigned blocks = static_cast<unsigned>(units);
    if (output.surface != 0) {
      blend_kernel<<<blocks, kBlendThreads, 0, stream>>>(
          grid, tile_ranges_.data(), unit_starts_.data(), unit_tiles_.data(), segment_entries_,
          entry_sprites_.data(), sprite_geometry_.data(), sprite_colors_.data(), background, ends,
          carried_.data(), partials_.data(), segments_done_.data(), SurfaceWriter{output.surface});
    } else {
      blend_kernel<<<blocks, kBlendThreads, 0, stream>>>(
          grid, tile_ranges_.data(), unit_starts_.data(), unit_tiles_.data(), segment_entries_,
          entry_sprites_.data(), sprite_geometry_.data(), sprite_colors_.data(), background, ends,
          carried_.data(), partials_.data(), segments_done_.data(),
          LinearWriter{output.pixels, grid.width});
    }
    PARTICLES_CHECK_LAUNCH("blend_kernel", stream);
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
