#pragma once
// Second step of the radix sort's MSD-first shortcut (radix_engine.hpp): after one stable pass has
// partitioned the pairs by the highest digit on which keys differ, one block per bucket sorts
// that bucket by the bits below that digit in shared memory and writes it to the output.
// Launched whenever the shortcut is planned; every block returns at once unless the histogram
// kernel chose a partition pass.
//
// Two ways to rank a bucket, both ending with the sorted place of every bucket position:
//   - spread (the usual one): the keys' remaining bits, over their range in the bucket, pick one
//     of kSpreadBuckets sub-buckets (TileBuckets; one to three keys each on spread keys); one
//     counting scatter orders the bucket by sub-bucket, and each key is then ranked among the few
//     keys of its sub-bucket by (key, position). One pass over shared memory instead of three;
//   - LSD with 8-bit digits through shared memory, when some sub-bucket holds more than
//     kRadixSpreadBucketLimit keys (many equal or clustered keys), where ranking inside a
//     sub-bucket would cost its size per key.
// Then the pairs are read again in bucket order, staged in shared memory at their places and
// written out in order: both the reads and the writes are coalesced.
//
// Faster than the LSD ranking with random reads of each pair from L2 at the end, which it
// replaced; 8192 sub-buckets for a 1024 x 20 block measured faster than 16384 (docs/notes/radix.md,
// "Spread bucket sort" and "The bucket sort").
#include <cstdint>

#include "cuda/common/dynamic_shared.cuh"
#include "cuda/common/warp.cuh"
#include "cuda/sort/block/block_buckets.cuh"
#include "cuda/sort/block/block_radix.cuh"
#include "cuda/sort/block/merge.hpp"
#include "cuda/sort/key_bits.hpp"
#include "cuda/sort/policy.hpp"

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

// Sub-buckets of the spread path: a power of two between a quarter and a half of the block's
// capacity above 8192 pairs (zeroing and scanning the counters costs as much as the longer
// sub-buckets save there), between a half and the capacity otherwise.
template <int Threads, int Items>
constexpr int spread_bucket_bits() {
  return bits_to_hold(static_cast<unsigned>(Threads * Items)) - (Threads * Items > 8192 ? 2 : 1);
}

template <int Threads, int Items>
using BucketLsdRank = BlockRadixRank<Threads, Items, Multisplit::atomic_or>;

template <int Threads, int Items>
struct BucketSortShared {
  static constexpr int kCapacity = Threads * Items;
  static constexpr int kSpreadBuckets = 1 << spread_bucket_bits<Threads, Items>();
  union {
    typename BucketLsdRank<Threads, Items>::Storage rank;  // LSD path
    struct {
      std::uint32_t offset[kSpreadBuckets + 1];  // counts, then exclusive offsets
      std::uint16_t sub_of[kCapacity];           // the sub-bucket of each order word
    } spread;
    std::uint32_t staged_values[kCapacity];  // last: the values in sorted order
  };
  // LSD path: sort words (bucket_sort_lsd) in ranked order. Spread path: order words in
  // sub-bucket order. Last: the keys in sorted order.
  std::uint32_t words[kCapacity];
  std::uint16_t rank_of[kCapacity];  // the sorted place of each bucket position
  std::uint32_t scratch[2][Threads / kWarpSize];
  std::uint32_t first;  // the bucket's first index
  std::uint32_t size;   // its pair count
};

// The LSD path of the bucket sort (crowded sub-buckets: many equal or clustered keys), out of
// line so that its registers do not burden the spread path; it reads the keys again and notes
// the sorted place of every bucket position in sh.rank_of.
// First digit on the keys themselves; then on (remaining key bits << kPositionBits | position):
// after the first digit at most 16 key bits remain.
template <int Threads, int Items>
__device__ __noinline__ void bucket_sort_lsd(const std::uint32_t* keys_in, std::uint32_t start,
                                             std::uint32_t size, int live, KeyBits low) {
  using Rank = BucketLsdRank<Threads, Items>;
  constexpr int kPositionBits = bits_to_hold(Threads * Items - 1);
  auto& sh = dynamic_shared<BucketSortShared<Threads, Items>>();
  auto slot = [&](int i) {
    return static_cast<std::uint32_t>((static_cast<int>(warp_id()) * live + i) * kWarpSize) +
           lane_id();
  };
  std::uint32_t words[Items], rank[Items];
#pragma unroll
  for (int i = 0; i < Items; ++i) {
    if (i >= live) break;
    const std::uint32_t j = slot(i);
    words[i] = j < size ? __ldg(&keys_in[start + j]) : 0xffffffffu;  // padding sorts last
  }
  const int first_end = min(low.begin_bit + kRadixBits, low.end_bit);
  const KeyBits remaining{first_end, low.end_bit};
  const int digits = 1 + (remaining.width() + kRadixBits - 1) / kRadixBits;
  for (int digit = 0; digit < digits; ++digit) {
    const KeyBits digit_bits =
        digit == 0 ? KeyBits{low.begin_bit, first_end}
                   : KeyBits{kPositionBits + (digit - 1) * kRadixBits,
                             kPositionBits + min(digit * kRadixBits, remaining.width())};
    Rank::rank_rows([&](int i) { return digit_bits(words[i]); }, rank, sh.rank, live);
    const bool last = digit == digits - 1;
#pragma unroll
    for (int i = 0; i < Items; ++i) {
      if (i >= live) break;
      std::uint32_t word = words[i];
      if (digit == 0) word = (remaining(word) << kPositionBits) | slot(i);
      if (last) {
        sh.rank_of[word & ((1u << kPositionBits) - 1u)] = static_cast<std::uint16_t>(rank[i]);
      } else {
        sh.words[rank[i]] = word;
      }
    }
    if (last) break;
    __syncthreads();
#pragma unroll
    for (int i = 0; i < Items; ++i) {
      if (i >= live) break;
      words[i] = sh.words[slot(i)];
    }
    __syncthreads();
  }
}

// Values enter the block only at the end, to be staged at their places. Registers hold the keys
// and their places in their sub-buckets, two 16-bit places a register. Spread = false: every
// bucket is ranked by LSD digits, for sorts of 2 passes, which leave at most 8 bits below the
// partition digit: one LSD ranking costs less than the spread path's range, counting and scan
// there. With 16 bits below it (32-bit keys whose top digit is shared) the spread path is the
// faster (docs/notes/radix.md, "The bucket sort").
template <int Threads, int Items, int MinBlocks, bool Spread>
__global__ void __launch_bounds__(Threads, MinBlocks) radix_bucket_sort_kernel(BucketSortArgs a) {
  using Shared = BucketSortShared<Threads, Items>;
  constexpr int kWarps = Threads / kWarpSize;
  constexpr int kPositionBits = bits_to_hold(Threads * Items - 1);
  constexpr int kSpreadBits = spread_bucket_bits<Threads, Items>();
  constexpr int kSpreadPerThread = Shared::kSpreadBuckets / Threads;
  static_assert(kPositionBits <= 16, "positions, places and ranks fit 16 bits");
  static_assert(kSpreadPerThread % 4 == 0, "whole uint4 rows of sub-bucket counters a thread");
  // The shortcut leaves at most 24 bits below the partition digit; an order word holds the bits
  // below the sub-bucket's and the position.
  static_assert(24 - kSpreadBits + kPositionBits <= 32, "order words fit 32 bits");
  auto& sh = dynamic_shared<Shared>();
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
  __syncthreads();  // also: every thread is done with sh.rank, which the spread path overwrites
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
  const KeyBits low{a.begin_bit, a.begin_bit + partition_pass * kRadixBits};  // the bits to sort
  if constexpr (!Spread) {
    bucket_sort_lsd<Threads, Items>(a.keys_in, start, size, live, low);
  } else {
    std::uint32_t words[Items];
    std::uint32_t lo = 0xffffffffu, hi = 0;
#pragma unroll
    for (int i = 0; i < Items; ++i) {
      if (i >= live) break;
      const std::uint32_t j = slot(i);
      words[i] = j < size ? __ldg(&a.keys_in[start + j]) : 0xffffffffu;  // padding sorts last
      if (j < size) {
        lo = min(lo, low(words[i]));
        hi = max(hi, low(words[i]));
      }
    }
    for (int v = static_cast<int>(threadIdx.x); v < Shared::kSpreadBuckets / 4; v += Threads)
      reinterpret_cast<uint4*>(sh.spread.offset)[v] = make_uint4(0u, 0u, 0u, 0u);
    block_min_max(lo, hi, sh.scratch);  // its barriers also order the zeroing before the counting
    if (lo == hi) {  // the bits below the partition digit are all equal: the bucket is in order
#pragma unroll
      for (int i = 0; i < Items; ++i) {
        if (i >= live) break;
        const std::uint32_t j = slot(i);
        if (j < size) {
          a.keys_out[start + j] = words[i];
          values_out[start + j] = __ldg(&a.values_in[start + j]);
        }
      }
      return;
    }

    // Spread path, counting: each key's place in its sub-bucket, two 16-bit places a register.
    const TileBuckets sub(lo, hi, kSpreadBits);
    std::uint32_t packed[(Items + 1) / 2] = {};
#pragma unroll
    for (int i = 0; i < Items; ++i) {
      if (i >= live) break;
      if (slot(i) < size)
        packed[i / 2] |= atomicAdd(&sh.spread.offset[sub(low(words[i]))], 1u) << (16 * (i % 2));
    }
    __syncthreads();
    const bool crowded =
        bucket_counts_to_offsets<kSpreadPerThread, kRadixSpreadBucketLimit, kWarps, false>(
            &sh.spread.offset[threadIdx.x * kSpreadPerThread], sh.scratch);
    if (threadIdx.x == 0) sh.spread.offset[Shared::kSpreadBuckets] = size;

    if (!__syncthreads_or(crowded)) {
      // Order words, (key bits below the sub-bucket's) << kPositionBits | position, in sub-bucket
      // order: inside one sub-bucket they order as (key, position) does, so comparing them ranks
      // stably.
      const std::uint32_t below = (1u << sub.shift) - 1u;
#pragma unroll
      for (int i = 0; i < Items; ++i) {
        if (i >= live) break;
        const std::uint32_t j = slot(i);
        if (j < size) {
          const std::uint32_t key = low(words[i]);
          const std::uint32_t b = sub(key);
          const std::uint32_t to =
              sh.spread.offset[b] + ((packed[i / 2] >> (16 * (i % 2))) & 0xffffu);
          sh.words[to] = ((key - lo) & below) << kPositionBits | j;
          sh.spread.sub_of[to] = static_cast<std::uint16_t>(b);
        }
      }
      __syncthreads();
      // The order word at p goes to its sub-bucket's offset plus the number of smaller order words
      // in that sub-bucket; that place is noted under the word's position.
      for (std::uint32_t p = threadIdx.x; p < size; p += Threads) {
        const std::uint32_t mine = sh.words[p];
        const std::uint32_t b = sh.spread.sub_of[p];
        const std::uint32_t end = sh.spread.offset[b + 1];
        std::uint32_t f = sh.spread.offset[b];
        for (std::uint32_t m = f; m < end; ++m) f += sh.words[m] < mine;
        sh.rank_of[mine & ((1u << kPositionBits) - 1u)] = static_cast<std::uint16_t>(f);
      }
    } else {
      bucket_sort_lsd<Threads, Items>(a.keys_in, start, size, live, low);
    }
  }

  __syncthreads();  // every place is noted; the order words and sub-buckets are no longer read

  // The pairs are read again in bucket order (coalesced L2 hits: the partition pass has just
  // written them), staged in shared memory at their places and written out in order. Random
  // reads of single pairs from L2 instead took about 40% of this kernel (ncu, 2^22 pairs).
  constexpr int kBatch = 10;  // pairs in flight a thread: 20 registers, within the 64 of 1024 x 20
#pragma unroll
  for (int first_item = 0; first_item < Items; first_item += kBatch) {
    std::uint32_t keys[kBatch], values[kBatch];
#pragma unroll
    for (int t = 0; t < kBatch && first_item + t < Items; ++t) {
      const std::uint32_t j = static_cast<std::uint32_t>((first_item + t) * Threads) + threadIdx.x;
      if (j < size) {
        keys[t] = __ldg(&a.keys_in[start + j]);
        values[t] = __ldg(&a.values_in[start + j]);
      }
    }
#pragma unroll
    for (int t = 0; t < kBatch && first_item + t < Items; ++t) {
      const std::uint32_t j = static_cast<std::uint32_t>((first_item + t) * Threads) + threadIdx.x;
      if (j < size) {
        const std::uint32_t to = sh.rank_of[j];
        sh.words[to] = keys[t];
        sh.staged_values[to] = values[t];
      }
    }
  }
  __syncthreads();
  for (std::uint32_t j = threadIdx.x; j < size; j += Threads) {
    a.keys_out[start + j] = sh.words[j];
    values_out[start + j] = sh.staged_values[j];
  }
}

}  // namespace particles::cuda::detail
