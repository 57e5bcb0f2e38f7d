// Our LSD radix sort: kernels, the engine that plans and launches them, and the radix Sorter.
// See radix_engine.hpp for the plan; block_radix.cuh for the ranking.
#include <cuda/atomic>

#include <algorithm>
#include <stdexcept>

#include "cuda/check.hpp"
#include "cuda/sort/block_radix.cuh"
#include "cuda/sort/copy_kernels.cuh"
#include "cuda/sort/radix_engine.hpp"
#include "cuda/sort/sorters_internal.hpp"

namespace particles::cuda {
namespace detail {
namespace {

// Look-back status word of one (tile, bucket): 2 flag bits over a 30-bit count, written and read
// as one 32-bit word so a reader never sees a count without its flag.
constexpr std::uint32_t kFlagAggregate = 1u << 30;  // count of this tile alone
constexpr std::uint32_t kFlagInclusive = 2u << 30;  // count of this tile and all before it
constexpr std::uint32_t kCountMask = (1u << 30) - 1u;
constexpr std::size_t kMaxPairs = kCountMask;  // counts must fit the 30 bits
constexpr int kMaxPasses = 32 / kRadixBits;

using StatusRef = ::cuda::atomic_ref<std::uint32_t, ::cuda::thread_scope_device>;

__device__ __forceinline__ bool disabled(const std::int32_t* enable) {
  return enable != nullptr && *enable == 0;
}

__global__ void __launch_bounds__(kHistogramThreads)
    radix_histogram_kernel(const std::uint32_t* keys, std::uint32_t n, int begin_bit, int end_bit,
                           std::uint32_t* hist, const std::int32_t* enable) {
  if (disabled(enable)) return;
  __shared__ std::uint32_t local[kMaxPasses][kRadixBuckets];
  const int passes = (end_bit - begin_bit + kRadixBits - 1) / kRadixBits;
  for (int i = static_cast<int>(threadIdx.x); i < kMaxPasses * kRadixBuckets;
       i += kHistogramThreads)
    (&local[0][0])[i] = 0;
  __syncthreads();
  auto count = [&](std::uint32_t key) {
#pragma unroll
    for (int p = 0; p < kMaxPasses; ++p) {
      if (p < passes) {
        const int shift = begin_bit + p * kRadixBits;
        const KeyBits digit{shift, std::min(shift + kRadixBits, end_bit)};
        atomicAdd(&local[p][digit(key)], 1u);
      }
    }
  };
  const std::uint32_t stride = gridDim.x * kHistogramThreads;
  const std::uint32_t first = blockIdx.x * kHistogramThreads + threadIdx.x;
  std::uint32_t tail_begin = 0;
  if (reinterpret_cast<std::uintptr_t>(keys) % 16 == 0) {  // 16-byte loads where aligned
    const std::uint32_t quads = n / 4;
    const uint4* keys4 = reinterpret_cast<const uint4*>(keys);
    for (std::uint32_t q = first; q < quads; q += stride) {
      const uint4 k = keys4[q];
      count(k.x);
      count(k.y);
      count(k.z);
      count(k.w);
    }
    tail_begin = quads * 4;
  }
  for (std::uint32_t i = tail_begin + first; i < n; i += stride) count(keys[i]);
  __syncthreads();
  for (int i = static_cast<int>(threadIdx.x); i < passes * kRadixBuckets; i += kHistogramThreads) {
    const std::uint32_t c = (&local[0][0])[i];
    if (c != 0) atomicAdd(&hist[i], c);
  }
}

struct OnesweepArgs {
  const std::uint32_t* keys_in;
  const std::uint32_t* values_in;
  std::uint32_t* keys_out;
  std::uint32_t* values_out;
  std::uint32_t n;
  int shift;
  int bits;                        // digit width of this pass, 1..8
  const std::uint32_t* pass_hist;  // [256] global digit counts of this pass
  std::uint32_t* tile_counter;
  std::uint32_t* status;  // [tiles][256]
  const std::int32_t* enable;
};

template <int Threads, int Items>
struct OnesweepShared {
  typename BlockRadixRank<Threads, Items>::Storage rank;
  std::uint32_t global_base[kRadixBuckets];  // output index of tile position j is base[d] + j
  std::uint32_t tile;
  std::uint32_t tile_buffer[Threads * Items];
};

template <int Threads, int Items>
__global__ void __launch_bounds__(Threads) radix_onesweep_kernel(OnesweepArgs a) {
  using Rank = BlockRadixRank<Threads, Items>;
  constexpr int kTile = Threads * Items;
  extern __shared__ uint4 shared_raw[];
  auto& sh = *reinterpret_cast<OnesweepShared<Threads, Items>*>(shared_raw);
  if (disabled(a.enable)) return;

  // Tiles are numbered in the order blocks start, so every tile this one waits for in the
  // look-back is already running: no deadlock whatever the scheduler does.
  if (threadIdx.x == 0) sh.tile = atomicAdd(a.tile_counter, 1u);
  __syncthreads();
  const std::uint32_t tile = sh.tile;
  const std::uint32_t tile_start = tile * kTile;
  const std::uint32_t valid = min(static_cast<std::uint32_t>(kTile), a.n - tile_start);
  const KeyBits digit_bits{a.shift, a.shift + a.bits};

  std::uint32_t keys[Items], values[Items], digit[Items], rank[Items];
#pragma unroll
  for (int i = 0; i < Items; ++i) {
    const std::uint32_t idx = tile_start + static_cast<std::uint32_t>(Rank::striped_index(i));
    keys[i] = idx < a.n ? a.keys_in[idx] : 0xffffffffu;  // padding sorts last
    values[i] = idx < a.n ? a.values_in[idx] : 0u;
    digit[i] = digit_bits(keys[i]);
  }

  const std::uint32_t global_count = threadIdx.x < kRadixBuckets ? a.pass_hist[threadIdx.x] : 0u;
  const std::uint32_t global_start =
      block_exclusive_sum_256(global_count, sh.rank.scan_scratch, &sh.rank.scan_total);
  Rank::rank(digit, rank, sh.rank);

  const std::uint32_t used_buckets = 1u << a.bits;
  if (threadIdx.x < used_buckets) {
    const std::uint32_t d = threadIdx.x;
    std::uint32_t count = sh.rank.bucket_count[d];
    if (d == used_buckets - 1) count -= kTile - valid;  // padding is all in the top bucket
    StatusRef mine(a.status[static_cast<std::size_t>(tile) * kRadixBuckets + d]);
    std::uint32_t exclusive = 0;
    if (tile == 0) {
      mine.store(kFlagInclusive | count, ::cuda::memory_order_relaxed);
    } else {
      mine.store(kFlagAggregate | count, ::cuda::memory_order_relaxed);
      // Decoupled look-back: add aggregates of earlier tiles until one publishes an inclusive
      // prefix. Flag and count travel in one word, so relaxed loads suffice.
      for (std::uint32_t k = tile - 1;;) {
        StatusRef other(a.status[static_cast<std::size_t>(k) * kRadixBuckets + d]);
        const std::uint32_t word = other.load(::cuda::memory_order_relaxed);
        if ((word & ~kCountMask) == 0) continue;  // not published yet: spin
        exclusive += word & kCountMask;
        if (word & kFlagInclusive) break;
        --k;
      }
      mine.store(kFlagInclusive | (exclusive + count), ::cuda::memory_order_relaxed);
    }
    sh.global_base[d] = global_start + exclusive - sh.rank.bucket_offset[d];
  }

  // Scatter through shared memory so that consecutive threads write consecutive addresses of
  // each bucket's run.
#pragma unroll
  for (int i = 0; i < Items; ++i) sh.tile_buffer[rank[i]] = keys[i];
  __syncthreads();
  std::uint32_t dest[Items];
#pragma unroll
  for (int k = 0; k < Items; ++k) {
    const std::uint32_t j = threadIdx.x + static_cast<std::uint32_t>(k * Threads);
    dest[k] = 0;
    if (j < valid) {
      const std::uint32_t key = sh.tile_buffer[j];
      dest[k] = sh.global_base[digit_bits(key)] + j;
      a.keys_out[dest[k]] = key;
    }
  }
  __syncthreads();
#pragma unroll
  for (int i = 0; i < Items; ++i) sh.tile_buffer[rank[i]] = values[i];
  __syncthreads();
#pragma unroll
  for (int k = 0; k < Items; ++k) {
    const std::uint32_t j = threadIdx.x + static_cast<std::uint32_t>(k * Threads);
    if (j < valid) a.values_out[dest[k]] = sh.tile_buffer[j];
  }
}

template <int Threads, int Items>
constexpr std::size_t onesweep_shared_bytes() {
  return sizeof(OnesweepShared<Threads, Items>);
}

template <int Threads, int Items>
void prepare_onesweep() {
  CUDA_CHECK(cudaFuncSetAttribute(radix_onesweep_kernel<Threads, Items>,
                                  cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  static_cast<int>(onesweep_shared_bytes<Threads, Items>())));
}

template <int Threads, int Items>
void launch_onesweep(const OnesweepArgs& args, std::size_t tiles, cudaStream_t stream) {
  radix_onesweep_kernel<Threads, Items>
      <<<static_cast<unsigned>(tiles), Threads, onesweep_shared_bytes<Threads, Items>(), stream>>>(
          args);
  CUDA_CHECK_LAUNCH("radix_onesweep_kernel");
}

RadixPolicy policy_for(std::size_t n, int forced) {
  if (forced == 0) return kRadixSmall;
  if (forced == 1) return kRadixMedium;
  if (forced == 2) return kRadixLarge;
  if (n >= kRadixLargeFrom) return kRadixLarge;
  if (n >= kRadixMediumFrom) return kRadixMedium;
  return kRadixSmall;
}

class RadixSorter final : public Sorter {
 public:
  explicit RadixSorter(std::size_t capacity) : engine_(capacity) {}
  SortAlgorithm algorithm() const override { return SortAlgorithm::radix; }
  std::size_t capacity() const override { return engine_.capacity(); }
  void sort(std::uint32_t* keys, std::uint32_t* values, std::size_t n, int begin_bit, int end_bit,
            cudaStream_t stream) override {
    engine_.sort(keys, values, n, begin_bit, end_bit, stream);
  }

 private:
  RadixSortEngine engine_;
};

}  // namespace

__global__ void copy_pairs_kernel(const std::uint32_t* src_keys, const std::uint32_t* src_values,
                                  std::uint32_t* dst_keys, std::uint32_t* dst_values,
                                  std::uint32_t n, const std::int32_t* enable) {
  if (disabled(enable)) return;
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x) {
    dst_keys[i] = src_keys[i];
    dst_values[i] = src_values[i];
  }
}

std::unique_ptr<Sorter> make_radix_sorter(std::size_t capacity) {
  return std::make_unique<RadixSorter>(capacity);
}

}  // namespace detail

RadixSortEngine::RadixSortEngine(std::size_t capacity)
    : capacity_(capacity), alt_keys_(capacity), alt_values_(capacity) {
  if (capacity > detail::kMaxPairs)
    throw std::invalid_argument("radix sort capacity above 2^30 - 1 pairs");
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&sm_count_, cudaDevAttrMultiProcessorCount, device));
  detail::prepare_onesweep<kRadixSmall.threads, kRadixSmall.items_per_thread>();
  detail::prepare_onesweep<kRadixMedium.threads, kRadixMedium.items_per_thread>();
  detail::prepare_onesweep<kRadixLarge.threads, kRadixLarge.items_per_thread>();
  const std::size_t smallest_tile = static_cast<std::size_t>(
      std::min({kRadixSmall.tile(), kRadixMedium.tile(), kRadixLarge.tile()}));
  max_tiles_ = std::max<std::size_t>(1, (capacity + smallest_tile - 1) / smallest_tile);
  scratch_ = DeviceBuffer<std::uint32_t>(static_cast<std::size_t>(detail::kMaxPasses) *
                                         (kRadixBuckets + 1 + max_tiles_ * kRadixBuckets));
}

void RadixSortEngine::sort(std::uint32_t* keys, std::uint32_t* values, std::size_t n, int begin_bit,
                           int end_bit, cudaStream_t stream, const std::int32_t* d_enable,
                           int policy) {
  detail::check_sort_arguments(n, capacity_, begin_bit, end_bit);
  if (n < 2 || begin_bit == end_bit) return;
  const int passes = (end_bit - begin_bit + kRadixBits - 1) / kRadixBits;
  const RadixPolicy p = detail::policy_for(n, policy);
  const std::size_t tile = static_cast<std::size_t>(p.tile());
  const std::size_t tiles = (n + tile - 1) / tile;
  const auto n32 = static_cast<std::uint32_t>(n);

  std::uint32_t* hist = scratch_.data();
  std::uint32_t* counters = hist + static_cast<std::size_t>(passes) * kRadixBuckets;
  std::uint32_t* status = counters + passes;
  const std::size_t status_words = static_cast<std::size_t>(passes) * tiles * kRadixBuckets;
  CUDA_CHECK(cudaMemsetAsync(
      hist, 0, (static_cast<std::size_t>(passes) * (kRadixBuckets + 1) + status_words) * 4,
      stream));

  const std::size_t hist_blocks =
      std::min<std::size_t>(static_cast<std::size_t>(sm_count_) * kHistogramBlocksPerSm,
                            (n + 4 * kHistogramThreads - 1) / (4 * kHistogramThreads));
  detail::
      radix_histogram_kernel<<<static_cast<unsigned>(hist_blocks), kHistogramThreads, 0, stream>>>(
          keys, n32, begin_bit, end_bit, hist, d_enable);
  CUDA_CHECK_LAUNCH("radix_histogram_kernel");

  std::uint32_t* src_k = keys;
  std::uint32_t* src_v = values;
  std::uint32_t* dst_k = alt_keys_.data();
  std::uint32_t* dst_v = alt_values_.data();
  for (int pass = 0; pass < passes; ++pass) {
    const int shift = begin_bit + pass * kRadixBits;
    const detail::OnesweepArgs args{src_k,
                                    src_v,
                                    dst_k,
                                    dst_v,
                                    n32,
                                    shift,
                                    std::min(kRadixBits, end_bit - shift),
                                    hist + static_cast<std::size_t>(pass) * kRadixBuckets,
                                    counters + pass,
                                    status + static_cast<std::size_t>(pass) * tiles * kRadixBuckets,
                                    d_enable};
    if (p.tile() == kRadixLarge.tile()) {
      detail::launch_onesweep<kRadixLarge.threads, kRadixLarge.items_per_thread>(args, tiles,
                                                                                 stream);
    } else if (p.tile() == kRadixMedium.tile()) {
      detail::launch_onesweep<kRadixMedium.threads, kRadixMedium.items_per_thread>(args, tiles,
                                                                                   stream);
    } else {
      detail::launch_onesweep<kRadixSmall.threads, kRadixSmall.items_per_thread>(args, tiles,
                                                                                 stream);
    }
    std::swap(src_k, dst_k);
    std::swap(src_v, dst_v);
  }
  if (src_k != keys) {  // odd number of passes: the result is in our buffers
    const unsigned blocks = static_cast<unsigned>(
        std::min<std::size_t>(static_cast<std::size_t>(sm_count_) * 4, (n + 255) / 256));
    detail::copy_pairs_kernel<<<blocks, 256, 0, stream>>>(src_k, src_v, keys, values, n32,
                                                          d_enable);
    CUDA_CHECK_LAUNCH("copy_pairs_kernel");
  }
}

}  // namespace particles::cuda
