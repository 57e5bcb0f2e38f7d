// Odd-even merge-split sort for nearly sorted input. Two paths, chosen on the device (no host
// sync), each launched every sort and each doing nothing when the other did the work:
//   - the window path (odd_even_window.cuh): two plain kernels of one block per tile check that
//     every key lies within a chunk or so of its place and, if so, sort each tile together with
//     a halo chunk of each neighbour in shared memory, writing the tile's own range in place.
//     No grid barrier, so the grid is one block per tile rather than the resident blocks;
//   - the exact kernel below, when the window check failed (or the input is one tile): one
//     cooperative kernel (one launch, on a branch beside the window sort kernel, so nothing is
//     paid for a fallback that does not run):
//   1. every tile of kBlockSortTile pairs is sorted stably into a scratch copy: bucket sort over
//      the tile's key range (one shared-memory atomic per key, then a rank inside the key's
//      small bucket); tiles with crowded buckets (many equal keys) take the block radix sort;
//   2. grid barrier; every block reads the tiles' first/last keys and decides, identically, whether
//      one round of merge-splits finishes the sort (merge.hpp one_round_holds: true when every
//      key lies within about half a tile of its place, exact either way). If so, the even and odd
//      merge-splits of that round are done at once: each key of tile c finds its final place
//      from its index in c and binary searches in the edge windows of tiles c-1 and c+1, and is
//      written there, into the caller's arrays;
//   3. otherwise the sorted tiles are merged pairwise (merge path, log2(tiles) rounds with grid
//      barriers), which keeps the sort exact and stable on any input.
#include <cooperative_groups.h>

#include <algorithm>

#include "cuda/check.hpp"
#include "cuda/detail/cuda_handles.hpp"
#include "cuda/detail/device_buffer.hpp"
#include "cuda/detail/dynamic_shared.cuh"
#include "cuda/detail/warp.cuh"
#include "cuda/sort/block_radix.cuh"
#include "cuda/sort/copy_kernels.cuh"
#include "cuda/sort/merge.hpp"
#include "cuda/sort/odd_even_window.cuh"
#include "cuda/sort/sorters_internal.hpp"

namespace particles::cuda::detail {
namespace {

namespace cg = cooperative_groups;

constexpr int kThreads = kBlockSortThreads;
constexpr int kItems = kBlockSortItems;
constexpr int kTile = kBlockSortTile;
constexpr int kWarps = kThreads / kWarpSize;
constexpr int kWindow = kOddEvenWindow;
constexpr int kBucketBits = 12;  // one bucket per key of a tile
static_assert((1 << kBucketBits) == kTile, "bucket count is the tile size");
static_assert(kWindow < kTile && kItems % 4 == 0, "window inside a tile; uint4 bucket scans");

using Rank = BlockRadixRank<kThreads, kItems>;

struct BucketShared {
  std::uint32_t keys[kTile];  // in bucket order
  std::uint32_t values[kTile];
  std::uint32_t input_keys[kTile];  // in input order: parked here rather than in registers
  std::uint32_t input_values[kTile];
  std::uint32_t offset[kTile + 1];  // counts, then exclusive offsets, of the buckets
  std::uint16_t position[kTile];    // index in the input tile: the tie-break that keeps it stable
};
struct RadixShared {
  Rank::Storage rank;
  std::uint32_t keys[kTile];
  std::uint32_t values[kTile];
};
struct NeighbourShared {
  std::uint32_t left[kTile];  // sort keys of the windows of tiles c-1 and c+1
  std::uint32_t right[kTile];
};
struct MergeShared {
  std::uint32_t keys[kTile];
  std::uint32_t values[kTile];
  int split[2];
};
struct Shared {
  union {
    BucketShared bucket;
    RadixShared radix;
    NeighbourShared neighbour;
    MergeShared merge;
  };
  std::uint32_t scratch[2][kWarps];  // block reductions and scans
};
constexpr std::size_t kSharedBytes = sizeof(Shared);

// The block's dynamic shared memory. Functions reach it through this (inlined) rather than a
// reference parameter: across an out-of-line call a reference is a generic pointer, and generic
// loads, stores and atomics are slower than shared-memory ones.
__device__ __forceinline__ Shared& shared_storage() {
  return dynamic_shared<Shared>();
}

struct OddEvenArgs {
  std::uint32_t* keys;
  std::uint32_t* values;
  std::uint32_t* scratch_keys;  // the sorted tiles
  std::uint32_t* scratch_values;
  TileEnds* ends;  // [tiles]
  std::uint32_t n;
  KeyBits bits;
  OddEvenStatus* status;
  const std::uint32_t* enable;        // when not null, the kernel does nothing unless *enable != 0
  const std::int32_t* caller_enable;  // the same, the caller's (sort_enabled)
  // When not null, a device word holding an address that the sorted values also go to (the
  // exact kernel alone: sort_exact_enabled).
  std::uint32_t* const* final_values_at;
  // The exact kernel alone: the input values are not read, each is its place (the identity).
  bool values_are_places;
  __device__ std::uint32_t input_value(std::uint32_t i) const {
    return values_are_places ? i : values[i];
  }
};

// Tile sort for crowded buckets (many equal keys): ranking inside a bucket costs its size per
// key, so radix-sort by the bits that vary instead (every key of the tile shares the bits above
// the highest bit of differ = lo ^ hi). Kept out of line: its registers do not burden the
// bucket path.
__device__ __noinline__ void radix_sort_tile(OddEvenArgs a, std::uint32_t start, int len,
                                             std::uint32_t differ, std::uint32_t* out_keys,
                                             std::uint32_t* out_values, TileEnds& ends) {
  Shared& sh = shared_storage();
  std::uint32_t keys[kItems], values[kItems];
#pragma unroll
  for (int i = 0; i < kItems; ++i) {  // reloaded (L2): the caller's registers stay its own
    const int q = Rank::striped_index(i);
    keys[i] = q < len ? a.keys[start + q] : 0xffffffffu;  // padding sorts last
    values[i] = q < len ? a.input_value(start + q) : 0u;
  }
  const KeyBits tile_bits{a.bits.begin_bit, a.bits.begin_bit + bit_width(differ)};
  block_sort_pairs<kThreads, kItems>(keys, values, tile_bits, sh.radix.rank, sh.radix.keys,
                                     sh.radix.values);
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int q = Rank::striped_index(i);
    if (q < len) {
      out_keys[start + q] = keys[i];
      out_values[start + q] = values[i];
      note_tile_end(ends, q, len, kWindow, a.bits(keys[i]));
    }
  }
}

// Stable sort of tile `tile` of the input into out_keys / out_values (same positions), recording
// its ends. Input index q is the warp-striped Rank::striped_index, as on the radix path.
// The per-tile steps are out-of-line calls (a call per tile costs nothing): inlined into one
// kernel body at 64 registers (2 blocks of 512 per SM) they spill.
__device__ __noinline__ void sort_tile(OddEvenArgs a, std::uint32_t tile, std::uint32_t* out_keys,
                                       std::uint32_t* out_values) {
  Shared& sh = shared_storage();
  const std::uint32_t start = tile * kTile;
  const int len = static_cast<int>(min(static_cast<std::uint32_t>(kTile), a.n - start));
  TileEnds& ends = a.ends[tile];
  std::uint32_t lo = 0xffffffffu, hi = 0;
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int q = Rank::striped_index(i);
    if (q < len) {  // each thread reads back only its own q until the scatter's barrier
      const std::uint32_t key = a.keys[start + q];
      sh.bucket.input_keys[q] = key;
      sh.bucket.input_values[q] = a.input_value(start + q);
      lo = min(lo, a.bits(key));
      hi = max(hi, a.bits(key));
    }
  }
  for (int b = static_cast<int>(threadIdx.x); b < kTile; b += kThreads) sh.bucket.offset[b] = 0;
  block_min_max(lo, hi, sh.scratch);  // its barriers also order the zeroing before the counting

  if (lo == hi) {  // all keys equal: the tile is its own stable sort
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const int q = Rank::striped_index(i);
      if (q < len) {
        out_keys[start + q] = sh.bucket.input_keys[q];
        out_values[start + q] = sh.bucket.input_values[q];
        note_tile_end(ends, q, len, kWindow, lo);
      }
    }
    return;
  }

  const TileBuckets bucket(lo, hi, kBucketBits);
  std::uint32_t ticket[kItems];  // bucket << 16 | place in the bucket (both < 2^12)
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int q = Rank::striped_index(i);
    if (q < len) {
      const std::uint32_t b = bucket(a.bits(sh.bucket.input_keys[q]));
      ticket[i] = b << 16 | atomicAdd(&sh.bucket.offset[b], 1u);
    }
  }
  __syncthreads();

  // Counts -> exclusive offsets. Thread t owns buckets [t * kItems, (t + 1) * kItems).
  const bool crowded = bucket_counts_to_offsets<kItems, kOddEvenBucketLimit>(
      &sh.bucket.offset[threadIdx.x * kItems], sh.scratch);
  if (threadIdx.x == 0) sh.bucket.offset[kTile] = static_cast<std::uint32_t>(len);

  if (__syncthreads_or(crowded)) {
    radix_sort_tile(a, start, len, lo ^ hi, out_keys, out_values, ends);
    return;
  }

#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int q = Rank::striped_index(i);
    if (q < len) {
      const std::uint32_t to = sh.bucket.offset[ticket[i] >> 16] + (ticket[i] & 0xffffu);
      sh.bucket.keys[to] = sh.bucket.input_keys[q];
      sh.bucket.values[to] = sh.bucket.input_values[q];
      sh.bucket.position[to] = static_cast<std::uint16_t>(q);
    }
  }
  __syncthreads();
  // Bucket order is sorted order up to the order inside each bucket: a key's place is its
  // bucket's offset plus the bucket's keys before it by (sort key, input position).
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int p = i * kThreads + static_cast<int>(threadIdx.x);
    if (p < len) {
      const std::uint32_t key = sh.bucket.keys[p];
      const std::uint32_t sort_key = a.bits(key);
      const std::uint32_t position = sh.bucket.position[p];
      const std::uint32_t b = bucket(sort_key);
      const int first = static_cast<int>(sh.bucket.offset[b]);
      const int end = static_cast<int>(sh.bucket.offset[b + 1]);
      int f = first;
      for (int m = first; m < end; ++m) {
        const std::uint32_t other = a.bits(sh.bucket.keys[m]);
        f += other < sort_key || (other == sort_key && sh.bucket.position[m] < position);
      }
      out_keys[start + f] = key;
      out_values[start + f] = sh.bucket.values[p];
      note_tile_end(ends, f, len, kWindow, sort_key);
    }
  }
  __syncthreads();  // shared memory is reused by the next tile
}

// True in every thread of every block when one round of merge-splits finishes the sort (each
// block reads all the tiles' ends, so all decide alike without another grid barrier).
__device__ bool one_round_everywhere(const OddEvenArgs& a, std::uint32_t tiles) {
  auto ends = [&](int i) { return a.ends[i]; };
  bool holds = true;
  for (std::uint32_t c = 1 + threadIdx.x; c < tiles; c += kThreads)
    holds = holds && one_round_holds(ends, static_cast<int>(c), static_cast<int>(tiles));
  return __syncthreads_and(holds) != 0;
}

// The one round for tile c: every pair of its sorted copy goes straight to its final place.
__device__ __noinline__ void place_tile(OddEvenArgs a, std::uint32_t c, std::uint32_t tiles) {
  Shared& sh = shared_storage();
  const std::uint32_t start = c * kTile;
  const int len = static_cast<int>(min(static_cast<std::uint32_t>(kTile), a.n - start));
  std::uint32_t keys[kItems], values[kItems];
#pragma unroll
  for (int i = 0; i < kItems; ++i) {  // issued before the window loads: the latencies overlap
    const int p = i * kThreads + static_cast<int>(threadIdx.x);
    if (p < len) {
      keys[i] = a.scratch_keys[start + p];
      values[i] = a.scratch_values[start + p];
    }
  }
  const TileEnds cur = a.ends[c];
  int left_len = 0, right_len = 0;
  if (c > 0) left_len = left_window(a.ends[c - 1], cur, kTile, kWindow);
  if (c + 1 < tiles) {
    const int next_len =
        static_cast<int>(min(static_cast<std::uint32_t>(kTile), a.n - start - kTile));
    right_len = right_window(cur, a.ends[c + 1], next_len, kWindow);
  }
  for (int i = static_cast<int>(threadIdx.x); i < left_len; i += kThreads)
    sh.neighbour.left[i] = a.bits(a.scratch_keys[start - static_cast<std::uint32_t>(left_len - i)]);
  for (int i = static_cast<int>(threadIdx.x); i < right_len; i += kThreads)
    sh.neighbour.right[i] = a.bits(a.scratch_keys[start + kTile + static_cast<std::uint32_t>(i)]);
  __syncthreads();
  auto left = [&](int i) { return sh.neighbour.left[i]; };
  auto right = [&](int j) { return sh.neighbour.right[j]; };
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int p = i * kThreads + static_cast<int>(threadIdx.x);
    if (p < len) {
      const std::uint32_t rank =
          one_round_rank(c, kTile, p, a.bits(keys[i]), left, left_len, right, right_len);
      a.keys[rank] = keys[i];
      a.values[rank] = values[i];
    }
  }
  __syncthreads();  // the windows are reloaded for the next tile
}

// Stable merge path of A and B (global memory) by one warp: each step probes 32 evenly spaced
// places of the search range at once, so it takes log32 rather than log2 memory round trips.
template <typename KeyA, typename KeyB>
__device__ int warp_merge_path(KeyA a, int a_len, KeyB b, int b_len, int diag) {
  int lo = max(0, diag - b_len), hi = min(diag, a_len);  // the answer lies in [lo, hi]
  while (lo < hi) {
    const int probe =
        lo + static_cast<int>(static_cast<long long>(hi - lo) * static_cast<int>(lane_id()) / 32);
    // The merge-path predicate is true below the answer and false from it on, and probes grow
    // with the lane, so the votes are a prefix of the lanes.
    const unsigned vote = __ballot_sync(kFullMask, a(probe) <= b(diag - 1 - probe));
    const int taken = __popc(vote);
    const int last_true = __shfl_sync(kFullMask, probe, max(taken - 1, 0));
    const int first_false = __shfl_sync(kFullMask, probe, min(taken, kWarpSize - 1));
    if (taken == 0) {
      hi = lo;
    } else {
      lo = last_true + 1;
      if (taken < kWarpSize) hi = first_false;
    }
  }
  return lo;
}

// Fallback round: output tile `tile` of the stable merge of neighbouring sorted runs of `run`
// pairs in src into dst.
__device__ __noinline__ void merge_tile(OddEvenArgs a, const std::uint32_t* src_keys,
                                        const std::uint32_t* src_values, std::uint32_t* dst_keys,
                                        std::uint32_t* dst_values, std::uint32_t run,
                                        std::uint32_t tile) {
  Shared& sh = shared_storage();
  const std::uint32_t out_begin = tile * kTile;
  const std::uint32_t out_end = min(out_begin + kTile, a.n);
  const std::uint32_t a_begin = static_cast<std::uint32_t>(
      out_begin / (2ull * run) * (2ull * run));  // the pair of runs this tile falls in
  const int a_len = static_cast<int>(min(run, a.n - a_begin));
  const std::uint32_t b_begin = a_begin + static_cast<std::uint32_t>(a_len);
  const int b_len = static_cast<int>(min(run, a.n - b_begin));
  const int diag0 = static_cast<int>(out_begin - a_begin);
  const int diag1 = static_cast<int>(out_end - a_begin);
  const KeyBits bits = a.bits;
  if (warp_id() < 2) {
    auto global_a = [&](int i) { return bits(src_keys[a_begin + static_cast<std::uint32_t>(i)]); };
    auto global_b = [&](int j) { return bits(src_keys[b_begin + static_cast<std::uint32_t>(j)]); };
    const int split =
        warp_merge_path(global_a, a_len, global_b, b_len, warp_id() == 0 ? diag0 : diag1);
    if (lane_id() == 0) sh.merge.split[warp_id()] = split;
  }
  __syncthreads();
  const int i0 = sh.merge.split[0], i1 = sh.merge.split[1];
  const int a_count = i1 - i0, b_count = (diag1 - i1) - (diag0 - i0);
  const int total = a_count + b_count;
  for (int k = static_cast<int>(threadIdx.x); k < total; k += kThreads) {
    const std::uint32_t from = k < a_count
                                   ? a_begin + static_cast<std::uint32_t>(i0 + k)
                                   : b_begin + static_cast<std::uint32_t>(diag0 - i0 + k - a_count);
    sh.merge.keys[k] = src_keys[from];
    sh.merge.values[k] = src_values[from];
  }
  __syncthreads();
  auto shared_a = [&](int i) { return bits(sh.merge.keys[i]); };
  auto shared_b = [&](int j) { return bits(sh.merge.keys[a_count + j]); };
  const int diag = min(static_cast<int>(threadIdx.x) * kItems, total);
  const int end = min(diag + kItems, total);
  int i = merge_path(shared_a, a_count, shared_b, b_count, diag);
  int j = diag - i;
  std::uint32_t out_keys[kItems], out_values[kItems];
#pragma unroll
  for (int o = 0; o < kItems; ++o) {
    if (diag + o < end) {
      const int from =
          merge_takes_a(shared_a, a_count, shared_b, b_count, i, j) ? i++ : a_count + j++;
      out_keys[o] = sh.merge.keys[from];
      out_values[o] = sh.merge.values[from];
    }
  }
  __syncthreads();
#pragma unroll
  for (int o = 0; o < kItems; ++o) {
    if (diag + o < end) {
      sh.merge.keys[diag + o] = out_keys[o];
      sh.merge.values[diag + o] = out_values[o];
    }
  }
  __syncthreads();
  for (int k = static_cast<int>(threadIdx.x); k < total; k += kThreads) {  // coalesced
    dst_keys[out_begin + static_cast<std::uint32_t>(k)] = sh.merge.keys[k];
    dst_values[out_begin + static_cast<std::uint32_t>(k)] = sh.merge.values[k];
  }
  __syncthreads();  // shared memory is reused by the next tile
}

// The sorted values, values[0, n), also to *a.final_values_at when it is given (the copy the
// pipeline's order stage would make: copy_kernels.cuh); every thread of the grid calls it once
// every block has written its part of values.
__device__ void copy_to_final_values(const OddEvenArgs& a, const std::uint32_t* values) {
  if (a.final_values_at != nullptr) copy_words(values, *a.final_values_at, a.n);
}

__global__ void __launch_bounds__(kThreads, 2) odd_even_kernel(OddEvenArgs a) {
  // Launched early (sort_exact_enabled), it reads nothing before the kernel ahead of it is done.
  detail::wait_for_previous_grid();
  if (detail::disabled(a.caller_enable)) return;
  if (a.enable != nullptr && *a.enable == 0) return;  // the window path sorted it
  cg::grid_group grid = cg::this_grid();
  const std::uint32_t tiles = (a.n + kTile - 1) / kTile;
  const bool first_thread = blockIdx.x == 0 && threadIdx.x == 0;

  if (tiles == 1) {  // one tile (the grid is one block): its sort is the result
    sort_tile(a, 0, a.keys, a.values);
    __syncthreads();
    copy_to_final_values(a, a.values);
    if (first_thread) *a.status = OddEvenStatus{1, 0, 0, 0};
    return;
  }

  for (std::uint32_t t = blockIdx.x; t < tiles; t += gridDim.x)
    sort_tile(a, t, a.scratch_keys, a.scratch_values);
  grid.sync();

  if (one_round_everywhere(a, tiles)) {
    for (std::uint32_t c = blockIdx.x; c < tiles; c += gridDim.x) place_tile(a, c, tiles);
    if (a.final_values_at != nullptr) {  // the same for the whole grid
      grid.sync();
      copy_to_final_values(a, a.values);
    }
    // The round's even and odd merge-splits were done together: two phases, nothing left.
    if (first_thread) *a.status = OddEvenStatus{1, 2, 0, 0};
    return;
  }

  // Far from sorted: merge the sorted tiles pairwise, ping-ponging with the scratch copy.
  std::uint32_t *src_keys = a.scratch_keys, *src_values = a.scratch_values;
  std::uint32_t *dst_keys = a.keys, *dst_values = a.values;
  for (std::uint64_t run = kTile; run < a.n; run *= 2) {
    for (std::uint32_t t = blockIdx.x; t < tiles; t += gridDim.x)
      merge_tile(a, src_keys, src_values, dst_keys, dst_values, static_cast<std::uint32_t>(run), t);
    grid.sync();
    std::uint32_t* const keys_written = dst_keys;
    std::uint32_t* const values_written = dst_values;
    dst_keys = src_keys;
    dst_values = src_values;
    src_keys = keys_written;
    src_values = values_written;
  }
  // The last round's grid barrier is behind every write: the copies need none of their own.
  if (src_keys != a.keys) {
    for (std::uint32_t i = blockIdx.x * kThreads + threadIdx.x; i < a.n;
         i += gridDim.x * kThreads) {
      a.keys[i] = src_keys[i];
      a.values[i] = src_values[i];
    }
  }
  copy_to_final_values(a, src_values);
  if (first_thread) *a.status = OddEvenStatus{0, 0, 1, 0};
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
  SortAlgorithm algorithm() const override { return SortAlgorithm::oddeven; }
  std::size_t capacity() const override { return capacity_; }
  const OddEvenStatus* device_status() const override { return status_.data(); }

  void sort(std::uint32_t* keys, std::uint32_t* values, std::size_t n, int begin_bit, int end_bit,
            cudaStream_t stream) override {
    sort_enabled(keys, values, n, begin_bit, end_bit, stream, nullptr);
  }

  void sort_enabled(std::uint32_t* keys, std::uint32_t* values, std::size_t n, int begin_bit,
                    int end_bit, cudaStream_t stream, const std::int32_t* enable) override {
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
      CUDA_CHECK_LAUNCH("window_check_kernel");
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
      CUDA_CHECK_LAUNCH("window_sort_kernel");
      CUDA_CHECK(cudaStreamWaitEvent(stream, exact_done_.get(), 0));
    } else {
      launch_exact(args, exact_blocks(tiles), stream);
    }
  }

  void sort_exact_enabled(std::uint32_t* keys, std::uint32_t* values, std::size_t n, int begin_bit,
                          int end_bit, cudaStream_t stream, const std::int32_t* enable,
                          std::uint32_t* const* final_values_at, bool values_are_places) override {
    if (!has_work(n, begin_bit, end_bit, stream)) {
      // Nothing to sort: the values (the identity, when they are the places) still go there.
      if (values_are_places && n > 0) {
        detail::identity_values_kernel<<<1, detail::kCopyThreads, 0, stream>>>(
            values, final_values_at, static_cast<std::uint32_t>(n), enable);
        CUDA_CHECK_LAUNCH("identity_values_kernel");
      } else if (final_values_at != nullptr && n > 0) {
        detail::copy_values_to_kernel<<<1, detail::kCopyThreads, 0, stream>>>(
            values, final_values_at, static_cast<std::uint32_t>(n), enable);
        CUDA_CHECK_LAUNCH("copy_values_to_kernel");
      }
      return;
    }
    OddEvenArgs args = exact_args(keys, values, n, begin_bit, end_bit, enable);
    args.final_values_at = final_values_at;
    args.values_are_places = values_are_places;
    // Early: as a partition stint's fallback it is launched on every frame and runs on almost
    // none, so what it costs is its launch, which then overlaps the sort ahead of it.
    launch_exact(args, exact_blocks((n + kTile - 1) / kTile), stream, /*early=*/true);
  }

 private:
  // Checks the arguments; with nothing to sort, marks the status converged (0 phases) and says
  // so.
  bool has_work(std::size_t n, int begin_bit, int end_bit, cudaStream_t stream) {
    check_sort_arguments(n, capacity_, begin_bit, end_bit);
    if (n >= 2 && begin_bit != end_bit) return true;
    mark_converged_kernel<<<1, 1, 0, stream>>>(status_.data());
    CUDA_CHECK_LAUNCH("mark_converged_kernel");
    return false;
  }

  // The exact kernel's arguments; `enable` is the caller's word (the window path adds its own).
  OddEvenArgs exact_args(std::uint32_t* keys, std::uint32_t* values, std::size_t n, int begin_bit,
                         int end_bit, const std::int32_t* enable) {
    return {keys,
            values,
            scratch_keys_.data(),
            scratch_values_.data(),
            ends_.data(),
            static_cast<std::uint32_t>(n),
            KeyBits{begin_bit, end_bit},
            status_.data(),
            nullptr,
            enable,
            nullptr,
            false};
  }

  // One block per tile is the most the tile sort can use; the grid must also be resident all at
  // once for the grid barrier (the cooperative launch enforces it).
  std::size_t exact_blocks(std::size_t tiles) const {
    return std::min(max_resident_blocks_, tiles);
  }

  // The exact kernel: a cooperative launch (its grid barriers need every block resident).
  static void launch_exact(const OddEvenArgs& args, std::size_t blocks, cudaStream_t stream,
                           bool early = false) {
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(static_cast<unsigned>(blocks));
    config.blockDim = dim3(kThreads);
    config.dynamicSmemBytes = kSharedBytes;
    config.stream = stream;
    cudaLaunchAttribute attributes[2]{};
    attributes[0].id = cudaLaunchAttributeCooperative;
    attributes[0].val.cooperative = 1;
    attributes[1].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attributes[1].val.programmaticStreamSerializationAllowed = 1;
    config.attrs = attributes;
    config.numAttrs = early ? 2 : 1;
    CUDA_CHECK(cudaLaunchKernelEx(&config, odd_even_kernel, args));
    CUDA_CHECK_LAUNCH("odd_even_kernel");
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
