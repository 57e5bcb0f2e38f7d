// Our LSD radix sort: kernels, the engine that plans and launches them, and the radix Sorter.
// See radix_engine.hpp for the plan; block_radix.cuh for the ranking.
#include <cuda/atomic>

#include <cuda_pipeline_primitives.h>

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <stdexcept>
#include <utility>

#include "cuda/common/check.hpp"
#include "cuda/common/dynamic_shared.cuh"
#include "cuda/common/launch_grid.hpp"
#include "cuda/sort/block/block_radix.cuh"
#include "cuda/sort/copy_kernels.cuh"
#include "cuda/sort/radix/radix_bucket_sort.cuh"
#include "cuda/sort/radix/radix_engine.hpp"
#include "cuda/sort/sorters_internal.hpp"

namespace particles::cuda {
namespace detail {
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

template <RadixPolicy P>
constexpr std::size_t onesweep_shared_bytes() {
  return sizeof(
      OnesweepShared<P.threads, P.items_per_thread, static_cast<Multisplit>(P.multisplit)>);
}

template <RadixPolicy P, bool Routed>
constexpr auto onesweep_kernel_of() {
  return radix_onesweep_kernel<P.threads, P.items_per_thread, P.min_blocks_per_sm,
                               static_cast<Multisplit>(P.multisplit), Routed>;
}

template <RadixPolicy P>
void prepare_onesweep() {
  for (auto kernel : {onesweep_kernel_of<P, false>(), onesweep_kernel_of<P, true>()})
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(onesweep_shared_bytes<P>())));
}

template <RadixPolicy P>
void launch_onesweep(const OnesweepArgs& args, std::size_t tiles, bool routed,
                     cudaStream_t stream) {
  const auto kernel = routed ? onesweep_kernel_of<P, true>() : onesweep_kernel_of<P, false>();
  kernel<<<static_cast<unsigned>(tiles), P.threads, onesweep_shared_bytes<P>(), stream>>>(args);
  CUDA_CHECK_LAUNCH("radix_onesweep_kernel", stream);
}

// Compile-time index over kRadixPolicies, so each policy's kernel is instantiated once.
template <std::size_t... I>
void prepare_all(std::index_sequence<I...>) {
  (prepare_onesweep<kRadixPolicies[I]>(), ...);
}
template <std::size_t... I>
void launch_policy(std::size_t index, const OnesweepArgs& args, std::size_t tiles, bool routed,
                   cudaStream_t stream, std::index_sequence<I...>) {
  ((index == I ? launch_onesweep<kRadixPolicies[I]>(args, tiles, routed, stream) : void()), ...);
}
constexpr auto kPolicyIndices = std::make_index_sequence<std::size(kRadixPolicies)>();

template <RadixBucketPolicy P, bool Spread>
constexpr auto bucket_kernel_of() {
  return radix_bucket_sort_kernel<P.threads, P.items_per_thread, P.min_blocks_per_sm, Spread>;
}
template <RadixBucketPolicy P>
constexpr std::size_t bucket_shared_bytes() {
  return sizeof(BucketSortShared<P.threads, P.items_per_thread>);
}
template <RadixBucketPolicy P>
void prepare_bucket_sort() {
  for (auto kernel : {bucket_kernel_of<P, true>(), bucket_kernel_of<P, false>()})
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(bucket_shared_bytes<P>())));
}
template <std::size_t... I>
void prepare_bucket_sorts(std::index_sequence<I...>) {
  (prepare_bucket_sort<kRadixBucketPolicies[I]>(), ...);
}
// spread: whether buckets may be ranked by sub-buckets (radix_bucket_sort.cuh); sorts of 2 passes
// leave at most 8 bits below the partition digit, which LSD ranks faster.
template <RadixBucketPolicy P>
void launch_bucket_sort(const BucketSortArgs& args, unsigned buckets, bool spread,
                        cudaStream_t stream) {
  const auto kernel = spread ? bucket_kernel_of<P, true>() : bucket_kernel_of<P, false>();
  kernel<<<buckets, P.threads, bucket_shared_bytes<P>(), stream>>>(args);
  CUDA_CHECK_LAUNCH("radix_bucket_sort_kernel", stream);
}
template <std::size_t... I>
void launch_bucket_policy(std::size_t index, const BucketSortArgs& args, unsigned buckets,
                          bool spread, cudaStream_t stream, std::index_sequence<I...>) {
  ((index == I ? launch_bucket_sort<kRadixBucketPolicies[I]>(args, buckets, spread, stream)
               : void()),
   ...);
}
constexpr auto kBucketPolicyIndices = std::make_index_sequence<std::size(kRadixBucketPolicies)>();

// Our radix sort behind the Sorter interface, honouring every SortRequest option (the frame's
// sorts). A plain 32-bit sort of many pairs may end with the odd-even window sort instead of the
// two low passes (RadixSortOptions::window_finish), decided on the device; a request with any
// option does not: the window sort can neither write a final target nor start from a floor, and
// its own enable word is the engine's verdict, which a disabled sort would leave stale.
class RadixSorter final : public Sorter {
 public:
  explicit RadixSorter(std::size_t capacity)
      : engine_(capacity),
        window_(capacity >= kRadixWindowMinPairs ? make_odd_even_sorter_impl(capacity) : nullptr),
        window_finish_(1) {
    CUDA_CHECK(cudaMemset(window_finish_.data(), 0, sizeof(std::int32_t)));
  }
  Algorithm algorithm() const override { return Algorithm::radix; }
  std::size_t capacity() const override { return engine_.capacity(); }
  SorterTraits traits() const override {
    return {.enable = true, .final_values = true, .key_floor = true, .values_are_indices = true};
  }

 private:
  void enqueue(const SortRequest& r, cudaStream_t stream) override {
    const bool plain = r.enable == nullptr && r.final_values == nullptr && r.key_floor == nullptr &&
                       !r.values_are_indices;
    if (plain && window_ && r.n >= kRadixWindowMinPairs && r.begin_bit == 0 && r.end_bit == 32) {
      engine_.set_shortcut(RadixShortcut::by_size);  // not planned with a window finish
      engine_.sort(r.keys, r.values, r.n, 0, 32, stream, {.window_finish = window_finish_.data()});
      window_->sort({.keys = r.keys,
                     .values = r.values,
                     .n = r.n,
                     .begin_bit = 0,
                     .end_bit = 32,
                     .enable = window_finish_.data()},
                    stream);
      return;
    }
    engine_.set_shortcut(r.top_digit_crowded ? RadixShortcut::never : RadixShortcut::by_size);
    engine_.sort(r.keys, r.values, r.n, r.begin_bit, r.end_bit, stream,
                 {.enable = r.enable,
                  .final_values = r.final_values,
                  .key_floor = r.key_floor,
                  .values_are_indices = r.values_are_indices,
                  .keys_needed = r.keys_needed});
  }

  RadixSortEngine engine_;
  std::unique_ptr<OddEvenSorter> window_;     // only for capacities the window finish can use
  DeviceBuffer<std::int32_t> window_finish_;  // the engine's verdict, the window sort's enable
};

}  // namespace

std::unique_ptr<Sorter> make_radix_sorter(std::size_t capacity) {
  return std::make_unique<RadixSorter>(capacity);
}

}  // namespace detail

RadixSortEngine::RadixSortEngine(std::size_t capacity)
    : capacity_(capacity), alt_keys_(capacity), alt_values_(capacity) {
  if (capacity > detail::kMaxPairs)
    throw std::invalid_argument("radix sort capacity above 2^30 - 1 pairs");
  sm_count_ = static_cast<int>(detail::sm_count());
  detail::prepare_all(detail::kPolicyIndices);
  detail::prepare_bucket_sorts(detail::kBucketPolicyIndices);
  int smallest_tile = kRadixPolicies[0].tile();
  for (const RadixPolicy& p : kRadixPolicies) smallest_tile = std::min(smallest_tile, p.tile());
  max_tiles_ = std::max<std::size_t>(
      1, (capacity + static_cast<std::size_t>(smallest_tile) - 1) / smallest_tile);
  // The status words start at zero once (their epoch tells sorts apart), as does the control.
  control_ = DeviceBuffer<detail::RadixControl>(1);
  status_ = DeviceBuffer<std::uint64_t>(static_cast<std::size_t>(detail::kMaxPasses) * max_tiles_ *
                                        kRadixBuckets);
  CUDA_CHECK(cudaMemset(control_.data(), 0, control_.size_bytes()));
  CUDA_CHECK(cudaMemset(status_.data(), 0, status_.size() * sizeof(std::uint64_t)));
}

int RadixSortEngine::last_partition_pass() const {
  if (!shortcut_planned_) return -1;
  std::int32_t pass = -1;
  CUDA_CHECK(
      cudaMemcpy(&pass, &control_.data()->partition_pass, sizeof pass, cudaMemcpyDeviceToHost));
  return pass;
}

int RadixSortEngine::last_run_passes() const {
  if (!routed_) return -1;
  std::int32_t runs = 0;
  CUDA_CHECK(cudaMemcpy(&runs, &control_.data()->route.runs, sizeof runs, cudaMemcpyDeviceToHost));
  return runs;
}

// One sort's host plan: what RadixSortEngine::sort decided before it enqueues anything.
struct RadixSortEngine::Run {
  std::uint32_t n = 0;
  int begin_bit = 0;
  int end_bit = 0;
  int passes = 0;
  bool routed = false;         // the frame's plan: passes with a shared digit skipped
  bool window_finish = false;  // the library's: the two top passes, then the odd-even window
  int bucket_policy = -1;      // the library's MSD-first shortcut, or -1: not planned
  std::size_t policy_index = 0;
  std::size_t tiles = 0;
  bool parity_matters = false;  // the result must end in the caller's arrays
};

RadixSortEngine::Run RadixSortEngine::plan(std::size_t n, int begin_bit, int end_bit,
                                           const RadixSortOptions& options) const {
  Run run;
  run.n = static_cast<std::uint32_t>(n);
  run.begin_bit = begin_bit;
  run.end_bit = end_bit;
  run.passes = (end_bit - begin_bit + kRadixBits - 1) / kRadixBits;
  // Routed sorts skip shared digits; the shortcut is not planned for them (its partition already
  // stands in for every other pass).
  run.routed = options.routed();
  run.window_finish = options.window_finish != nullptr;  // checked by check_radix_options
  run.bucket_policy = run.routed || run.window_finish
                          ? -1
                          : radix_bucket_policy_for(n, run.passes, shortcut_, bucket_policy_);
  run.policy_index = radix_tile_policy_for(n, options.policy);
  const auto tile = static_cast<std::size_t>(kRadixPolicies[run.policy_index].tile());
  run.tiles = (n + tile - 1) / tile;
  run.parity_matters = options.keys_needed || options.final_values == nullptr;
  return run;
}

void RadixSortEngine::sort(std::uint32_t* keys, std::uint32_t* values, std::size_t n, int begin_bit,
                           int end_bit, cudaStream_t stream, const RadixSortOptions& options) {
  detail::check_sort_arguments(n, capacity_, begin_bit, end_bit);
  check_radix_options(options, n, begin_bit, end_bit);
  shortcut_planned_ = false;
  routed_ = false;
  if (n < 2 || begin_bit == end_bit) {
    enqueue_empty_sort(values, n, options, stream);
    return;
  }
  const Run run = plan(n, begin_bit, end_bit, options);
  routed_ = run.routed;
  shortcut_planned_ = run.bucket_policy >= 0;
  enqueue_histogram(run, keys, options, stream);
  enqueue_passes(run, keys, values, options, stream);
  if (shortcut_planned_) enqueue_shortcut_buckets(run, keys, values, options, stream);
  // An odd pass count leaves the result in our buffers (routed: an odd count of run passes,
  // which with an even pass count the route never leaves; radix_pass_route.hpp).
  if (run.passes % 2 == 1 && run.parity_matters)
    enqueue_copy_back(run, keys, values, options, stream);
}

void RadixSortEngine::enqueue_empty_sort(std::uint32_t* values, std::size_t n,
                                         const RadixSortOptions& options, cudaStream_t stream) {
  // Already in order; the values may still have to move.
  if (options.values_are_indices && n == 1)
    CUDA_CHECK(cudaMemsetAsync(values, 0, sizeof(std::uint32_t), stream));  // the index 0
  if (options.final_values != nullptr && n > 0) {
    detail::copy_values_to_kernel<<<1, 256, 0, stream>>>(
        values, options.final_values, static_cast<std::uint32_t>(n), options.enable);
    CUDA_CHECK_LAUNCH("copy_values_to_kernel", stream);
  }
}

void RadixSortEngine::enqueue_histogram(const Run& run, const std::uint32_t* keys,
                                        const RadixSortOptions& options, cudaStream_t stream) {
  detail::RadixControl* control = control_.data();
  CUDA_CHECK(cudaMemsetAsync(control, 0, offsetof(detail::RadixControl, epoch), stream));
  const detail::RouteDecision decide{
      run.bucket_policy >= 0
          ? static_cast<std::uint32_t>(kRadixBucketPolicies[run.bucket_policy].capacity())
          : 0u,
      run.parity_matters,
      options.final_values != nullptr || options.values_are_indices,
      &control->blocks_done,
      &control->partition_pass,
      &control->lsd_on,
      &control->route,
      control->tile_counters,
      options.window_finish,
      &control->window_skip,
      run.n};
  std::uint32_t* hist = &control->hist[0][0];
  const unsigned hist_blocks = static_cast<unsigned>(
      std::min<std::size_t>(static_cast<std::size_t>(sm_count_) * kHistogramBlocksPerSm,
                            (run.n + 4 * kHistogramThreads - 1) / (4 * kHistogramThreads)));
  if (run.routed) {
    detail::radix_histogram_kernel<true><<<hist_blocks, kHistogramThreads, 0, stream>>>(
        keys, run.n, run.begin_bit, run.end_bit, hist, &control->epoch, options.enable,
        options.key_floor, decide);
  } else {
    detail::radix_histogram_kernel<false><<<hist_blocks, kHistogramThreads, 0, stream>>>(
        keys, run.n, run.begin_bit, run.end_bit, hist, &control->epoch, options.enable, nullptr,
        decide);
  }
  CUDA_CHECK_LAUNCH("radix_histogram_kernel", stream);
}

void RadixSortEngine::enqueue_passes(const Run& run, std::uint32_t* keys, std::uint32_t* values,
                                     const RadixSortOptions& options, cudaStream_t stream) {
  // Unrouted: keys/values ping-pong between the caller's arrays and our buffers as the host
  // says; with the shortcut planned every pass is launched, and on the device all run (plain
  // LSD) or only the partition pass, reading the caller's arrays. Routed: every pass gets both
  // homes and runs or returns as the route says.
  detail::RadixControl* control = control_.data();
  const bool shortcut_planned = run.bucket_policy >= 0;
  std::uint32_t* src_k = keys;
  std::uint32_t* src_v = values;
  std::uint32_t* dst_k = alt_keys_.data();
  std::uint32_t* dst_v = alt_values_.data();
  for (int pass = 0; pass < run.passes; ++pass) {
    const int shift = run.begin_bit + pass * kRadixBits;
    const bool top = pass == run.passes - 1;
    const bool odd = pass % 2 == 1;
    const detail::OnesweepArgs args{
        run.routed ? keys : src_k,
        run.routed ? values : src_v,
        run.routed ? alt_keys_.data() : dst_k,
        run.routed ? alt_values_.data() : dst_v,
        run.n,
        shift,
        std::min(kRadixBits, run.end_bit - shift),
        &control->hist[pass][0],
        control->tile_counters + pass,
        status_.data() + static_cast<std::size_t>(pass) * max_tiles_ * kRadixBuckets,
        &control->epoch,
        options.enable,
        run.routed || top ? options.final_values : nullptr,
        shortcut_planned                ? &control->partition_pass
        : run.window_finish && pass < 2 ? &control->window_skip
                                        : nullptr,
        pass,
        shortcut_planned && odd,  // odd passes read our buffers; a partition, the caller's
        &control->route,
        options.key_floor,
        options.values_are_indices};
    detail::launch_policy(run.policy_index, args, run.tiles, run.routed, stream,
                          detail::kPolicyIndices);
    std::swap(src_k, dst_k);
    std::swap(src_v, dst_v);
  }
}

void RadixSortEngine::enqueue_shortcut_buckets(const Run& run, std::uint32_t* keys,
                                               std::uint32_t* values,
                                               const RadixSortOptions& options,
                                               cudaStream_t stream) {
  detail::RadixControl* control = control_.data();
  const detail::BucketSortArgs args{alt_keys_.data(), alt_values_.data(),      keys,
                                    values,           options.final_values,    &control->hist[0][0],
                                    run.begin_bit,    &control->partition_pass};
  detail::launch_bucket_policy(static_cast<std::size_t>(run.bucket_policy), args, kRadixBuckets,
                               run.passes > 2, stream, detail::kBucketPolicyIndices);
}

void RadixSortEngine::enqueue_copy_back(const Run& run, std::uint32_t* keys, std::uint32_t* values,
                                        const RadixSortOptions& options, cudaStream_t stream) {
  detail::RadixControl* control = control_.data();
  const unsigned blocks = static_cast<unsigned>(
      std::min<std::size_t>(static_cast<std::size_t>(sm_count_) * 4, (run.n + 255) / 256));
  // With final_values the values are already where they belong; only the keys come back.
  detail::copy_pairs_kernel<<<blocks, 256, 0, stream>>>(
      alt_keys_.data(), options.final_values != nullptr ? nullptr : alt_values_.data(), keys,
      values, run.n,
      run.routed               ? &control->route.copy_back
      : run.bucket_policy >= 0 ? &control->lsd_on
                               : options.enable);
  CUDA_CHECK_LAUNCH("copy_pairs_kernel", stream);
}

}  // namespace particles::cuda
