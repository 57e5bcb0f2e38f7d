// The tile compositor's host side (tile_compositor.hpp has the steps): its buffers, reports and
// timings, and each composite's launches. The kernels are in tile_binning_kernels.cuh,
// tile_work_items.cuh and tile_blend_kernel.cuh.
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
#include "cuda/composite/tile_binning_kernels.cuh"
#include "cuda/composite/tile_blend_kernel.cuh"
#include "cuda/composite/tile_kernel_shapes.cuh"
#include "cuda/composite/tile_work_items.cuh"

namespace particles::cuda {
namespace {

unsigned blocks_for(std::uint64_t items, int threads) {
  return static_cast<unsigned>((items + static_cast<std::uint64_t>(threads) - 1) /
                               static_cast<std::uint64_t>(threads));
}

int bits_for(std::size_t values) {  // bits that hold 0 .. values - 1
  int bits = 1;
  while ((std::size_t{1} << bits) < values) ++bits;
  return bits;
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
