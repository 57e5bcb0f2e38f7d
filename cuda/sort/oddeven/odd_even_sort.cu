// Odd-even merge-split sort for nearly sorted input. Two paths, chosen on the device (no host
// sync), each launched every sort and each doing nothing when the other did the work:
//   - the window path (odd_even_window.cuh): two plain kernels of one block per tile check that
//     every key lies within a chunk or so of its place and, if so, sort each tile together with
//     a halo chunk of each neighbour in shared memory, writing the tile's own range in place.
//     No grid barrier, so the grid is one block per tile rather than the resident blocks;
//   - the exact kernel below, when the window check failed (or the input is one tile): one
//     cooperative kernel (one launch, on a branch beside the window sort kernel, so nothing is
//     paid for a fallback that does not run) running exact_merge_sort.cuh's sort on a grid
//     schedule: sorted tiles, then one round of merge-splits when every key lies within about
//     half a tile of its place, else pairwise merges; exact and stable on any input.
#include <algorithm>

#include "cuda/common/check.hpp"
#include "cuda/common/cuda_handles.hpp"
#include "cuda/common/device_buffer.hpp"
#include "cuda/common/dynamic_shared.cuh"
#include "cuda/common/warp.cuh"
#include "cuda/sort/block/merge.hpp"
#include "cuda/sort/copy_kernels.cuh"
#include "cuda/sort/oddeven/exact_merge_sort.cuh"
#include "cuda/sort/oddeven/odd_even_window.cuh"
#include "cuda/sort/sorters_internal.hpp"

namespace particles::cuda::detail {
namespace {

constexpr int kThreads = exact::kThreads;
constexpr int kTile = exact::kTile;
constexpr std::size_t kSharedBytes = exact::kSharedBytes;

// The exact sort's kernel arguments: the sort's, and the words that turn it off.
struct OddEvenArgs {
  exact::Args sort;
  OddEvenStatus* status;
  const std::uint32_t* enable;        // when not null, the kernel does nothing unless *enable != 0
  const std::int32_t* caller_enable;  // the same, the caller's (SortRequest::enable)
};

__global__ void __launch_bounds__(kThreads, 2) odd_even_kernel(OddEvenArgs a) {
  if (detail::disabled(a.caller_enable)) return;
  if (a.enable != nullptr && *a.enable == 0) return;  // the window path sorted it
  exact::GridSchedule schedule;
  const OddEvenStatus status = exact::sort(a.sort, schedule);
  if (blockIdx.x == 0 && threadIdx.x == 0) *a.status = status;
}

__global__ void mark_converged_kernel(OddEvenStatus* status) {
  *status = OddEvenStatus{1, 0, 0, 0};
}

std::size_t window_tiles(std::size_t n) {
  return (n + window::kTile - 1) / window::kTile;
}

class OddEvenSorterImpl final : public OddEvenSorter {
 public:
  explicit OddEvenSorterImpl(std::size_t capacity)
      : capacity_(capacity),
        scratch_keys_(std::max<std::size_t>(capacity, 1)),
        scratch_values_(std::max<std::size_t>(capacity, 1)),
        ends_(std::max<std::size_t>((capacity + kTile - 1) / kTile, 1)),
        edge_keys_(window_tiles(std::max<std::size_t>(capacity, 1)) * 2 * window::kChunk),
        edge_values_(edge_keys_.size()),
        control_(3),
        status_(1) {
    CUDA_CHECK(cudaFuncSetAttribute(window::window_sort_kernel,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(window::kSharedBytes)));
    CUDA_CHECK(cudaFuncSetAttribute(odd_even_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(kSharedBytes)));
    int device = 0, sms = 0, per_sm = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, odd_even_kernel, kThreads,
                                                             kSharedBytes));
    if (per_sm < 1) throw std::runtime_error("odd-even kernel cannot be resident on this device");
    max_resident_blocks_ = static_cast<std::size_t>(per_sm) * static_cast<std::size_t>(sms);
    // Valid before the first sort, for callers that read it early; the window path's words start
    // (and are left by every sort) at zero.
    CUDA_CHECK(cudaMemset(status_.data(), 0, status_.size_bytes()));
    CUDA_CHECK(cudaMemset(control_.data(), 0, control_.size_bytes()));
  }
  Algorithm algorithm() const override { return Algorithm::oddeven; }
  std::size_t capacity() const override { return capacity_; }
  SorterTraits traits() const override { return {.enable = true}; }
  const OddEvenStatus* device_status() const override { return status_.data(); }

 private:
  void enqueue(const SortRequest& request, cudaStream_t stream) override {
    std::uint32_t* keys = request.keys;
    std::uint32_t* values = request.values;
    const std::size_t n = request.n;
    const int begin_bit = request.begin_bit;
    const int end_bit = request.end_bit;
    const std::int32_t* enable = request.enable;
    if (!has_work(n, begin_bit, end_bit, stream)) return;
    const std::size_t tiles = (n + kTile - 1) / kTile;
    OddEvenArgs args = exact_args(keys, values, n, begin_bit, end_bit, enable);
    if (tiles > 1) {
      // The window path first; the exact kernel then runs only if the window check failed.
      window::Args w{keys,
                     values,
                     edge_keys_.data(),
                     edge_values_.data(),
                     static_cast<std::uint32_t>(n),
                     KeyBits{begin_bit, end_bit},
                     control_.data(),
                     control_.data() + 1,
                     control_.data() + 2,
                     status_.data(),
                     enable};
      const dim3 window_grid(static_cast<unsigned>(window_tiles(n)));
      window::window_check_kernel<<<window_grid, window::kCheckThreads, 0, stream>>>(w);
      CUDA_CHECK_LAUNCH("window_check_kernel", stream);
      // The exact kernel needs only the check's verdict: it goes on a branch that joins after the
      // sort kernel, so its launch (empty when the check passed) costs the path nothing.
      CUDA_CHECK(cudaEventRecord(checked_.get(), stream));
      CUDA_CHECK(cudaStreamWaitEvent(branch_.get(), checked_.get(), 0));
      args.enable = control_.data() + 2;
      launch_exact(args, exact_blocks(tiles), branch_.get());
      CUDA_CHECK(cudaEventRecord(exact_done_.get(), branch_.get()));
      cudaLaunchConfig_t sort_config{};
      sort_config.gridDim = window_grid;
      sort_config.blockDim = dim3(window::kThreads);
      sort_config.dynamicSmemBytes = window::kSharedBytes;
      sort_config.stream = stream;
      cudaLaunchAttribute early{};  // starts while the check kernel finishes (it waits for it)
      early.id = cudaLaunchAttributeProgrammaticStreamSerialization;
      early.val.programmaticStreamSerializationAllowed = 1;
      sort_config.attrs = &early;
      sort_config.numAttrs = 1;
      CUDA_CHECK(cudaLaunchKernelEx(&sort_config, window::window_sort_kernel, w));
      CUDA_CHECK_LAUNCH("window_sort_kernel", stream);
      CUDA_CHECK(cudaStreamWaitEvent(stream, exact_done_.get(), 0));
    } else {
      launch_exact(args, exact_blocks(tiles), stream);
    }
  }

  // With nothing to sort, marks the status converged (0 phases) and says so.
  bool has_work(std::size_t n, int begin_bit, int end_bit, cudaStream_t stream) {
    if (n >= 2 && begin_bit != end_bit) return true;
    mark_converged_kernel<<<1, 1, 0, stream>>>(status_.data());
    CUDA_CHECK_LAUNCH("mark_converged_kernel", stream);
    return false;
  }

  // The exact kernel's arguments; `enable` is the caller's word (the window path adds its own).
  OddEvenArgs exact_args(std::uint32_t* keys, std::uint32_t* values, std::size_t n, int begin_bit,
                         int end_bit, const std::int32_t* enable) {
    return {{keys, values, scratch_keys_.data(), scratch_values_.data(), ends_.data(),
             static_cast<std::uint32_t>(n), KeyBits{begin_bit, end_bit}, nullptr, false},
            status_.data(),
            nullptr,
            enable};
  }

  // One block per tile is the most the tile sort can use; the grid must also be resident all at
  // once for the grid barrier (the cooperative launch enforces it).
  std::size_t exact_blocks(std::size_t tiles) const {
    return std::min(max_resident_blocks_, tiles);
  }

  // The exact kernel: a cooperative launch (its grid barriers need every block resident).
  static void launch_exact(const OddEvenArgs& args, std::size_t blocks, cudaStream_t stream) {
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(static_cast<unsigned>(blocks));
    config.blockDim = dim3(kThreads);
    config.dynamicSmemBytes = kSharedBytes;
    config.stream = stream;
    cudaLaunchAttribute cooperative{};
    cooperative.id = cudaLaunchAttributeCooperative;
    cooperative.val.cooperative = 1;
    config.attrs = &cooperative;
    config.numAttrs = 1;
    CUDA_CHECK(cudaLaunchKernelEx(&config, odd_even_kernel, args));
    CUDA_CHECK_LAUNCH("odd_even_kernel", stream);
  }

  std::size_t capacity_;
  DeviceBuffer<std::uint32_t> scratch_keys_;
  DeviceBuffer<std::uint32_t> scratch_values_;
  DeviceBuffer<TileEnds> ends_;
  DeviceBuffer<std::uint32_t> edge_keys_;  // the window path's halos
  DeviceBuffer<std::uint32_t> edge_values_;
  DeviceBuffer<std::uint32_t> control_;  // window path: Args words verdict, done, fallback
  DeviceBuffer<OddEvenStatus> status_;
  std::size_t max_resident_blocks_ = 0;
  Stream branch_ = Stream::create();  // the exact kernel's branch (joined before sort returns)
  Event checked_ = Event::create();
  Event exact_done_ = Event::create();
};

}  // namespace

std::unique_ptr<OddEvenSorter> make_odd_even_sorter_impl(std::size_t capacity) {
  return std::make_unique<OddEvenSorterImpl>(capacity);
}

}  // namespace particles::cuda::detail
