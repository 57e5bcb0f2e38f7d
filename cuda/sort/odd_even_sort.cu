// Odd-even merge-split sort: odd-even transposition generalised from elements to tiles.
//   1. every tile of kBlockSortTile pairs is sorted in shared memory (stable block radix sort);
//   2. phases alternate merge-splits of even pairs of neighbouring tiles (0|1, 2|3, ...) and odd
//      pairs (1|2, 3|4, ...); a merge-split leaves the smaller half, stably, in the left tile;
//   3. when a whole round (an even and an odd phase in a row) changes nothing, every tile is sorted
//      and every boundary ordered: done.
// All of it runs in one cooperative kernel whose blocks meet at grid barriers between phases, so
// the convergence test happens on the device with no host round trip. After kOddEvenPhaseCap
// phases without convergence the radix sort finishes (its kernels run only if the status says
// so), which keeps the result exact on any input.
//
// A merge-split first checks A's last key against B's first (no change: nothing to do, the common
// case once converged), then tries to merge only a window of kOddEvenWindow keys each side of the
// boundary; the full tiles are merged only when the window cannot hold the exchange.
#include <cooperative_groups.h>

#include <algorithm>

#include "cuda/check.hpp"
#include "cuda/detail/device_buffer.hpp"
#include "cuda/sort/block_radix.cuh"
#include "cuda/sort/merge.hpp"
#include "cuda/sort/radix_engine.hpp"
#include "cuda/sort/sorters_internal.hpp"

namespace particles::cuda::detail {
namespace {

namespace cg = cooperative_groups;

constexpr int kThreads = kBlockSortThreads;
constexpr int kItems = kBlockSortItems;
constexpr int kTile = kBlockSortTile;
constexpr int kMergeOutputsPerThread = 2 * kItems;  // a full merge has 2 tiles of outputs

using Rank = BlockRadixRank<kThreads, kItems>;

struct TileSortShared {
  Rank::Storage rank;
  std::uint32_t warp_min[Rank::kWarps];
  std::uint32_t warp_max[Rank::kWarps];
  std::uint32_t keys[kTile];
  std::uint32_t values[kTile];
};
struct MergeShared {
  std::uint32_t keys[2 * kTile];
  std::uint32_t values[2 * kTile];
};
constexpr std::size_t kSharedBytes = std::max(sizeof(TileSortShared), sizeof(MergeShared));

struct OddEvenArgs {
  std::uint32_t* keys;
  std::uint32_t* values;
  std::uint32_t n;
  KeyBits bits;
  std::int32_t* phase_changed;  // [kOddEvenPhaseCap], zeroed before launch
  OddEvenStatus* status;
};

__device__ void sort_tile(const OddEvenArgs& a, std::uint32_t tile, TileSortShared& sh) {
  const std::uint32_t start = tile * kTile;
  std::uint32_t keys[kItems], values[kItems];
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const std::uint32_t idx = start + static_cast<std::uint32_t>(Rank::striped_index(i));
    keys[i] = idx < a.n ? a.keys[idx] : 0xffffffffu;
    values[i] = idx < a.n ? a.values[idx] : 0u;
  }
  // Sort only by the key bits that vary inside the tile: every key of the tile lies in
  // [min, max], so all share the bits above the highest bit of min ^ max and the order is decided
  // below it. Nearly sorted tiles span a narrow range (fewer 8-bit passes); a constant tile is
  // already sorted (the sort is stable).
  std::uint32_t lo = 0xffffffffu, hi = 0;
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const std::uint32_t idx = start + static_cast<std::uint32_t>(Rank::striped_index(i));
    if (idx < a.n) {
      lo = min(lo, a.bits(keys[i]));
      hi = max(hi, a.bits(keys[i]));
    }
  }
  lo = __reduce_min_sync(kFullMask, lo);
  hi = __reduce_max_sync(kFullMask, hi);
  if (lane_id() == 0) {
    sh.warp_min[warp_id()] = lo;
    sh.warp_max[warp_id()] = hi;
  }
  __syncthreads();
  for (int w = 0; w < Rank::kWarps; ++w) {
    lo = min(lo, sh.warp_min[w]);
    hi = max(hi, sh.warp_max[w]);
  }
  __syncthreads();  // the next tile of this block rewrites warp_min / warp_max
  const std::uint32_t differ = lo ^ hi;
  if (differ == 0) return;
  const int width = 32 - __clz(static_cast<int>(differ));
  const KeyBits tile_bits{a.bits.begin_bit, a.bits.begin_bit + width};
  block_sort_pairs<kThreads, kItems>(keys, values, tile_bits, sh.rank, sh.keys, sh.values);
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const std::uint32_t idx = start + static_cast<std::uint32_t>(Rank::striped_index(i));
    if (idx < a.n) {
      a.keys[idx] = keys[i];
      a.values[idx] = values[i];
    }
  }
}

// Merge-split of tile `left` with tile left + 1. Returns whether anything moved. Block-uniform.
__device__ bool merge_split(const OddEvenArgs& a, std::uint32_t left, MergeShared& sh) {
  const std::uint32_t a_start = left * kTile;
  const std::uint32_t b_start = a_start + kTile;
  const int a_len = kTile;
  const int b_len = static_cast<int>(min(static_cast<std::uint32_t>(kTile), a.n - b_start));
  const KeyBits bits = a.bits;
  auto global_a = [&](int i) { return bits(a.keys[a_start + static_cast<std::uint32_t>(i)]); };
  auto global_b = [&](int j) { return bits(a.keys[b_start + static_cast<std::uint32_t>(j)]); };
  if (global_a(a_len - 1) <= global_b(0)) return false;
  const MergeWindow w = merge_split_window(global_a, a_len, global_b, b_len, kOddEvenWindow);
  const int total = w.a_count + w.b_count;
  // A immediately precedes B, so the window is one contiguous range.
  const std::uint32_t first = b_start - static_cast<std::uint32_t>(w.a_count);
  for (int i = static_cast<int>(threadIdx.x); i < total; i += kThreads) {
    sh.keys[i] = a.keys[first + static_cast<std::uint32_t>(i)];
    sh.values[i] = a.values[first + static_cast<std::uint32_t>(i)];
  }
  __syncthreads();
  const int per = (total + kThreads - 1) / kThreads;
  const int diag = min(static_cast<int>(threadIdx.x) * per, total);
  const int end = min(diag + per, total);
  auto shared_a = [&](int i) { return bits(sh.keys[i]); };
  auto shared_b = [&](int j) { return bits(sh.keys[w.a_count + j]); };
  int i = merge_path(shared_a, w.a_count, shared_b, w.b_count, diag);
  int j = diag - i;
  std::uint32_t out_keys[kMergeOutputsPerThread], out_values[kMergeOutputsPerThread];
#pragma unroll
  for (int o = 0; o < kMergeOutputsPerThread; ++o) {
    if (diag + o < end) {
      const int from =
          merge_takes_a(shared_a, w.a_count, shared_b, w.b_count, i, j) ? i++ : w.a_count + j++;
      out_keys[o] = sh.keys[from];
      out_values[o] = sh.values[from];
    }
  }
  __syncthreads();
#pragma unroll
  for (int o = 0; o < kMergeOutputsPerThread; ++o) {
    if (diag + o < end) {
      sh.keys[diag + o] = out_keys[o];
      sh.values[diag + o] = out_values[o];
    }
  }
  __syncthreads();
  for (int k = static_cast<int>(threadIdx.x); k < total; k += kThreads) {
    a.keys[first + static_cast<std::uint32_t>(k)] = sh.keys[k];
    a.values[first + static_cast<std::uint32_t>(k)] = sh.values[k];
  }
  __syncthreads();  // shared memory is reused by the next merge of this block
  return true;
}

__global__ void __launch_bounds__(kThreads) odd_even_kernel(OddEvenArgs a) {
  extern __shared__ uint4 shared_raw[];
  cg::grid_group grid = cg::this_grid();
  const std::uint32_t tiles = (a.n + kTile - 1) / kTile;

  for (std::uint32_t t = blockIdx.x; t < tiles; t += gridDim.x)
    sort_tile(a, t, *reinterpret_cast<TileSortShared*>(shared_raw));
  grid.sync();

  auto& merge_shared = *reinterpret_cast<MergeShared*>(shared_raw);
  bool converged = tiles <= 1;
  int phases = 0;
  std::int32_t previous_changed = 1;
  for (int phase = 0; !converged && phase < kOddEvenPhaseCap; ++phase) {
    const std::uint32_t parity = static_cast<std::uint32_t>(phase & 1);
    bool changed = false;
    for (std::uint32_t left = 2 * blockIdx.x + parity; left + 1 < tiles; left += 2 * gridDim.x)
      changed |= merge_split(a, left, merge_shared);
    if (changed && threadIdx.x == 0) atomicOr(&a.phase_changed[phase], 1);
    grid.sync();  // also orders every block's writes of this phase before the next phase's reads
    const std::int32_t now_changed = *static_cast<volatile std::int32_t*>(&a.phase_changed[phase]);
    phases = phase + 1;
    // Every block reads the same flags after the barrier, so all leave the loop together.
    if (phase >= 1 && now_changed == 0 && previous_changed == 0) converged = true;
    previous_changed = now_changed;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    a.status->converged = converged ? 1 : 0;
    a.status->phases = phases;
    a.status->fell_back = converged ? 0 : 1;
    a.status->reserved = 0;
  }
}

__global__ void mark_converged_kernel(OddEvenStatus* status) {
  status->converged = 1;
}

class OddEvenSorterImpl final : public OddEvenSorter {
 public:
  explicit OddEvenSorterImpl(std::size_t capacity)
      : capacity_(capacity), fallback_(capacity), state_(4 + kOddEvenPhaseCap) {
    CUDA_CHECK(cudaFuncSetAttribute(odd_even_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(kSharedBytes)));
    int device = 0, sms = 0, per_sm = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, odd_even_kernel, kThreads,
                                                             kSharedBytes));
    if (per_sm < 1) throw std::runtime_error("odd-even kernel cannot be resident on this device");
    max_resident_blocks_ = static_cast<std::size_t>(per_sm) * static_cast<std::size_t>(sms);
  }
  SortAlgorithm algorithm() const override { return SortAlgorithm::oddeven; }
  std::size_t capacity() const override { return capacity_; }
  const OddEvenStatus* device_status() const override {
    return reinterpret_cast<const OddEvenStatus*>(state_.data());
  }

  void sort(std::uint32_t* keys, std::uint32_t* values, std::size_t n, int begin_bit, int end_bit,
            cudaStream_t stream) override {
    check_sort_arguments(n, capacity_, begin_bit, end_bit);
    // status (converged, phases, fell_back) and the per-phase change flags start at zero
    CUDA_CHECK(cudaMemsetAsync(state_.data(), 0, state_.size_bytes(), stream));
    auto* status = reinterpret_cast<OddEvenStatus*>(state_.data());
    if (n < 2 || begin_bit == end_bit) {
      mark_converged_kernel<<<1, 1, 0, stream>>>(status);  // nothing to sort: 0 phases
      CUDA_CHECK_LAUNCH("mark_converged_kernel");
      return;
    }
    const std::size_t tiles = (n + kTile - 1) / kTile;
    // One block per tile is the most the tile sort can use (the merge phases use half); the
    // grid must also be resident all at once for the grid barrier (the cooperative launch
    // enforces it).
    const std::size_t blocks = std::max<std::size_t>(1, std::min(max_resident_blocks_, tiles));
    OddEvenArgs args{keys,
                     values,
                     static_cast<std::uint32_t>(n),
                     KeyBits{begin_bit, end_bit},
                     state_.data() + 4,
                     status};
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(static_cast<unsigned>(blocks));
    config.blockDim = dim3(kThreads);
    config.dynamicSmemBytes = kSharedBytes;
    config.stream = stream;
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeCooperative;
    attribute.val.cooperative = 1;
    config.attrs = &attribute;
    config.numAttrs = 1;
    CUDA_CHECK(cudaLaunchKernelEx(&config, odd_even_kernel, args));
    CUDA_CHECK_LAUNCH("odd_even_kernel");
    // Exact on any input: the radix sort runs only where the status says the cap was reached.
    fallback_.sort(keys, values, n, begin_bit, end_bit, stream, &status->fell_back);
  }

 private:
  std::size_t capacity_;
  RadixSortEngine fallback_;
  DeviceBuffer<std::int32_t> state_;  // OddEvenStatus (4 ints) | phase flags
  std::size_t max_resident_blocks_ = 0;
};

}  // namespace

std::unique_ptr<OddEvenSorter> make_odd_even_sorter_impl(std::size_t capacity) {
  return std::make_unique<OddEvenSorterImpl>(capacity);
}

}  // namespace particles::cuda::detail
