#include "cuda/sort/splitter_partition_sort.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

#include "cuda/check.hpp"
#include "cuda/detail/dynamic_shared.cuh"
#include "cuda/detail/launch_grid.hpp"
#include "cuda/detail/warp.cuh"
#include "cuda/sort/block_buckets.cuh"
#include "cuda/sort/block_radix.cuh"
#include "cuda/sort/copy_kernels.cuh"
#include "cuda/sort/merge.hpp"
#include "cuda/sort/partition_split.cuh"
#include "cuda/sort/splitter_partition.hpp"

namespace particles::cuda {
namespace {

using partition::kNoSplitters;
using partition::kOutOfReach;
using partition::kRunShift;
using partition::kSplittersFor;
using partition::kStateWords;
using partition::kTicket;
using partition::kTileItems;
using partition::kTileThreads;
using partition::TileRank;

// 256 threads with 16 rows each rather than 512 with 8: a bucket's rank scans and barriers span
// half the warps (galaxy, 1M, exact: auto 109.3 -> 107.7 us on the H200).
constexpr int kBucketThreads = 256;
// Every bucket of a 1M-key sort (512) in one wave on the H200's 132 SMs: at its natural 80
// registers only 3 blocks fit per SM, and the last 116 buckets waited for a second wave.
constexpr int kBucketBlocksPerSm = 4;
constexpr int kBucketItems = kPartitionBucketCapacity / kBucketThreads;
// The bucket sort's packed words: a key's bits above its place in the bucket.
constexpr int kPlaceBits = 12;
constexpr std::uint32_t kPlaceMask = (1u << kPlaceBits) - 1u;
constexpr int kPackedKeyBits = 32 - kPlaceBits;
static_assert(kPartitionBucketCapacity <= 1 << kPlaceBits, "a place fits its bits");
static_assert(kBucketItems * kBucketThreads == kPartitionBucketCapacity, "whole buckets");

using BucketRank = detail::BlockRadixRank<kBucketThreads, kBucketItems>;

// 1. Per input tile, split_tile; then the last block to finish, finish_counts (a ticket, as the
// extents reduction does: no launch of its own for the starts). Once a tile has flagged a key
// out of reach, tiles that start later skip their work (a frame that moved too far costs about
// a wave, not a pass), but still take their ticket.
__global__ void __launch_bounds__(kTileThreads)
    partition_split_kernel(const std::uint32_t* __restrict__ keys,
                           const std::uint32_t* __restrict__ values, std::uint32_t n,
                           const std::int32_t* enable, PartitionSplitTarget split) {
  const std::uint32_t buckets = partition_buckets(n);
  // Three independent words, loaded before any is tested: the kernel is latency-bound, and
  // tested in turn each would cost its own round trip.
  const std::int32_t enabled = *enable;
  const std::uint32_t splitters_for = split.state[kSplittersFor];
  const std::uint32_t flagged = *static_cast<volatile std::uint32_t*>(split.state + kOutOfReach);
  const bool first_thread = blockIdx.x == 0 && threadIdx.x == 0;
  if (enabled == 0) {
    if (first_thread) *split.ran = 0;
    return;
  }
  // Words every block reads alike, so every block returns here, and no ticket is taken.
  if (splitters_for != n || buckets > kPartitionMaxBuckets) {
    if (first_thread) partition::write_verdict(split, false);
    return;
  }
  // Read by every thread, so decided by all of them together (the barrier counts on it).
  if (!__syncthreads_or(flagged != 0)) {
    __shared__ partition::SplitShared sh;
    const std::uint32_t t = blockIdx.x;
    const std::uint32_t begin = t * kPartitionBucket;
    const int len = static_cast<int>(min(static_cast<std::uint32_t>(kPartitionBucket), n - begin));
    // Every load in flight before the first search: the kernel is latency-bound, a few blocks
    // per multiprocessor.
    std::uint32_t key[kTileItems], value[kTileItems];
#pragma unroll
    for (int i = 0; i < kTileItems; ++i) {
      const int q = TileRank::striped_index(i);
      key[i] = q < len ? keys[begin + q] : 0u;
      value[i] = q < len ? values[begin + q] : 0u;
    }
    // Out of reach, the tile writes nothing: the fallback sorts the caller's arrays.
    partition::split_tile(key, value, t, len, buckets, split, sh);
  }
  __shared__ bool is_last_block;
  __threadfence();  // this block's counts and flag, before its ticket
  __syncthreads();
  if (threadIdx.x == 0) is_last_block = atomicAdd(split.state + kTicket, 1u) == gridDim.x - 1;
  __syncthreads();
  if (!is_last_block) return;  // uniform across the block
  __threadfence();
  partition::finish_counts(n, buckets, split);
}

// Where a bucket's keys lie in the split tiles: run l comes from source tile
// bucket - kPartitionReach + l (tile order is input order: stable) and holds bucket rows
// [first[l], first[l + 1]).
struct BucketRuns {
  std::uint32_t first[kPartitionDigitSlots];   // past the last digit: no row
  std::uint32_t source[kPartitionDigitSlots];  // scratch index of the run's first key

  // The scratch index of bucket row q (q < the bucket's size): the last run that starts at or
  // before q (an empty run shares its first row with the next, so it is never the last).
  __device__ std::uint32_t source_of(std::uint32_t q) const {
    int l = 0;
#pragma unroll
    for (int step = kPartitionDigitSlots / 2; step > 0; step /= 2)
      if (first[l + step] <= q) l += step;
    return source[l] + (q - first[l]);
  }
};
static_assert((kPartitionDigitSlots & (kPartitionDigitSlots - 1)) == 0, "a binary search");

struct BucketShared {
  BucketRuns runs;
  BucketRank::Storage rank;
  std::uint32_t keys[kPartitionBucketCapacity];
  std::uint32_t values[kPartitionBucketCapacity];
  std::uint32_t scratch[2][kBucketThreads / 32];
};

// 2. Per bucket: its runs gathered from the split tiles, then a stable block radix sort of its
// keys over the bits in which they differ (a bucket spans a sliver of the key range: two 8-bit
// passes on galaxy frames).
__global__ void __launch_bounds__(kBucketThreads, kBucketBlocksPerSm) partition_bucket_sort_kernel(
    const std::uint32_t* __restrict__ in_keys, const std::uint32_t* __restrict__ in_values,
    const std::uint32_t* __restrict__ runs, const std::uint32_t* __restrict__ starts,
    std::uint32_t* __restrict__ out_keys, std::uint32_t* __restrict__ out_values,
    const std::uint32_t* ran, std::uint32_t* const* final_values_at,
    std::uint32_t* __restrict__ splitters) {
  if (*ran == 0) return;
  BucketShared& sh = detail::dynamic_shared<BucketShared>();
  const std::uint32_t start = starts[blockIdx.x];
  const int len = static_cast<int>(starts[blockIdx.x + 1] - start);
  if (len == 0) return;
  if (threadIdx.x < kPartitionDigitSlots) {  // warp 0: a lane per run
    const int l = static_cast<int>(threadIdx.x);
    const long long tile = static_cast<long long>(blockIdx.x) - kPartitionReach + l;
    std::uint32_t count = 0, source = 0;
    if (l < kPartitionDigits && tile >= 0 && tile < static_cast<long long>(gridDim.x)) {
      // The digit this bucket is to that tile.
      const std::uint32_t run = runs[tile * kPartitionDigitSlots + (kPartitionDigits - 1 - l)];
      count = run & ((1u << kRunShift) - 1u);
      source = static_cast<std::uint32_t>(tile) * kPartitionBucket + (run >> kRunShift);
    }
    const std::uint32_t inclusive = detail::warp_inclusive_sum(count);
    sh.runs.first[l] = l < kPartitionDigits ? inclusive - count : 0xffffffffu;
    sh.runs.source[l] = source;
  }
  __syncthreads();
  // A bucket holds about kPartitionBucket keys, half the capacity: only the rows that hold
  // them are loaded, ranked and stored.
  const int live = (len + kBucketThreads - 1) / kBucketThreads;
  std::uint32_t key[kBucketItems], value[kBucketItems];
  std::uint32_t lo = 0xffffffffu, hi = 0u;
#pragma unroll
  for (int i = 0; i < kBucketItems; ++i) {
    if (i >= live) break;
    const int q = BucketRank::row_index(i, live);
    key[i] = q < len ? in_keys[sh.runs.source_of(static_cast<std::uint32_t>(q))] : 0xffffffffu;
    if (q < len) {
      lo = min(lo, key[i]);
      hi = max(hi, key[i]);
    }
  }
  detail::block_min_max(lo, hi, sh.scratch);
  const int bits = bit_width(hi - lo);
  if (bits <= kPackedKeyBits) {
    // The usual bucket (a sliver of the key range): each key, less the smallest, shares a word
    // with its place in the bucket, so the passes move one word instead of two and sort by the
    // key bits only (the place below them keeps ties in input order, stable); the values are
    // fetched by place at the end.
#pragma unroll
    for (int i = 0; i < kBucketItems; ++i) {
      if (i >= live) break;
      const int q = BucketRank::row_index(i, live);
      // Padding: the largest key the bits hold, placed after every real key.
      key[i] = q < len ? (key[i] - lo) << kPlaceBits | static_cast<std::uint32_t>(q) : 0xffffffffu;
    }
    if (bits > 0) {  // else every key is equal and the input order is the stable order
      detail::block_sort_keys<kBucketThreads, kBucketItems>(
          key, KeyBits{kPlaceBits, kPlaceBits + bits}, sh.rank, sh.keys, live);
    }
#pragma unroll
    for (int i = 0; i < kBucketItems; ++i) {
      if (i >= live) break;
      if (BucketRank::row_index(i, live) < len) {
        value[i] = in_values[sh.runs.source_of(key[i] & kPlaceMask)];
        key[i] = (key[i] >> kPlaceBits) + lo;
      }
    }
  } else {
#pragma unroll
    for (int i = 0; i < kBucketItems; ++i) {
      if (i >= live) break;
      const int q = BucketRank::row_index(i, live);
      value[i] = q < len ? in_values[sh.runs.source_of(static_cast<std::uint32_t>(q))] : 0u;
      if (q < len) key[i] -= lo;  // padding stays 0xffffffff: it sorts last
    }
    detail::block_sort_pairs<kBucketThreads, kBucketItems>(key, value, KeyBits{0, bits}, sh.rank,
                                                           sh.keys, sh.values, live);
#pragma unroll
    for (int i = 0; i < kBucketItems; ++i)
      if (i < live && BucketRank::row_index(i, live) < len) key[i] += lo;
  }
  std::uint32_t* final_values = final_values_at != nullptr ? *final_values_at : nullptr;
#pragma unroll
  for (int i = 0; i < kBucketItems; ++i) {
    if (i >= live) break;
    const int q = BucketRank::row_index(i, live);
    if (q < len) {
      const std::uint32_t place = start + static_cast<std::uint32_t>(q);
      out_keys[place] = key[i];
      out_values[place] = value[i];
      if (final_values != nullptr) final_values[place] = value[i];
      // The splitters nothing reads any more this sort (the split kernel was their last reader).
      if (splitters != nullptr && place != 0 && place % kPartitionBucket == 0)
        splitters[place / kPartitionBucket] = key[i];
    }
  }
}

__global__ void partition_note_sorted_kernel(const std::uint32_t* __restrict__ sorted,
                                             std::uint32_t n, std::uint32_t* splitters,
                                             std::uint32_t* state, const std::int32_t* enable,
                                             NotedValues copy) {
  if (enable != nullptr && *enable == 0) return;
  const std::uint32_t buckets = partition_buckets(n);
  const std::uint32_t first = blockIdx.x * blockDim.x + threadIdx.x;
  const std::uint32_t stride = gridDim.x * blockDim.x;
  for (std::uint32_t j = 1 + first; j < buckets; j += stride)
    splitters[j] = sorted[j * kPartitionBucket];
  if (copy.target != nullptr) {
    std::uint32_t* target = *copy.target;
    for (std::uint32_t i = first; i < n; i += stride) target[i] = copy.values[i];
  }
  if (first == 0) state[kSplittersFor] = n;
}

// A word memset cannot write, on the stream, capturable, with no host memory to keep alive.
__global__ void partition_forget_kernel(std::uint32_t* state) {
  state[kSplittersFor] = kNoSplitters;
}

std::uint32_t buckets_for(std::size_t capacity) {
  return std::max<std::uint32_t>(1u, partition_buckets(static_cast<std::uint32_t>(capacity)));
}

}  // namespace

SplitterPartitionSort::SplitterPartitionSort(std::size_t capacity)
    : capacity_(capacity),
      runs_(std::size_t{buckets_for(capacity)} * kPartitionDigitSlots),
      starts_(buckets_for(capacity) + 1),
      bucket_sizes_(buckets_for(capacity)),
      splitters_(buckets_for(capacity)),
      state_(kStateWords),
      scratch_keys_(capacity),
      scratch_values_(capacity) {
  if (capacity >= kNoSplitters)
    throw std::invalid_argument("SplitterPartitionSort: capacity " + std::to_string(capacity) +
                                " is too large");
  const std::array<std::uint32_t, kStateWords> state{kNoSplitters, 0u, 0u};
  CUDA_CHECK(cudaMemcpy(state_.data(), state.data(), sizeof state, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(bucket_sizes_.data(), 0, bucket_sizes_.size_bytes()));  // kept zero
  CUDA_CHECK(cudaFuncSetAttribute(partition_bucket_sort_kernel,
                                  cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  static_cast<int>(sizeof(BucketShared))));
}

void SplitterPartitionSort::forget_splitters(cudaStream_t stream) {
  partition_forget_kernel<<<1, 1, 0, stream>>>(state_.data());
  CUDA_CHECK_LAUNCH("partition_forget_kernel");
}

void SplitterPartitionSort::note_sorted(const std::uint32_t* sorted_keys, std::uint32_t n,
                                        cudaStream_t stream, const std::int32_t* enable,
                                        const NotedValues& copy) {
  if (n > capacity_)
    throw std::invalid_argument("SplitterPartitionSort::note_sorted: n " + std::to_string(n) +
                                " > capacity " + std::to_string(capacity_));
  // A thread per splitter (each is one scattered read: 8192 of them at 16M keys); with values to
  // copy, a resident-sized grid that strides over them (disabled, every block of a launch still
  // has to be scheduled).
  const std::uint32_t blocks =
      copy.target != nullptr ? detail::grid_stride_blocks(n, 256, 8)
                             : std::max<std::uint32_t>(1u, (partition_buckets(n) + 255) / 256);
  partition_note_sorted_kernel<<<blocks, 256, 0, stream>>>(sorted_keys, n, splitters_.data(),
                                                           state_.data(), enable, copy);
  CUDA_CHECK_LAUNCH("partition_note_sorted_kernel");
}

void SplitterPartitionSort::sort_enabled(std::uint32_t* keys, std::uint32_t* values,
                                         std::uint32_t n, cudaStream_t stream,
                                         const std::int32_t* enable, std::int32_t* fallback,
                                         std::uint32_t* ran, const PartitionExtras& extras) {
  if (n > capacity_)
    throw std::invalid_argument("SplitterPartitionSort::sort_enabled: n " + std::to_string(n) +
                                " > capacity " + std::to_string(capacity_));
  if (n == 0) return;
  const std::uint32_t buckets = partition_buckets(n);
  partition_split_kernel<<<buckets, kTileThreads, 0, stream>>>(
      keys, values, n, enable, split_target(fallback, ran, extras.finish_enable));
  CUDA_CHECK_LAUNCH("partition_split_kernel");
  sort_split(keys, values, n, stream, ran, extras);
}

PartitionSplitTarget SplitterPartitionSort::split_target(std::int32_t* fallback, std::uint32_t* ran,
                                                         std::int32_t* finish_enable) {
  return {splitters_.data(),      state_.data(), scratch_keys_.data(),
          scratch_values_.data(), runs_.data(),  bucket_sizes_.data(),
          starts_.data(),         fallback,      ran,
          finish_enable};
}

void SplitterPartitionSort::sort_split(std::uint32_t* keys, std::uint32_t* values, std::uint32_t n,
                                       cudaStream_t stream, const std::uint32_t* ran,
                                       const PartitionExtras& extras) {
  if (n > capacity_)
    throw std::invalid_argument("SplitterPartitionSort::sort_split: n " + std::to_string(n) +
                                " > capacity " + std::to_string(capacity_));
  if (n == 0) return;
  partition_bucket_sort_kernel<<<partition_buckets(n), kBucketThreads, sizeof(BucketShared),
                                 stream>>>(
      scratch_keys_.data(), scratch_values_.data(), runs_.data(), starts_.data(), keys, values, ran,
      extras.final_values, extras.note_splitters ? splitters_.data() : nullptr);
  CUDA_CHECK_LAUNCH("partition_bucket_sort_kernel");
}

void SplitterPartitionSort::copy_split_pairs(std::uint32_t* keys, std::uint32_t* values,
                                             std::uint32_t n, cudaStream_t stream,
                                             const std::int32_t* enable) {
  if (n > capacity_)
    throw std::invalid_argument("SplitterPartitionSort::copy_split_pairs: n " + std::to_string(n) +
                                " > capacity " + std::to_string(capacity_));
  if (n == 0) return;
  // A resident-sized grid: disabled (the usual case), every block still has to be scheduled.
  detail::copy_pairs_kernel<<<detail::grid_stride_blocks(n, 256, 4), 256, 0, stream>>>(
      scratch_keys_.data(), scratch_values_.data(), keys, values, n, enable);
  CUDA_CHECK_LAUNCH("copy_pairs_kernel");
}

}  // namespace particles::cuda
