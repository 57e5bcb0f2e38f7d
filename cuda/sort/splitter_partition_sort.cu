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
#include "cuda/sort/merge.hpp"
#include "cuda/sort/splitter_partition.hpp"

namespace particles::cuda {
namespace {

constexpr int kTileThreads = 256;
constexpr int kTileItems = kPartitionBucket / kTileThreads;
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
// Padding of a partial tile ranks after every real digit, so its ranks are the tile's last.
constexpr int kPadDigit = kPartitionDigitSlots - 1;
constexpr int kPartitionDigitBits = 5;  // digits and the pad digit, < 2^5
static_assert(kPartitionDigitSlots == 1 << kPartitionDigitBits, "the ballots cover every slot");
static_assert(kPadDigit >= kPartitionDigits, "a digit of its own");
static_assert(kPartitionDigitSlots <= kRadixBuckets, "digits ranked by the radix ranking");
static_assert(kTileItems * kTileThreads == kPartitionBucket &&
                  kBucketItems * kBucketThreads == kPartitionBucketCapacity,
              "whole tiles");

using TileRank = detail::BlockRadixRank<kTileThreads, kTileItems, detail::Multisplit::ballot,
                                        kPartitionDigitBits>;
using BucketRank = detail::BlockRadixRank<kBucketThreads, kBucketItems>;

// The sort's device state words.
enum StateWord : int {
  kSplittersFor = 0,  // the key count the splitters were taken for; kNoSplitters when none
  kOutOfReach = 1,    // set by a tile with a key beyond its reach; cleared by finish_counts
  kTicket = 2,        // the count kernel's blocks done; back to zero by its last block
  kStateWords = 3
};
constexpr std::uint32_t kNoSplitters = 0xffffffffu;  // no sort has that many keys

// The splitters a tile's keys can fall between, from shared memory.
struct SplitterWindow {
  std::uint32_t values[kPartitionDigits + 1];
  std::uint32_t first;  // the splitter index of values[0]
  __device__ std::uint32_t operator()(std::uint32_t j) const { return values[j - first]; }
};

// Loads indices [t - reach, t + reach + 1] of [1, buckets) (all partition_digit reads); ends
// with a barrier.
__device__ void load_window(SplitterWindow& w, const std::uint32_t* splitters, std::uint32_t t,
                            std::uint32_t buckets) {
  const long long lo = max(1LL, static_cast<long long>(t) - kPartitionReach);
  const long long hi =
      min(static_cast<long long>(buckets) - 1, static_cast<long long>(t) + kPartitionReach + 1);
  if (threadIdx.x == 0) w.first = static_cast<std::uint32_t>(lo);
  for (long long j = lo + threadIdx.x; j <= hi; j += blockDim.x) w.values[j - lo] = splitters[j];
  __syncthreads();
}

// The sort's answer to its caller (SplitterPartitionSort::sort_enabled), written either way, so
// a graph that always runs the sort needs no word reset per frame.
struct Verdict {
  std::int32_t* fallback;
  std::uint32_t* ran;           // also what the scatter and bucket kernels go by
  std::int32_t* finish_enable;  // may be null
  __device__ void write(bool sorts) const {
    *fallback = sorts ? 0 : 1;
    if (finish_enable != nullptr) *finish_enable = sorts ? 0 : 1;
    *ran = sorts ? 1u : 0u;
  }
};

// One input tile's part of step 1: each key's bucket digit (kept for the scatter), how many of
// the tile's keys go to each digit, kept per tile and added to the bucket sizes; a key out of
// reach flags the sort as impossible instead. Every thread of the block calls it.
__device__ void count_tile(const std::uint32_t* __restrict__ keys, std::uint32_t n,
                           std::uint32_t buckets, const std::uint32_t* __restrict__ splitters,
                           std::uint32_t* state, std::uint8_t* __restrict__ digits,
                           std::uint32_t* counts, std::uint32_t* bucket_sizes) {
  __shared__ SplitterWindow window;
  __shared__ std::uint32_t hist[kPartitionDigitSlots];
  const std::uint32_t t = blockIdx.x;
  if (threadIdx.x < kPartitionDigitSlots) hist[threadIdx.x] = 0;
  const std::uint32_t begin = t * kPartitionBucket;
  const std::uint32_t end = min(n, begin + kPartitionBucket);
  // Every load in flight before the first search: the kernel is latency-bound, a few blocks
  // per multiprocessor.
  std::uint32_t key[kTileItems];
#pragma unroll
  for (int r = 0; r < kTileItems; ++r) {
    const std::uint32_t i = begin + r * kTileThreads + threadIdx.x;
    key[r] = i < end ? keys[i] : 0u;
  }
  load_window(window, splitters, t, buckets);
  // A pointer, not the window itself: partition_digit takes its accessor by value.
  const auto splitter = [w = &window](std::uint32_t j) { return (*w)(j); };
  int digit[kTileItems];
  bool out_of_reach = false;
#pragma unroll
  for (int r = 0; r < kTileItems; ++r) {
    const std::uint32_t i = begin + r * kTileThreads + threadIdx.x;
    digit[r] = i < end ? partition_digit(key[r], t, buckets, splitter) : kPadDigit;
    if (digit[r] < 0) {
      out_of_reach = true;
      digit[r] = kPadDigit;
    }
    if (i < end) digits[i] = static_cast<std::uint8_t>(digit[r]);
  }
  // Most of a tile's keys fall in a handful of buckets, so one shared atomic per key would queue
  // on the same few counters: the lanes of each digit find each other by ballots (digits fit
  // kPartitionDigitBits) and one adds for all.
#pragma unroll
  for (int r = 0; r < kTileItems; ++r) {
    unsigned peers = detail::kFullMask;
#pragma unroll
    for (int b = 0; b < kPartitionDigitBits; ++b) {
      const bool set = (digit[r] >> b) & 1;
      const unsigned vote = __ballot_sync(detail::kFullMask, set);
      peers &= set ? vote : ~vote;
    }
    if (digit[r] != kPadDigit && (peers & detail::lanemask_lt()) == 0)
      atomicAdd(&hist[digit[r]], static_cast<std::uint32_t>(__popc(peers)));
  }
  if (__syncthreads_or(out_of_reach)) {
    if (threadIdx.x == 0) state[kOutOfReach] = 1;
    return;
  }
  if (threadIdx.x < kPartitionDigitSlots) {
    const std::uint32_t count = hist[threadIdx.x];
    counts[t * kPartitionDigitSlots + threadIdx.x] = count;
    const long long bucket = static_cast<long long>(t) + threadIdx.x - kPartitionReach;
    // A digit with keys names a bucket in [0, buckets); the test keeps a bad count from
    // writing elsewhere.
    if (count != 0 && bucket >= 0 && bucket < static_cast<long long>(buckets))
      atomicAdd(&bucket_sizes[bucket], count);
  }
}

// The rest of step 1, by the count kernel's last block, once every tile has added its counts:
// decides whether the sort can go on (every key in reach, every bucket within a block's
// capacity) and, if so, turns the bucket sizes into starts. Either way it leaves the sizes zero,
// the out-of-reach word clear and the ticket at zero for the next sort.
__device__ void finish_counts(std::uint32_t n, std::uint32_t buckets, std::uint32_t* state,
                              std::uint32_t* bucket_sizes, std::uint32_t* starts,
                              const Verdict& verdict) {
  __shared__ std::uint32_t scratch[2][kTileThreads / 32];
  // Other blocks' writes: read from L2.
  const bool in_reach = __ldcg(state + kOutOfReach) == 0;
  // Each thread a contiguous run of buckets.
  const std::uint32_t per_thread = (buckets + kTileThreads - 1) / kTileThreads;
  const std::uint32_t b0 = min(buckets, threadIdx.x * per_thread);
  const std::uint32_t b1 = min(buckets, b0 + per_thread);
  std::uint32_t run = 0;
  bool over = false;
  for (std::uint32_t b = b0; b < b1; ++b) {
    const std::uint32_t size = __ldcg(bucket_sizes + b);
    over = over || size > static_cast<std::uint32_t>(kPartitionBucketCapacity);
    run += size;
  }
  const bool sorts = __syncthreads_and(in_reach && !over);
  std::uint32_t running = detail::block_exclusive_sum(run, scratch);
  for (std::uint32_t b = b0; b < b1; ++b) {
    if (sorts) {
      starts[b] = running;
      running += __ldcg(bucket_sizes + b);
    }
    bucket_sizes[b] = 0;
  }
  if (threadIdx.x == 0) {
    if (sorts) starts[buckets] = n;
    verdict.write(sorts);
    state[kOutOfReach] = 0;
    state[kTicket] = 0;
  }
}

// 1. Per input tile, count_tile; then the last block to finish, finish_counts (a ticket, as the
// extents reduction does: no launch of its own for the starts). Once a tile has flagged a key
// out of reach, tiles that start later skip their work (a frame that moved too far costs about
// a wave, not a pass), but still take their ticket.
__global__ void __launch_bounds__(kTileThreads)
    partition_count_kernel(const std::uint32_t* __restrict__ keys, std::uint32_t n,
                           const std::uint32_t* __restrict__ splitters, std::uint32_t* state,
                           std::uint8_t* __restrict__ digits, std::uint32_t* counts,
                           std::uint32_t* bucket_sizes, std::uint32_t* starts,
                           const std::int32_t* enable, Verdict verdict) {
  const std::uint32_t buckets = partition_buckets(n);
  // Three independent words, loaded before any is tested: the kernel is latency-bound, and
  // tested in turn each would cost its own round trip.
  const std::int32_t enabled = *enable;
  const std::uint32_t splitters_for = state[kSplittersFor];
  const std::uint32_t flagged = *static_cast<volatile std::uint32_t*>(state + kOutOfReach);
  const bool first_thread = blockIdx.x == 0 && threadIdx.x == 0;
  if (enabled == 0) {
    if (first_thread) *verdict.ran = 0;
    return;
  }
  // Words every block reads alike, so every block returns here, and no ticket is taken.
  if (splitters_for != n || buckets > kPartitionMaxBuckets) {
    if (first_thread) verdict.write(false);
    return;
  }
  // Read by every thread, so decided by all of them together (the barrier counts on it).
  if (!__syncthreads_or(flagged != 0))
    count_tile(keys, n, buckets, splitters, state, digits, counts, bucket_sizes);
  __shared__ bool is_last_block;
  __threadfence();  // this block's counts and flag, before its ticket
  __syncthreads();
  if (threadIdx.x == 0) is_last_block = atomicAdd(state + kTicket, 1u) == gridDim.x - 1;
  __syncthreads();
  if (!is_last_block) return;  // uniform across the block
  __threadfence();
  finish_counts(n, buckets, state, bucket_sizes, starts, verdict);
}

struct ScatterShared {
  TileRank::Storage rank;
  std::uint32_t keys[kPartitionBucket];  // in digit order
  std::uint32_t values[kPartitionBucket];
  std::uint8_t digit[kPartitionBucket];
  std::uint32_t place[kPartitionDigitSlots];  // each digit's first output place
};

// 3. Per input tile: a stable ranking by digit, staged in shared memory, so each digit's keys
// leave as one contiguous, coalesced run to their place in the bucket.
__global__ void __launch_bounds__(kTileThreads)
    partition_scatter_kernel(const std::uint32_t* __restrict__ keys,
                             const std::uint32_t* __restrict__ values, std::uint32_t n,
                             const std::uint8_t* __restrict__ digits,
                             const std::uint32_t* __restrict__ counts,
                             const std::uint32_t* __restrict__ starts,
                             std::uint32_t* __restrict__ out_keys,
                             std::uint32_t* __restrict__ out_values, const std::uint32_t* ran) {
  if (*ran == 0) return;
  __shared__ ScatterShared sh;
  const std::uint32_t buckets = partition_buckets(n);
  const std::uint32_t t = blockIdx.x;
  const std::uint32_t begin = t * kPartitionBucket;
  const int len = static_cast<int>(min(static_cast<std::uint32_t>(kPartitionBucket), n - begin));
  std::uint32_t key[kTileItems], value[kTileItems], digit[kTileItems], rank[kTileItems];
#pragma unroll
  for (int i = 0; i < kTileItems; ++i) {
    const int q = TileRank::striped_index(i);
    key[i] = q < len ? keys[begin + q] : 0u;
    value[i] = q < len ? values[begin + q] : 0u;
    // The counting pass found every key in reach, or `ran` would have stopped this launch.
    digit[i] = q < len ? digits[begin + q] : static_cast<std::uint32_t>(kPadDigit);
  }
  // Where each digit's run goes: its bucket's start plus the keys the tiles before this one
  // send to that bucket (a bucket takes its tiles in order: stable). A warp per digit, a lane
  // per earlier tile.
  for (std::uint32_t d = detail::warp_id(); d < kPartitionDigits; d += kTileThreads / 32) {
    const long long bucket = static_cast<long long>(t) + d - kPartitionReach;
    if (bucket < 0 || bucket >= static_cast<long long>(buckets)) continue;  // warp-uniform
    const long long source = bucket - kPartitionReach + detail::lane_id();  // earlier tile
    std::uint32_t before = 0;
    if (source >= 0 && source < static_cast<long long>(t))
      before = counts[source * kPartitionDigitSlots + (bucket + kPartitionReach - source)];
    before = __reduce_add_sync(detail::kFullMask, before);
    if (detail::lane_id() == 0) sh.place[d] = starts[bucket] + before;
  }
  TileRank::rank(digit, rank, sh.rank);  // its barriers also publish sh.place
#pragma unroll
  for (int i = 0; i < kTileItems; ++i) {
    if (TileRank::striped_index(i) < len) {
      sh.keys[rank[i]] = key[i];
      sh.values[rank[i]] = value[i];
      sh.digit[rank[i]] = static_cast<std::uint8_t>(digit[i]);
    }
  }
  __syncthreads();
  for (int r = static_cast<int>(threadIdx.x); r < len; r += kTileThreads) {
    const std::uint32_t d = sh.digit[r];
    const std::uint32_t place =
        sh.place[d] + (static_cast<std::uint32_t>(r) - sh.rank.bucket_offset[d]);
    out_keys[place] = sh.keys[r];
    out_values[place] = sh.values[r];
  }
}

struct BucketShared {
  BucketRank::Storage rank;
  std::uint32_t keys[kPartitionBucketCapacity];
  std::uint32_t values[kPartitionBucketCapacity];
  std::uint32_t scratch[2][kBucketThreads / 32];
};

// 4. Per bucket: a stable block radix sort of its keys over the bits in which they differ (a
// bucket spans a sliver of the key range: two 8-bit passes on galaxy frames).
__global__ void __launch_bounds__(kBucketThreads, kBucketBlocksPerSm) partition_bucket_sort_kernel(
    const std::uint32_t* __restrict__ in_keys, const std::uint32_t* __restrict__ in_values,
    const std::uint32_t* __restrict__ starts, std::uint32_t* __restrict__ out_keys,
    std::uint32_t* __restrict__ out_values, const std::uint32_t* ran,
    std::uint32_t* const* final_values_at, std::uint32_t* __restrict__ splitters) {
  if (*ran == 0) return;
  BucketShared& sh = detail::dynamic_shared<BucketShared>();
  const std::uint32_t start = starts[blockIdx.x];
  const int len = static_cast<int>(starts[blockIdx.x + 1] - start);
  if (len == 0) return;
  // A bucket holds about kPartitionBucket keys, half the capacity: only the rows that hold
  // them are loaded, ranked and stored.
  const int live = (len + kBucketThreads - 1) / kBucketThreads;
  std::uint32_t key[kBucketItems], value[kBucketItems];
  std::uint32_t lo = 0xffffffffu, hi = 0u;
#pragma unroll
  for (int i = 0; i < kBucketItems; ++i) {
    if (i >= live) break;
    const int q = BucketRank::row_index(i, live);
    key[i] = q < len ? in_keys[start + q] : 0xffffffffu;
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
        value[i] = in_values[start + (key[i] & kPlaceMask)];
        key[i] = (key[i] >> kPlaceBits) + lo;
      }
    }
  } else {
#pragma unroll
    for (int i = 0; i < kBucketItems; ++i) {
      if (i >= live) break;
      const int q = BucketRank::row_index(i, live);
      value[i] = q < len ? in_values[start + q] : 0u;
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
      // The splitters nothing reads any more this sort (the count kernel was their last reader).
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
      counts_(std::size_t{buckets_for(capacity)} * kPartitionDigitSlots),
      starts_(buckets_for(capacity) + 1),
      bucket_sizes_(buckets_for(capacity)),
      splitters_(buckets_for(capacity)),
      state_(kStateWords),
      scratch_keys_(capacity),
      scratch_values_(capacity),
      digits_(capacity) {
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
  partition_count_kernel<<<buckets, kTileThreads, 0, stream>>>(
      keys, n, splitters_.data(), state_.data(), digits_.data(), counts_.data(),
      bucket_sizes_.data(), starts_.data(), enable, {fallback, ran, extras.finish_enable});
  CUDA_CHECK_LAUNCH("partition_count_kernel");
  partition_scatter_kernel<<<buckets, kTileThreads, 0, stream>>>(
      keys, values, n, digits_.data(), counts_.data(), starts_.data(), scratch_keys_.data(),
      scratch_values_.data(), ran);
  CUDA_CHECK_LAUNCH("partition_scatter_kernel");
  partition_bucket_sort_kernel<<<buckets, kBucketThreads, sizeof(BucketShared), stream>>>(
      scratch_keys_.data(), scratch_values_.data(), starts_.data(), keys, values, ran,
      extras.final_values, extras.note_splitters ? splitters_.data() : nullptr);
  CUDA_CHECK_LAUNCH("partition_bucket_sort_kernel");
}

}  // namespace particles::cuda
