#pragma once
// The radix sort's kernels: the histogram kernel, which counts the digits of every pass in one
// read of the keys and decides the sort's path, and the onesweep kernel, one LSD pass per launch
// (rank, decoupled look-back, scatter). Launched by radix_sort.cu, the one source that includes
// this header (internal linkage).
#include <cuda/atomic>

#include <cuda_pipeline_primitives.h>

#include <cstddef>
#include <cstdint>

#include "cuda/common/dynamic_shared.cuh"
#include "cuda/common/enable_word.cuh"
#include "cuda/common/warp.cuh"
#include "cuda/sort/block/block_radix.cuh"
#include "cuda/sort/radix/radix_engine.hpp"

namespace particles::cuda::detail {
namespace {

// Look-back status of one (tile, bucket): the sort's epoch in the high word, then 2 flag bits
// over a 30-bit count, written and read as one 64-bit word so a reader never sees a count
// without its flag. The epoch (bumped once per sort by the histogram kernel) makes words left by
// earlier sorts read as "not published", so the status array never needs clearing: at 2^24 pairs
// that memset alone was 9-18 MB per sort.
constexpr std::uint32_t kFlagAggregate = 1u << 30;  // count of this tile alone
constexpr std::uint32_t kFlagInclusive = 2u << 30;  // count of this tile and all before it
constexpr std::uint32_t kCountMask = (1u << 30) - 1u;
constexpr std::size_t kMaxPairs = kCountMask;  // counts must fit the 30 bits
constexpr int kMaxPasses = RadixControl::kMaxPasses;

using StatusRef = ::cuda::atomic_ref<std::uint64_t, ::cuda::thread_scope_device>;

// What the histogram kernel's last block decides, the only block to see every count. Unrouted
// sorts: when the MSD-first shortcut is planned (bucket_capacity > 0), whether it is taken.
// Routed sorts (radix_pass_route.hpp): which passes run and where.
struct RouteDecision {
  std::uint32_t bucket_capacity;  // pairs one bucket-sort block holds; 0: shortcut not planned
  bool parity_matters;            // routed: the result must end in the caller's arrays
  bool values_to_write;           // routed: values to a target of their own, or made as indices
  std::uint32_t* blocks_done;     // cleared per sort
  std::int32_t* partition_pass;   // the pass that partitions, or -1: plain LSD
  std::int32_t* lsd_on;           // unrouted: 1 when plain LSD runs (enables the copy back)
  RadixPassRoute* route;          // routed only
  std::uint32_t* tile_counters;   // routed: [passes], each pass's start written here
  std::int32_t* window_finish;    // unrouted, optional: set when only the two top passes run
  std::int32_t* window_skip;      // with window_finish: the low passes' early-return word
  std::uint32_t n;
};

// Routed passes find their part in the tile number they draw, so a block needs no load besides
// its atomic to start: the histogram kernel starts a skipped pass's counter at kTileSkipped, and
// that of a pass reading the engine's buffers (an odd run number) at kTileFromOurs; the first
// pass that runs has kTileFirstRun (it makes index values itself when told they are indices).
constexpr std::uint32_t kTileFirstRun = 1u << 29;

// Window finish (unrouted): passes 0 and 1 get the word the histogram kernel sets to this value,
// not a pass number, as their partition pass, so they return at once, or to -1, so they run. The
// two top passes are the same in both plans (an even number of passes before them).
constexpr std::int32_t kWindowSkipsLowPasses = kRadixMaxPasses;
constexpr std::uint32_t kTileSkipped = 1u << 30;
constexpr std::uint32_t kTileFromOurs = 1u << 31;
constexpr std::uint32_t kTileNumberMask = kTileFirstRun - 1u;

__device__ __forceinline__ std::uint32_t floor_of(const std::uint32_t* key_floor) {
  return key_floor != nullptr ? *key_floor : 0u;
}

// Routed: the digits counted are those of key - *key_floor (0 when null), and the last block
// plans the route. Unrouted sorts get a kernel without either (a template switch, as for
// radix_onesweep_kernel).
template <bool Routed>
__global__ void __launch_bounds__(kHistogramThreads)
    radix_histogram_kernel(const std::uint32_t* keys, std::uint32_t n, int begin_bit, int end_bit,
                           std::uint32_t* hist, std::uint32_t* epoch, const std::int32_t* enable,
                           const std::uint32_t* key_floor, RouteDecision decide) {
  if (disabled(enable)) {  // no kernel of the sort may run on words left by an earlier sort
    if (blockIdx.x == 0 && threadIdx.x == 0) {
      if (decide.bucket_capacity != 0) {
        *decide.partition_pass = -1;
        *decide.lsd_on = 0;
      }
      if (Routed) decide.route->copy_back = 0;
      if (decide.window_finish != nullptr) *decide.window_finish = 0;
    }
    return;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) ++*epoch;  // read by the passes, which start after us
  __shared__ std::uint32_t local[kMaxPasses][kRadixBuckets];
  const int passes = (end_bit - begin_bit + kRadixBits - 1) / kRadixBits;
  const std::uint32_t floor = Routed ? floor_of(key_floor) : 0u;
  for (int i = static_cast<int>(threadIdx.x); i < kMaxPasses * kRadixBuckets;
       i += kHistogramThreads)
    (&local[0][0])[i] = 0;
  __syncthreads();
  auto count = [&](std::uint32_t key) {
    key -= floor;
#pragma unroll
    for (int p = 0; p < kMaxPasses; ++p) {
      if (p < passes) {
        const int shift = begin_bit + p * kRadixBits;
        const KeyBits digit{shift, min(shift + kRadixBits, end_bit)};
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
  if (!Routed && decide.bucket_capacity == 0 && decide.window_finish == nullptr) return;

  // The last block to finish sees every count. A digit with one used bucket is shared by every
  // key; routed, its pass is skipped. For the shortcut: the digits above the highest one whose
  // keys differ are such digits (float depths share sign and exponent bits), so that digit
  // partitions, and the shortcut is taken when its fullest bucket fits one bucket-sort block.
  __shared__ bool last_block;
  __shared__ std::uint32_t fullest_of[kMaxPasses];
  __shared__ std::uint32_t used_of[kMaxPasses];
  __threadfence();  // this thread's counts are visible before the block reports done
  __syncthreads();
  if (threadIdx.x == 0) last_block = atomicAdd(decide.blocks_done, 1u) == gridDim.x - 1;
  if (threadIdx.x < kMaxPasses) {
    fullest_of[threadIdx.x] = 0;
    used_of[threadIdx.x] = 0;
  }
  __syncthreads();
  if (!last_block) return;
  __threadfence();
  for (int i = static_cast<int>(threadIdx.x); i < passes * kRadixBuckets; i += kHistogramThreads) {
    const std::uint32_t c = __ldcg(&hist[i]);
    if (c != 0) {
      atomicMax(&fullest_of[i / kRadixBuckets], c);
      atomicAdd(&used_of[i / kRadixBuckets], 1u);
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    if (Routed) {
      const RadixPassRoute route =
          plan_radix_route(used_of, passes, decide.parity_matters, decide.values_to_write);
      *decide.route = route;
      // Each pass learns its part from the tile number it draws (radix_onesweep_kernel).
      for (int p = 0; p < passes; ++p)
        decide.tile_counters[p] = route.run_index[p] < 0        ? kTileSkipped
                                  : route.run_index[p] % 2 == 1 ? kTileFromOurs
                                  : route.run_index[p] == 0     ? kTileFirstRun
                                                                : 0u;
    } else {
      if (decide.window_finish != nullptr) {
        const bool window = passes == kRadixMaxPasses &&
                            window_finish_fits(fullest_of[3], fullest_of[2], decide.n,
                                               kRadixWindowSkew, kRadixWindowMaxMeanGroup);
        *decide.window_finish = window ? 1 : 0;
        *decide.window_skip = window ? kWindowSkipsLowPasses : -1;
      }
      if (decide.bucket_capacity != 0) {
        int pass = passes - 1;
        while (pass > 0 && used_of[pass] <= 1) --pass;  // all keys equal: pass 0 (an identity)
        const bool fits = fullest_of[pass] <= decide.bucket_capacity;
        *decide.partition_pass = fits ? pass : -1;
        *decide.lsd_on = fits ? 0 : 1;
      }
    }
  }
}

struct OnesweepArgs {
  // Unrouted: this pass's source and destination, ping-ponged by the host. Routed: the caller's
  // arrays (in) and the engine's buffers (out) for every pass; each run reads one and writes the
  // other as the route says (a run with an even number reads the caller's).
  std::uint32_t* keys_in;  // not const: a partition pass may turn input and output around
  std::uint32_t* values_in;
  std::uint32_t* keys_out;
  std::uint32_t* values_out;
  std::uint32_t n;
  int shift;
  int bits;                        // digit width of this pass, 1..8
  const std::uint32_t* pass_hist;  // [256] global digit counts of this pass
  std::uint32_t* tile_counter;
  std::uint64_t* status;  // [tiles][256]
  const std::uint32_t* epoch;
  const std::int32_t* enable;
  // When set, values go there instead: unrouted, from the pass given it; routed, from the
  // route's final pass.
  std::uint32_t* const* values_out_at;
  // Unrouted, set when the MSD-first shortcut is planned: *partition_pass (from the histogram
  // kernel) is -1 for plain LSD; otherwise only that pass runs, as the shortcut's partition step:
  // it reads the caller's arrays (in and out swapped when swap_on_partition, an odd pass) and
  // leaves the final write to the bucket sort (values_out_at unused).
  const std::int32_t* partition_pass;
  int pass;
  bool swap_on_partition;
  const RadixPassRoute* route;     // routed: from the histogram kernel
  const std::uint32_t* key_floor;  // routed: digits are taken of key - *key_floor; null: of key
  bool values_are_indices;         // routed: the first run makes values_in[i] = i, unread
};

template <int Threads, int Items, Multisplit Method>
struct OnesweepShared {
  typename BlockRadixRank<Threads, Items, Method>::Storage rank;
  std::uint32_t global_base[kRadixBuckets];    // output index of tile position j is base[d] + j
  std::uint32_t tile;                          // as drawn (routed: with the flags of kTileSkipped)
  std::uint32_t tile_buffer[Threads * Items];  // keys, then values, in tile-sorted order
  std::uint32_t value_stage[Threads * Items];  // this tile's values in input order
  std::uint8_t slot_digit[Threads * Items];    // digit of the key at each tile-sorted slot
};

// One LSD pass over one tile. Register budget is what sets the speed: keys and ranks are the
// only per-item arrays held (digits are recomputed from keys, output slots from the shared
// tile), and values never enter registers before the scatter: they travel global -> shared by
// cp.async while the keys are ranked. That keeps 15 items within 64 registers, so several
// blocks share an SM and one block's ranking overlaps another's loads and stores.
// Routed is a template switch, not a run-time test: routed passes (buffers chosen on the device,
// digits of key - floor) ran measurably slower per pass (docs/notes/radix.md, "Routed radix"), so
// sorts that do not ask for routing keep the host-routed kernel.
template <int Threads, int Items, int MinBlocks, Multisplit Method, bool Routed>
__global__ void __launch_bounds__(Threads, MinBlocks) radix_onesweep_kernel(OnesweepArgs a) {
  using Rank = BlockRadixRank<Threads, Items, Method>;
  constexpr int kTile = Threads * Items;
  auto& sh = dynamic_shared<OnesweepShared<Threads, Items, Method>>();
  if (disabled(a.enable)) return;
  if (!Routed && a.partition_pass != nullptr && *a.partition_pass >= 0 &&
      *a.partition_pass != a.pass)
    return;

  // Tiles are numbered in the order blocks start, so every tile this one waits for in the
  // look-back is already running: no deadlock whatever the scheduler does. Routed, the number
  // drawn also says whether the pass is skipped and which buffers it reads (kTileSkipped).
  if (threadIdx.x == 0) sh.tile = atomicAdd(a.tile_counter, 1u);
  __syncthreads();
  if (Routed && (sh.tile & kTileSkipped) != 0) return;  // every key has the same digit
  const std::uint32_t tile = Routed ? sh.tile & kTileNumberMask : sh.tile;
  const std::uint32_t tile_start = tile * kTile;
  const bool swap =
      Routed ? (sh.tile & kTileFromOurs) != 0
             : a.swap_on_partition && a.partition_pass != nullptr && *a.partition_pass == a.pass;
  const std::uint32_t* const keys_in = swap ? a.keys_out : a.keys_in;
  const std::uint32_t* const values_in = swap ? a.values_out : a.values_in;
  const std::uint32_t valid = min(static_cast<std::uint32_t>(kTile), a.n - tile_start);
  const std::uint32_t floor = Routed ? floor_of(a.key_floor) : 0u;
  // The digit of key - floor; padding, floor - 1, has every digit at its top bucket.
  const KeyBits bits_of_digit{a.shift, a.shift + a.bits};
  auto digit_bits = [&](std::uint32_t key) { return bits_of_digit(key - floor); };

  // Values are in flight until the scatter needs them, or made here when they are the indices.
  const bool make_values = Routed && a.values_are_indices && (sh.tile & kTileFirstRun) != 0;
#pragma unroll
  for (int k = 0; k < Items; ++k) {
    const std::uint32_t j = threadIdx.x + static_cast<std::uint32_t>(k * Threads);
    if (j < valid) {
      if (make_values)
        sh.value_stage[j] = tile_start + j;
      else
        __pipeline_memcpy_async(&sh.value_stage[j], &values_in[tile_start + j], 4);
    }
  }
  __pipeline_commit();
  std::uint32_t keys[Items], rank[Items];
#pragma unroll
  for (int i = 0; i < Items; ++i) {
    const std::uint32_t j = static_cast<std::uint32_t>(Rank::striped_index(i));
    keys[i] = j < valid ? keys_in[tile_start + j] : floor - 1u;  // padding sorts last
  }

  const std::uint32_t global_count = threadIdx.x < kRadixBuckets ? a.pass_hist[threadIdx.x] : 0u;
  const std::uint32_t global_start =
      block_exclusive_sum_256(global_count, sh.rank.scan_scratch, &sh.rank.scan_total);
  Rank::rank_by([&](int i) { return digit_bits(keys[i]); }, rank, sh.rank);

#pragma unroll
  for (int i = 0; i < Items; ++i) sh.tile_buffer[rank[i]] = keys[i];

  const std::uint32_t used_buckets = 1u << a.bits;
  if (threadIdx.x < used_buckets) {
    const std::uint32_t d = threadIdx.x;
    const std::uint64_t stamp = static_cast<std::uint64_t>(*a.epoch) << 32;
    std::uint32_t count = sh.rank.bucket_count[d];
    if (d == used_buckets - 1) count -= kTile - valid;  // padding is all in the top bucket
    StatusRef mine(a.status[static_cast<std::size_t>(tile) * kRadixBuckets + d]);
    std::uint32_t exclusive = 0;
    if (tile == 0) {
      mine.store(stamp | kFlagInclusive | count, ::cuda::memory_order_relaxed);
    } else {
      mine.store(stamp | kFlagAggregate | count, ::cuda::memory_order_relaxed);
      // Decoupled look-back: add aggregates of earlier tiles until one publishes an inclusive
      // prefix. Epoch, flag and count travel in one word, so relaxed loads suffice.
      for (std::uint32_t k = tile - 1;;) {
        StatusRef other(a.status[static_cast<std::size_t>(k) * kRadixBuckets + d]);
        const std::uint64_t word = other.load(::cuda::memory_order_relaxed);
        if ((word & ~std::uint64_t{0xffffffffu}) != stamp) continue;  // not published: spin
        const auto low = static_cast<std::uint32_t>(word);
        exclusive += low & kCountMask;
        if (low & kFlagInclusive) break;
        --k;
      }
      mine.store(stamp | kFlagInclusive | (exclusive + count), ::cuda::memory_order_relaxed);
    }
    sh.global_base[d] = global_start + exclusive - sh.rank.bucket_offset[d];
  }
  __pipeline_wait_prior(0);  // this thread's value copies have landed
  __syncthreads();

  // Consecutive threads write consecutive addresses of each bucket's run. Each slot's digit is
  // kept in shared memory for the value scatter (a register array of output indices here would
  // push the kernel past 64 registers).
  // Routed: read again, not held across the ranking (registers; see the value scatter below).
  const bool swap_out = Routed ? a.route->run_index[a.pass] % 2 == 1 : swap;
#pragma unroll
  for (int k = 0; k < Items; ++k) {
    const std::uint32_t j = threadIdx.x + static_cast<std::uint32_t>(k * Threads);
    if (j < valid) {
      const std::uint32_t key = sh.tile_buffer[j];
      const std::uint32_t d = digit_bits(key);
      sh.slot_digit[j] = static_cast<std::uint8_t>(d);
      (swap_out ? a.keys_in : a.keys_out)[sh.global_base[d] + j] = key;
    }
  }
  __syncthreads();
#pragma unroll
  for (int i = 0; i < Items; ++i) sh.tile_buffer[rank[i]] = sh.value_stage[Rank::striped_index(i)];
  __syncthreads();
  // Read only now: a register held across the ranking would push the kernel into spills.
  std::uint32_t* values_out;
  if (Routed) {
    values_out = a.values_out_at != nullptr && a.route->final_pass == a.pass ? *a.values_out_at
                 : swap_out                                                  ? a.values_in
                                                                             : a.values_out;
  } else {
    const bool partition = a.partition_pass != nullptr && *a.partition_pass == a.pass;
    values_out = partition                    ? (a.swap_on_partition ? a.values_in : a.values_out)
                 : a.values_out_at != nullptr ? *a.values_out_at
                                              : a.values_out;
  }
#pragma unroll
  for (int k = 0; k < Items; ++k) {
    const std::uint32_t j = threadIdx.x + static_cast<std::uint32_t>(k * Threads);
    if (j < valid) values_out[sh.global_base[sh.slot_digit[j]] + j] = sh.tile_buffer[j];
  }
}

}  // namespace
}  // namespace particles::cuda::detail
