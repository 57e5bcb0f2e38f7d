#pragma once
// Block-level radix ranking and sorting of keys held in registers, the building block of the
// LSD radix pass, the odd-even tile sort and quicksort's shared-memory finish.
//
// Layout: "warp-striped". Warp w of the block owns the contiguous slice
// [w * items * 32, (w + 1) * items * 32) of the tile; item i of lane l is element
// w * items * 32 + i * 32 + l. Walking items in order, lanes in order, therefore walks the tile in
// index order, which is what makes the ranking stable, and each item is one coalesced load.
#include <cstdint>

#include "cuda/common/warp.cuh"
#include "cuda/sort/key_bits.hpp"
#include "cuda/sort/policy.hpp"

namespace particles::cuda::detail {

// How a warp finds the lanes holding the same digit (the multisplit at the heart of ranking).
// Both are exact; bench/sort_bench's tuning table times them against each other.
// (__match_any_sync, a third way, was measured slowest and removed: docs/notes/radix.md.)
enum class Multisplit {
  ballot,     // one __ballot_sync per digit bit: 8 votes, ~40 instructions per item row
  atomic_or,  // each lane ORs its bit into a shared mask of its digit, then reads the mask back
};

// DigitBits: how many low bits a digit may use (the ballot multisplit votes once per bit), for
// callers whose digits are narrower than kRadixBits; the storage keeps kRadixBuckets counters.
template <int Threads, int Items, Multisplit Method = Multisplit::ballot,
          int DigitBits = kRadixBits>
struct BlockRadixRank {
  static_assert(Threads >= kRadixBuckets, "one thread per bucket in the bucket scans");
  static_assert(DigitBits >= 1 && DigitBits <= kRadixBits, "digits index the counters");
  static_assert(Threads % 32 == 0, "whole warps");
  static constexpr int kWarps = Threads / 32;
  static constexpr int kTile = Threads * Items;
  static_assert(kTile <= 65536, "ranks are packed in 16 bits during ranking");

  struct Storage {
    std::uint32_t warp_hist[kWarps][kRadixBuckets];  // per-warp counts, then per-warp offsets
                                                     // (the bucket's block offset included)
    // atomic_or only: per-warp lane masks of each digit, kept at zero between items.
    std::uint32_t warp_match[Method == Multisplit::atomic_or ? kWarps : 1][kRadixBuckets];
    std::uint32_t bucket_count[kRadixBuckets];   // block total per bucket
    std::uint32_t bucket_offset[kRadixBuckets];  // block exclusive offset per bucket
    std::uint32_t scan_scratch[8];
    std::uint32_t scan_total;
  };

  __device__ static int striped_index(int item) {
    return static_cast<int>(warp_id()) * Items * 32 + item * 32 + static_cast<int>(lane_id());
  }
  // The element of `item` when only the first live_items rows of every thread are in use (see
  // rank_rows); striped_index(item) when all are.
  __device__ static int row_index(int item, int live_items) {
    return (static_cast<int>(warp_id()) * live_items + item) * 32 + static_cast<int>(lane_id());
  }

  // Stable block-wide ranks of digits (each < kRadixBuckets). On return storage.bucket_count /
  // bucket_offset hold the block's per-bucket totals and exclusive offsets. Ends with a barrier.
  __device__ static void rank(const std::uint32_t (&digit)[Items], std::uint32_t (&rank)[Items],
                              Storage& s) {
    rank_by([&](int i) { return digit[i]; }, rank, s);
  }

  // The same, with the digit of item i given by digit_of(i): callers that can recompute digits
  // from keys they hold anyway save Items registers (the radix pass runs 4 blocks per SM only
  // when it fits 64 registers a thread).
  template <typename DigitOf>
  __device__ static void rank_by(DigitOf digit_of, std::uint32_t (&rank)[Items], Storage& s) {
    rank_rows(digit_of, rank, s, Items);
  }

  // The same over the first live_items items of every thread only (block-uniform): the others
  // are neither counted nor ranked. Callers whose tile is mostly empty lay their elements out
  // with live_items per thread (warp w owning [w * live_items * 32, (w + 1) * live_items * 32))
  // and skip the empty rows' work; the order ranked is still (warp, item, lane).
  template <typename DigitOf>
  __device__ static void rank_rows(DigitOf digit_of, std::uint32_t (&rank)[Items], Storage& s,
                                   int live_items) {
    for (int i = static_cast<int>(threadIdx.x); i < kWarps * kRadixBuckets; i += Threads) {
      (&s.warp_hist[0][0])[i] = 0;
      if constexpr (Method == Multisplit::atomic_or) (&s.warp_match[0][0])[i] = 0;
    }
    __syncthreads();

    // Warp multisplit: the lanes holding the same digit find each other (peers), and the lowest
    // of them bumps the warp's counter of that digit once for all of them.
    std::uint32_t* hist = s.warp_hist[warp_id()];
    const unsigned below = lanemask_lt();
#pragma unroll
    for (int i = 0; i < Items; ++i) {
      if (i >= live_items) break;
      const std::uint32_t d = digit_of(i);
      unsigned peers;
      if constexpr (Method == Multisplit::ballot) {
        peers = kFullMask;
#pragma unroll
        for (int b = 0; b < DigitBits; ++b) {
          const bool set = (d >> b) & 1u;
          const unsigned vote = __ballot_sync(kFullMask, set);
          peers &= set ? vote : ~vote;
        }
      } else {
        atomicOr(&s.warp_match[warp_id()][d], 1u << lane_id());
        __syncwarp();
        peers = s.warp_match[warp_id()][d];
        __syncwarp();  // every lane has its mask before the leader clears it below
      }
      const int leader = __ffs(peers) - 1;
      std::uint32_t base = 0;
      if (static_cast<int>(lane_id()) == leader) {
        // One shared atomic rather than a load and a store: random digits make nearly every
        // lane a leader, and these accesses are mostly bank conflicts.
        base = atomicAdd(&hist[d], static_cast<std::uint32_t>(__popc(peers)));
        if constexpr (Method == Multisplit::atomic_or) s.warp_match[warp_id()][d] = 0;
      }
      base = __shfl_sync(kFullMask, base, leader);
      // The digit rides in the rank's high half until the offsets are added: recomputing it
      // later tempts the compiler to keep every digit live in its own register instead.
      rank[i] = (base + static_cast<std::uint32_t>(__popc(peers & below))) | (d << 16);
      __syncwarp();  // this item's counter update is seen by the next item's leader
    }
    __syncthreads();

    // Per bucket: exclusive offsets of the warps (in warp order, which is index order), then the
    // block's offset of the bucket added in: the fix-up below reads one word a key, not two
    // (random digits make most of those reads bank conflicts).
    std::uint32_t count = 0;
    if (threadIdx.x < kRadixBuckets) {
      for (int w = 0; w < kWarps; ++w) {
        const std::uint32_t c = s.warp_hist[w][threadIdx.x];
        s.warp_hist[w][threadIdx.x] = count;
        count += c;
      }
      s.bucket_count[threadIdx.x] = count;
    }
    const std::uint32_t offset = block_exclusive_sum_256(count, s.scan_scratch, &s.scan_total);
    if (threadIdx.x < kRadixBuckets) {
      s.bucket_offset[threadIdx.x] = offset;
      for (int w = 0; w < kWarps; ++w) s.warp_hist[w][threadIdx.x] += offset;
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < Items; ++i) {
      if (i >= live_items) break;
      const std::uint32_t d = rank[i] >> 16;
      rank[i] = (rank[i] & 0xffffu) + hist[d];
    }
    __syncthreads();  // storage may be reused by the caller
  }
};

// Stable sort of a tile of (key, value) pairs held warp-striped in registers, by bits
// [bits.begin_bit, bits.end_bit) of the key, LSD with 8-bit digits through shared memory.
// Pad a partial tile with keys 0xffffffff: padding sorts after every real key (stably, since it
// sits at the end), so the first `valid` outputs are the sorted real pairs.
// tile_keys / tile_values: shared arrays of Threads * Items words each.
// live_items (block-uniform): only the first live_items rows of every thread hold the tile,
// laid out by Rank::row_index; a tile far below capacity skips the empty rows' work.
// Method: the ranking's multisplit (BlockRadixRank); its Storage is the one passed.
template <int Threads, int Items, Multisplit Method = Multisplit::ballot>
__device__ void block_sort_pairs(std::uint32_t (&keys)[Items], std::uint32_t (&values)[Items],
                                 KeyBits bits,
                                 typename BlockRadixRank<Threads, Items, Method>::Storage& storage,
                                 std::uint32_t* tile_keys, std::uint32_t* tile_values,
                                 int live_items = Items) {
  using Rank = BlockRadixRank<Threads, Items, Method>;
  for (int shift = bits.begin_bit; shift < bits.end_bit; shift += kRadixBits) {
    const KeyBits digit_bits{shift,
                             shift + kRadixBits < bits.end_bit ? shift + kRadixBits : bits.end_bit};
    std::uint32_t rank[Items];
    Rank::rank_rows([&](int i) { return digit_bits(keys[i]); }, rank, storage, live_items);
#pragma unroll
    for (int i = 0; i < Items; ++i) {
      if (i >= live_items) break;
      tile_keys[rank[i]] = keys[i];
      tile_values[rank[i]] = values[i];
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < Items; ++i) {
      if (i >= live_items) break;
      keys[i] = tile_keys[Rank::row_index(i, live_items)];
      values[i] = tile_values[Rank::row_index(i, live_items)];
    }
    __syncthreads();
  }
}

}  // namespace particles::cuda::detail
