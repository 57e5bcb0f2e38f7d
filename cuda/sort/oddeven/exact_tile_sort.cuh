#pragma once
// The exact sort's first phase (exact_merge_sort.cuh has the whole sort): every tile sorted
// stably into the scratch copy, by a bucket sort over the tile's key range, or by the block radix
// sort when its buckets are crowded. Also what every phase shares: the block shape, the shared
// memory layouts and the sort's arguments.
#include <cstddef>
#include <cstdint>

#include "cuda/common/dynamic_shared.cuh"
#include "cuda/common/warp.cuh"
#include "cuda/sort/block/block_buckets.cuh"
#include "cuda/sort/block/block_radix.cuh"
#include "cuda/sort/block/merge.hpp"
#include "cuda/sort/policy.hpp"

namespace particles::cuda::detail::exact {
// Internal linkage: each source that includes it compiles its own copy (no relocatable device
// code), the odd-even sorter's and the partition sort's.
namespace {

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
  std::uint32_t ticket;              // TicketSchedule: the unit thread 0 took for the block
};
constexpr std::size_t kSharedBytes = sizeof(Shared);

struct Args {
  std::uint32_t* keys;
  std::uint32_t* values;
  std::uint32_t* scratch_keys;  // the sorted tiles; n each
  std::uint32_t* scratch_values;
  TileEnds* ends;  // [tiles]
  std::uint32_t n;
  KeyBits bits;
  // When not null, a device word holding an address that the sorted values also go to.
  std::uint32_t* const* final_values_at;
  // The input values are not read: each is its place (the identity).
  bool values_are_places;
  __device__ std::uint32_t input_value(std::uint32_t i) const {
    return values_are_places ? i : values[i];
  }
};

// Tile sort for crowded buckets (many equal keys): ranking inside a bucket costs its size per
// key, so radix-sort by the bits that vary instead (every key of the tile shares the bits above
// the highest bit of differ = lo ^ hi). Kept out of line: its registers do not burden the
// bucket path.
__device__ __noinline__ void radix_sort_tile(Args a, std::uint32_t start, int len,
                                             std::uint32_t differ, std::uint32_t* out_keys,
                                             std::uint32_t* out_values, TileEnds& ends) {
  Shared& sh = dynamic_shared<Shared>();
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

// sort_tile's last step, once the tile's pairs are in bucket order in shared memory: bucket order
// is sorted order up to the order inside each bucket, so a key's place is its bucket's offset plus
// the bucket's keys before it by (sort key, input position). Inlined: a step of sort_tile's body.
__device__ __forceinline__ void rank_in_buckets(const Args& a, const TileBuckets& bucket,
                                                std::uint32_t start, int len,
                                                std::uint32_t* out_keys, std::uint32_t* out_values,
                                                TileEnds& ends) {
  Shared& sh = dynamic_shared<Shared>();
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
}

// Stable sort of tile `tile` of the input into out_keys / out_values (same positions), recording
// its ends. Input index q is the warp-striped Rank::striped_index, as on the radix path.
// The per-tile steps are out-of-line calls (a call per tile costs nothing): inlined into one
// kernel body at 64 registers (2 blocks of 512 per SM) they spill.
__device__ __noinline__ void sort_tile(Args a, std::uint32_t tile, std::uint32_t* out_keys,
                                       std::uint32_t* out_values) {
  Shared& sh = dynamic_shared<Shared>();
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
  rank_in_buckets(a, bucket, start, len, out_keys, out_values, ends);
  __syncthreads();  // shared memory is reused by the next tile
}

}  // namespace
}  // namespace particles::cuda::detail::exact
