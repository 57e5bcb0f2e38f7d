#pragma once
// The tile compositor: the frame's particles, in its draw order (far first), composited into a
// float image by CUDA kernels over the whole GPU, with the sprite math GL's shaders use
// (core/composite/sprite.hpp), nearest first in float (core/composite/front_to_back.hpp). It
// reads the order whatever made it (any sort, or none), so an unsorted frame looks as wrong as it
// does under GL.
//
// A composite runs these steps on the caller's stream:
//  1. project: each draw position's sprite (window position, size, alpha; clipped ones dropped)
//     and the number of screen tiles (core/composite/tile_grid.hpp) its pixels may touch;
//  2. an exclusive scan of those counts, each sprite's first entry in the frame's numbering of
//     them all, and the total, which goes back to the host without a wait (a later composite
//     reads it, and sizes its binning from it with a quarter's headroom);
//  3. emit one (tile, draw position) entry per touched tile, in draw order, the binned length
//     padded past the total with a key after every tile;
//  4. a stable radix sort of the entries by tile, so each tile's list keeps the draw order, and
//     each tile's range in the sorted list;
//  5. the work items: each tile's list in chunks of at most kBlendChunk entries (one for an empty
//     tile), counted, scanned and listed on the device, every tile's nearest chunk first;
//  6. blend: a block per work item, a thread per pixel, taking the chunk's sprites nearest first
//     until the pixel's transmittance is negligible; a chunk that closes every pixel of its tile
//     on its own stops the tile's farther chunks; a tile of several chunks is summed by the
//     block that finishes its last.
// Nothing waits for the GPU, except a compositor's first composite (for its first total). A frame
// whose entries outgrow what was binned (more than the headroom in one frame) writes nothing: the
// image keeps the frame before, and complete() says so, for whoever must have this frame's.
// Its CPU twin is core/composite/cpu_compositor.hpp; the two agree bit for bit where a tile's
// list is one chunk, and within float rounding (far below 1/255) where it is several.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "core/composite/pixel.hpp"
#include "core/composite/sprite.hpp"
#include "core/particle.hpp"
#include "cuda/common/cuda_handles.hpp"
#include "cuda/common/device_buffer.hpp"
#include "cuda/sort/sorter.hpp"

namespace particles::cuda {

// Where the image goes: a CUDA surface over a GL_RGBA32F texture (the app), or linear device
// memory of width * height float pixels, rows bottom first (tests, the comparison view).
struct CompositeOutput {
  cudaSurfaceObject_t surface = 0;  // used when non-zero
  PixelF* pixels = nullptr;
};

// Entries one pass of the binning sorts at most (their memory: 16 bytes each); a frame that
// needs more (huge sprites over millions of particles) is composited in several passes over
// consecutive windows of its entries, each blending over the image the one before left.
inline constexpr std::uint64_t kDefaultMaxEntriesPerPass = std::uint64_t{1} << 26;
// A tile's list is blended in chunks of at most this many entries, a block each; a list of one
// chunk is taken in exactly the CPU twin's order of operations.
inline constexpr std::uint32_t kBlendChunk = 2048;
// The length of each of a tile's farther chunks, behind its nearest kBlendChunk entries.
inline constexpr std::uint32_t kBlendFartherChunk = 512;
// The binning sort: CUB's onesweep radix sort, which bench/composite_bench compares with ours.
inline constexpr Algorithm kDefaultBinning = Algorithm::cub;

class TileCompositor {
 public:
  // binning: the stable sort of the entries by tile (step 4), any of the sort library's.
  explicit TileCompositor(std::uint64_t max_entries_per_pass = kDefaultMaxEntriesPerPass,
                          Algorithm binning = kDefaultBinning)
      : max_entries_per_pass_(max_entries_per_pass), binning_(binning) {}

  // Enqueues the composite of vertices[order[0..count)] on `stream` (device pointers); waits
  // only the first time (step 2). background: premultiplied.
  // sprite_scales: null (every sprite the camera's size), or one per vertex.
  void composite(cudaStream_t stream, const ParticleVertex* vertices, const float* sprite_scales,
                 const std::uint32_t* order, std::uint32_t count, const SpriteCamera& camera,
                 const PixelF& background, const CompositeOutput& output);

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
  // The composites after set_frame(kUntimedFrame) take no timing: a measure's extra composites
  // (the order error's images) belong to no frame's time, and must not hold a timing slot.
  static constexpr std::int64_t kUntimedFrame = -1;

  // Entries (tile, sprite) of the last composite (waits for the stream).
  std::uint64_t last_entries(cudaStream_t stream) const;
  // Whether every composite since the last call drew its frame (waits for the stream). False:
  // one's entries outgrew its binning, its image holds what it held before, and the next
  // composite is sized to fit that frame.
  bool complete(cudaStream_t stream);
  // Composites so far found (from their reports) to have outgrown their binning.
  std::uint64_t overflowed() const { return overflowed_; }
  // The longest tile list of the last composite's last pass (waits for the stream).
  std::uint32_t longest_tile_list(cudaStream_t stream) const;
  // Passes the last composite took (1 unless its binning exceeded max_entries_per_pass).
  std::size_t last_passes() const { return last_passes_; }

 private:
  void reserve_sprites(std::uint32_t count);
  void reserve_entries(std::size_t entries, cudaStream_t stream);
  void take_reports();
  void reserve_tiles(std::size_t tiles);
  void reserve_work_items(std::size_t items);
  std::size_t entries_capacity() const { return entry_tiles_.size(); }

  // By draw position: the projected sprite's window position, 2 / size and alpha; its colour;
  // how many tiles it touches, then (scanned in place) its first entry.
  DeviceBuffer<float4> sprite_geometry_;
  DeviceBuffer<std::uint32_t> sprite_colors_;
  DeviceBuffer<std::uint64_t> sprite_offsets_;  // count + 1: the last is the total
  // Entries: tile (the sort key) and draw position; the sorter sorts them in place.
  DeviceBuffer<std::uint32_t> entry_tiles_;
  DeviceBuffer<std::uint32_t> entry_sprites_;
  std::unique_ptr<Sorter> sorter_;   // made for the entry capacity
  DeviceBuffer<uint2> tile_ranges_;  // [begin, end) into the sorted entries, by tile
  // Per tile (and one more: the total), its first further chunk's place among the further chunks
  // (the work items' order: tile_work_items.cuh, chunk_item); the items (tile, chunk); each item's
  // sums, where its tile has several chunks; per tile, its chunks finished in this pass, and the
  // nearest chunk that closed all its pixels on its own (~0u: none yet).
  DeviceBuffer<std::uint32_t> first_extra_chunk_;
  DeviceBuffer<uint2> work_items_;
  DeviceBuffer<float4> partial_sums_;
  DeviceBuffer<std::uint32_t> chunks_done_;
  DeviceBuffer<std::uint32_t> hidden_from_;
  DeviceBuffer<unsigned char> chunk_scan_workspace_;
  DeviceBuffer<std::uint32_t> incomplete_;  // set by a blend that found its frame outgrew it
  DeviceBuffer<unsigned char> scan_workspace_;
  std::uint64_t max_entries_per_pass_;
  Algorithm binning_;
  std::size_t last_passes_ = 0;
  std::uint64_t last_binned_ = 0;
  std::uint32_t last_count_ = 0;

  // The frames' totals on their way back (step 2), each with the entries its frame binned.
  struct Report {
    Event done = Event::create(true);
    std::uint64_t binned = 0;
    std::uint64_t sequence = 0;  // the order reports were made in
    bool pending = false;
  };
  static constexpr int kReports = 4;
  Report reports_[kReports];
  PinnedBuffer<std::uint64_t> reported_totals_{kReports};
  std::uint64_t reports_made_ = 0, newest_report_ = 0;
  std::optional<std::uint64_t> expected_entries_;  // the newest total reported
  std::uint64_t overflowed_ = 0;

  // Two timing event pairs in turn: a pair is reused only once its composite was read.
  struct TimingSlot {
    Event start = Event::create(true);
    Event end = Event::create(true);
    std::int64_t frame = -1;
    bool pending = false;
  };
  TimingSlot timing_[2];
  int next_timing_ = 0;
  std::int64_t frame_ = kUntimedFrame;
};

}  // namespace particles::cuda
