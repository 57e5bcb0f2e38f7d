#include "cuda/composite/pixels_off.hpp"

#include <cub/block/block_reduce.cuh>

#include <limits>
#include <stdexcept>
#include <string>

#include "core/pixel_verdict.hpp"
#include "cuda/common/check.hpp"
#include "cuda/common/launch_grid.hpp"

namespace particles::cuda {
namespace {

constexpr unsigned kCountThreads = 256;
// A few resident blocks an SM, each striding over the image: the per-pixel work is a handful
// of instructions, so fewer blocks mean fewer atomics at no cost in bandwidth.
constexpr unsigned kCountBlocksPerSm = 4;

__global__ void count_pixels_off_kernel(const PixelF* __restrict__ a, const PixelF* __restrict__ b,
                                        std::size_t pixels, std::uint32_t background,
                                        PackedPixelsOff* counts) {
  using BlockSum = cub::BlockReduce<PackedPixelsOff, kCountThreads>;
  __shared__ typename BlockSum::TempStorage scratch;
  PackedPixelsOff mine = 0;  // packed as the total is: a thread's counts cannot overflow a half
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < pixels;
       i += stride) {
    const PixelVerdict v = pixel_verdict(a[i], b[i], background);
    mine += (v.lit ? PackedPixelsOff{1} << 32 : 0) + (v.off ? 1 : 0);
  }
  const PackedPixelsOff block = BlockSum(scratch).Sum(mine);
  if (threadIdx.x == 0 && block != 0) atomicAdd(counts, block);
}

}  // namespace

PixelsOff unpack_pixels_off(PackedPixelsOff packed) {
  PixelsOff counts;
  counts.lit = packed >> 32;
  counts.off = packed & 0xffffffffull;
  return counts;
}

void enqueue_count_pixels_off(const PixelF* a, const PixelF* b, std::size_t pixels,
                              const PixelF& background, PackedPixelsOff* counts,
                              cudaStream_t stream) {
  if (pixels > std::numeric_limits<std::uint32_t>::max()) {
    throw std::invalid_argument("enqueue_count_pixels_off: " + std::to_string(pixels) +
                                " pixels do not fit the packed counts");
  }
  CUDA_CHECK(cudaMemsetAsync(counts, 0, sizeof(PackedPixelsOff), stream));
  if (pixels == 0) return;
  const unsigned blocks = detail::grid_stride_blocks(pixels, kCountThreads, kCountBlocksPerSm);
  count_pixels_off_kernel<<<blocks, kCountThreads, 0, stream>>>(a, b, pixels, rgba8_of(background),
                                                                counts);
  CUDA_CHECK_LAUNCH("count_pixels_off_kernel", stream);
}

PixelsOffCounter::PixelsOffCounter() = default;

bool PixelsOffCounter::enqueue(const PixelF* a, const PixelF* b, std::size_t pixels,
                               const PixelF& background, cudaStream_t stream) {
  for (int s = 0; s < kSlots; ++s) {
    Slot& slot = slots_[s];
    if (slot.pending) continue;
    enqueue_count_pixels_off(a, b, pixels, background, counts_.data(), stream);
    CUDA_CHECK(cudaMemcpyAsync(arrived_.data() + s, counts_.data(), sizeof(PackedPixelsOff),
                               cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaEventRecord(slot.arrived.get(), stream));
    slot.sequence = ++enqueued_;
    slot.pending = true;
    return true;
  }
  return false;
}

std::optional<PixelsOff> PixelsOffCounter::poll() {
  int oldest = -1;
  for (int s = 0; s < kSlots; ++s) {
    if (slots_[s].pending && (oldest < 0 || slots_[s].sequence < slots_[oldest].sequence)) {
      oldest = s;
    }
  }
  if (oldest < 0) return std::nullopt;
  const cudaError_t state = cudaEventQuery(slots_[oldest].arrived.get());
  if (state == cudaErrorNotReady) return std::nullopt;
  CUDA_CHECK(state);
  slots_[oldest].pending = false;
  return unpack_pixels_off(arrived_.data()[oldest]);
}

std::optional<PixelsOff> PixelsOffCounter::wait_newest() {
  int newest = -1;
  for (int s = 0; s < kSlots; ++s) {
    if (slots_[s].pending && (newest < 0 || slots_[s].sequence > slots_[newest].sequence)) {
      newest = s;
    }
  }
  if (newest < 0) return std::nullopt;
  CUDA_CHECK(cudaEventSynchronize(slots_[newest].arrived.get()));
  forget();  // the older ones arrived before it, on the same stream
  return unpack_pixels_off(arrived_.data()[newest]);
}

void PixelsOffCounter::forget() {
  for (Slot& slot : slots_) slot.pending = false;
}

}  // namespace particles::cuda
