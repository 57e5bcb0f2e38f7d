#pragma once
// Second step of the radix sort's MSD-first shortcut (radix_engine.hpp): after one stable pass has
// partitioned the pairs by the highest digit on which keys differ, one block per bucket sorts
// that bucket by the bits below that digit in shared memory (LSD, 8-bit digits) and writes it to
// the output. Launched whenever the shortcut is planned; every block returns at once unless the
// histogram kernel chose a partition pass.
#include <cstdint>

#include "cuda/detail/dynamic_shared.cuh"
#include "cuda/detail/warp.cuh"
#include "cuda/sort/block_radix.cuh"
#include "cuda/sort/key_bits.hpp"

namespace particles::cuda::detail {

struct BucketSortArgs {
  const std::uint32_t* keys_in;  // partitioned by the top digit, buckets in digit order
  const std::uint32_t* values_in;
  std::uint32_t* keys_out;
  std::uint32_t* values_out;
  std::uint32_t* const* values_out_at;  // when set, values go to *values_out_at instead
  const std::uint32_t* histograms;      // [passes][256] digit counts of the sort
  int begin_bit;                        // of the sort; pass p's digit starts at begin_bit + 8p
  const std::int32_t* partition_pass;   // the pass that partitioned; -1: shortcut not taken
};

// Bits needed to write x (0 for 0), at compile time.
constexpr int bits_to_hold(unsigned x) {
  return x == 0 ? 0 : 1 + bits_to_hold(x >> 1);
}

template <int Threads, int Items>
struct BucketSortShared {
  typename BlockRadixRank<Threads, Items, Multisplit::atomic_or>::Storage rank;
  std::uint32_t words[Threads * Items];  // sort words (below) in ranked order; last, positions
  std::uint32_t first;                   // the bucket's first index
  std::uint32_t size;                    // its pair count
};

// Values never enter the block: the pairs are ranked by their keys and each key carries its
// position in the bucket, so the last step gathers key and value from there (an L2 hit: the
// partition pass has just written the bucket) and writes both coalesced. After the first digit,
// the key's remaining low bits (at most 16: the shortcut leaves at most 24 bits below the top
// digit) and the position (16 bits at most) share one word, so registers hold only that word and
// its rank per item, and shared memory one word per pair.
template <int Threads, int Items, int MinBlocks>
__global__ void __launch_bounds__(Threads, MinBlocks) radix_bucket_sort_kernel(BucketSortArgs a) {
  using Rank = BlockRadixRank<Threads, Items, Multisplit::atomic_or>;
  constexpr int kPositionBits = bits_to_hold(Threads * Items - 1);
  static_assert(kPositionBits <= 16, "position and 16 key bits share a word");
  auto& sh = dynamic_shared<BucketSortShared<Threads, Items>>();
  const int partition_pass = *a.partition_pass;
  if (partition_pass < 0) return;

  // This block's bucket: its count and the exclusive sum of the counts before it.
  const std::uint32_t count =
      threadIdx.x < kRadixBuckets
          ? a.histograms[static_cast<std::size_t>(partition_pass) * kRadixBuckets + threadIdx.x]
          : 0u;
  const std::uint32_t first =
      block_exclusive_sum_256(count, sh.rank.scan_scratch, &sh.rank.scan_total);
  if (threadIdx.x == blockIdx.x) {
    sh.first = first;
    sh.size = count;
  }
  __syncthreads();
  const std::uint32_t start = sh.first;
  const std::uint32_t size = sh.size;
  std::uint32_t* const values_out = a.values_out_at != nullptr ? *a.values_out_at : a.values_out;
  if (size < 2) {  // nothing to order; a lone pair still moves to the output
    if (size == 1 && threadIdx.x == 0) {
      a.keys_out[start] = a.keys_in[start];
      values_out[start] = a.values_in[start];
    }
    return;
  }

  // Only as many items per thread as the bucket needs: warp w holds the contiguous slice
  // [w * live * 32, (w + 1) * live * 32) of the bucket, item i of lane l being element
  // w * live * 32 + i * 32 + l (the order the ranking keeps); items from `live` on stay idle.
  const int live = static_cast<int>((size + Threads - 1) / Threads);
  auto slot = [&](int i) {
    return static_cast<std::uint32_t>((static_cast<int>(warp_id()) * live + i) * kWarpSize) +
           lane_id();
  };
  std::uint32_t words[Items], rank[Items];
#pragma unroll
  for (int i = 0; i < Items; ++i) {
    if (i >= live) break;
    const std::uint32_t j = slot(i);
    words[i] = j < size ? __ldg(&a.keys_in[start + j]) : 0xffffffffu;  // padding sorts last
  }

  // First digit on the keys themselves; then on (remaining key bits << kPositionBits | position).
  const int low_begin = a.begin_bit;
  const int low_end = a.begin_bit + partition_pass * kRadixBits;
  const int first_end = min(low_begin + kRadixBits, low_end);
  const KeyBits remaining{first_end, low_end};
  const int digits = 1 + (remaining.width() + kRadixBits - 1) / kRadixBits;
  for (int digit = 0; digit < digits; ++digit) {
    const KeyBits digit_bits =
        digit == 0 ? KeyBits{low_begin, first_end}
                   : KeyBits{kPositionBits + (digit - 1) * kRadixBits,
                             kPositionBits + min(digit * kRadixBits, remaining.width())};
    Rank::rank_rows([&](int i) { return digit_bits(words[i]); }, rank, sh.rank, live);
    const bool last = digit == digits - 1;
#pragma unroll
    for (int i = 0; i < Items; ++i) {
      if (i >= live) break;
      std::uint32_t word = words[i];
      if (digit == 0) word = (remaining(word) << kPositionBits) | slot(i);
      sh.words[rank[i]] = last ? word & ((1u << kPositionBits) - 1u) : word;
    }
    __syncthreads();
    if (last) break;
#pragma unroll
    for (int i = 0; i < Items; ++i) {
      if (i >= live) break;
      words[i] = sh.words[slot(i)];
    }
    __syncthreads();
  }

  // sh.words[j] is the bucket position of the pair that goes to place j. All gathers are issued
  // before any store, so their latencies overlap (a store could alias a later load otherwise).
#pragma unroll
  for (int i = 0; i < Items; ++i) {
    if (i >= live) break;
    const std::uint32_t j = slot(i);
    const std::uint32_t from = start + sh.words[j < size ? j : 0];
    words[i] = __ldg(&a.keys_in[from]);
    rank[i] = __ldg(&a.values_in[from]);
  }
#pragma unroll
  for (int i = 0; i < Items; ++i) {
    if (i >= live) break;
    const std::uint32_t j = slot(i);
    if (j < size) {
      a.keys_out[start + j] = words[i];
      values_out[start + j] = rank[i];
    }
  }
}

}  // namespace particles::cuda::detail
