#pragma once
// The tile compositor: the frame's particles, in its draw order (far first), blended into an
// RGBA8 image by CUDA kernels over the whole GPU, with the sprite and blending math GL's shaders
// use (core/composite/sprite.hpp). It reads the order whatever made it (any sort, or none), so an
// unsorted frame looks as wrong as it does under GL.
//
// A composite runs five steps on the caller's stream:
//  1. project: each draw position's sprite (window position, size, alpha; clipped ones dropped)
//     and the number of screen tiles (core/composite/tile_grid.hpp) its pixels may touch;
//  2. an exclusive scan of those counts, whose total is read back to the host (the one wait of
//     a composite, so that the binning below is sized exactly and never overflows);
//  3. emit one (tile, draw position) entry per touched tile, in draw order;
//  4. a stable radix sort of the entries by tile, so each tile's list keeps the draw order, and
//     each tile's range in the sorted list;
//  5. blend: one block per tile, walking the tile's list in order through shared memory, each
//     pixel blending "over" with 8-bit rounding after every sprite, as the framebuffer does. A
//     tile with a long list (found while step 4 makes the ranges) is cut into four bands of rows,
//     each with a list of its own (the tile's entries whose sprites reach the band, in order) and
//     a block of its own.
// Its CPU twin is core/composite/cpu_compositor.hpp; the two agree bit for bit.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "core/composite/sprite.hpp"
#include "core/particle.hpp"
#include "cuda/common/cuda_handles.hpp"
#include "cuda/common/device_buffer.hpp"
#include "cuda/sort/sorter.hpp"

namespace particles::cuda {

// Where the image goes: a CUDA surface over a GL texture (the app), or linear device memory of
// width * height RGBA8 pixels, rows bottom first (tests).
struct CompositeOutput {
  cudaSurfaceObject_t surface = 0;  // used when non-zero
  std::uint32_t* pixels = nullptr;
};

// Entries one pass of the binning sorts at most (their memory: 16 bytes each, and 17 more for
// the band lists of long tiles); a frame that needs more (huge sprites over millions of
// particles) is composited in several passes over consecutive draw positions, each blending over
// the image the one before left.
inline constexpr std::uint64_t kDefaultMaxEntriesPerPass = std::uint64_t{1} << 26;
// The binning sort: CUB's onesweep radix sort, which bench/composite_bench compares with ours.
inline constexpr SortAlgorithm kDefaultBinning = SortAlgorithm::cub;

class TileCompositor {
 public:
  // binning: the stable sort of the entries by tile (step 4), any of the sort library's.
  explicit TileCompositor(std::uint64_t max_entries_per_pass = kDefaultMaxEntriesPerPass,
                          SortAlgorithm binning = kDefaultBinning)
      : max_entries_per_pass_(max_entries_per_pass), binning_(binning) {}

  // Enqueues the composite of vertices[order[0..count)] on `stream` (device pointers) and waits
  // for the scan's total (step 2). background: premultiplied RGBA8 (premultiplied_background).
  // sprite_scales: null (every sprite the camera's size), or one per vertex.
  void composite(cudaStream_t stream, const ParticleVertex* vertices, const float* sprite_scales,
                 const std::uint32_t* order, std::uint32_t count, const SpriteCamera& camera,
                 std::uint32_t background, const CompositeOutput& output);

  // GPU time of an earlier composite, once it has finished (never waits): the value passed as
  // `frame` to set_frame() before it, and its milliseconds from the first step to the last.
  struct Timing {
    std::int64_t frame = -1;
    float ms = 0.0f;
  };
  std::optional<Timing> poll_timing();
  // Drops the timings not yet read (a reset: their frame numbers belong to the frames before it).
  void forget_timings() {
    for (TimingSlot& slot : timing_) slot.pending = false;
  }
  void set_frame(std::int64_t frame) { frame_ = frame; }

  // Entries (tile, sprite) of the last composite: what its binning sorted.
  std::uint64_t last_entries() const { return last_entries_; }
  // The longest tile list of the last composite's last pass (waits for the stream): what bounds
  // its blend, one block walking that list.
  std::uint32_t longest_tile_list(cudaStream_t stream) const;
  // Passes the last composite took (1 unless its entries exceeded max_entries_per_pass).
  std::size_t last_passes() const { return last_passes_; }

 private:
  void reserve_sprites(std::uint32_t count);
  void reserve_entries(std::size_t entries);
  void reserve_tiles(std::size_t tiles);
  std::size_t entries_capacity() const { return entry_tiles_.size(); }

  // By draw position: the projected sprite's window position, 2 / size and alpha; its colour;
  // how many tiles it touches, then (scanned in place) its first entry.
  DeviceBuffer<float4> sprite_geometry_;
  DeviceBuffer<std::uint32_t> sprite_colors_;
  DeviceBuffer<std::uint64_t> sprite_offsets_;  // count + 1: the last is the total
  // Entries: tile (the sort key) and draw position; the sorter sorts them in place.
  DeviceBuffer<std::uint32_t> entry_tiles_;
  DeviceBuffer<std::uint32_t> entry_sprites_;
  std::unique_ptr<Sorter> sorter_;           // made for the entry capacity
  DeviceBuffer<uint2> tile_ranges_;          // [begin, end) into the sorted entries, by tile
  DeviceBuffer<std::uint32_t> heavy_tiles_;  // tiles with long lists (blend_kernel), and their
  DeviceBuffer<std::uint32_t> heavy_count_;  // count
  // The heavy tiles' band lists (blend_kernel): each sorted entry's bands, the band kernels'
  // counts per block (scanned in place), the band lists and each heavy tile's ranges in them.
  DeviceBuffer<std::uint8_t> band_masks_;
  DeviceBuffer<std::uint32_t> band_chunk_offsets_;
  DeviceBuffer<std::uint32_t> band_sprites_;  // the entry capacity times the bands
  DeviceBuffer<uint2> band_ranges_;           // [tile * bands + band]
  DeviceBuffer<unsigned char> band_scan_workspace_;
  DeviceBuffer<unsigned char> scan_workspace_;
  std::uint64_t max_entries_per_pass_;
  SortAlgorithm binning_;
  std::uint64_t last_entries_ = 0;
  std::size_t last_passes_ = 0;

  // Two timing event pairs in turn: a pair is reused only once its composite was read.
  struct TimingSlot {
    Event start = Event::create(true);
    Event end = Event::create(true);
    std::int64_t frame = -1;
    bool pending = false;
  };
  TimingSlot timing_[2];
  int next_timing_ = 0;
  std::int64_t frame_ = -1;
};

}  // namespace particles::cuda
