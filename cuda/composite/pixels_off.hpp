#pragma once
// The order error that follows the picture (core/pixels_off.hpp) counted on the GPU, from the two
// linear float images the TileCompositor leaves (premultiplied, rows bottom first), each pixel
// judged by the CPU count's own pixel_verdict (core/pixel_verdict.hpp). Nothing here waits for
// the GPU unless asked: a count is enqueued on a stream and read back later.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <optional>

#include "core/composite/pixel.hpp"
#include "core/pixels_off.hpp"
#include "cuda/common/cuda_handles.hpp"
#include "cuda/common/device_buffer.hpp"

namespace particles::cuda {

// Lit pixels in the high half, off pixels in the low half: one word, so that each block adds
// its two counts with one atomic. An image has fewer than 2^32 pixels (enqueue_count_pixels_off
// refuses more), so the low half never carries into the high one.
using PackedPixelsOff = unsigned long long;

PixelsOff unpack_pixels_off(PackedPixelsOff packed);

// Zeroes `*counts` (device memory), then adds the counts of `pixels` pixels of `a` and `b`
// (device memory) into it, enqueued on `stream`. background: premultiplied.
void enqueue_count_pixels_off(const PixelF* a, const PixelF* b, std::size_t pixels,
                              const PixelF& background, PackedPixelsOff* counts,
                              cudaStream_t stream);

// Counts on their way back to the host: each enqueued count is copied into pinned memory behind
// an event, and read once it has arrived, in the order they were made (as the compositor's
// timings are). A few may be in flight; a count enqueued while every slot still holds one unread
// is not made (the reader has fallen behind; the next one is).
class PixelsOffCounter {
 public:
  PixelsOffCounter();

  // Enqueues a count of a against b on `stream`; never waits. False when no slot was free.
  bool enqueue(const PixelF* a, const PixelF* b, std::size_t pixels, const PixelF& background,
               cudaStream_t stream);
  // The oldest count that has arrived and was not read yet; never waits.
  std::optional<PixelsOff> poll();
  // Waits for the newest count enqueued and returns it, dropping any older ones unread (a caller
  // that waits wants this one). Nullopt when none is pending.
  std::optional<PixelsOff> wait_newest();
  // Drops the counts not read yet (a reset: they measured the frames before it).
  void forget();

 private:
  struct Slot {
    Event arrived = Event::create();
    std::uint64_t sequence = 0;  // the order counts were enqueued in
    bool pending = false;
  };
  static constexpr int kSlots = 4;
  Slot slots_[kSlots];
  DeviceBuffer<PackedPixelsOff> counts_{1};  // reused: the stream orders the counts
  PinnedBuffer<PackedPixelsOff> arrived_{kSlots};
  std::uint64_t enqueued_ = 0;
};

}  // namespace particles::cuda
