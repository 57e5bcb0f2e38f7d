#pragma once
// The odd-even sorter's exact sort: stable and exact on any input, in phases whose units (a tile
// of kTile pairs each) need every unit of the phase before them done:
//   1. every tile is sorted stably into the scratch copy: bucket sort over the tile's key range
//      (one shared-memory atomic per key, then a rank inside the key's small bucket); tiles with
//      crowded buckets (many equal keys) take the block radix sort;
//   2. every block reads the tiles' first/last keys and decides, identically, whether one round
//      of merge-splits finishes the sort (merge.hpp one_round_holds: true when every key lies
//      within about half a tile of its place, exact either way). If so, the even and odd
//      merge-splits of that round are done at once: each key of tile c finds its final place
//      from its index in c and binary searches in the edge windows of tiles c-1 and c+1;
//   3. otherwise the sorted tiles are merged pairwise (merge path, log2(tiles) phases).
// Two schedules run the phases (sort() below):
//   - GridSchedule: a cooperative grid, each block taking units strided by the grid, with a grid
//     barrier between phases (the odd-even kernel);
//   - TicketSchedule: units handed out in order from one counter, each waiting for the count of
//     finished units of the phase before. A unit waits only for units handed out before it, to
//     blocks that are running and wait only for earlier units in turn, so any grid finishes,
//     resident all at once or not, with no cooperative launch (the partition sort's bucket
//     kernel, when a bucket overflowed).
// The tile sort (phase 1) is in exact_tile_sort.cuh, the schedules in exact_schedules.cuh.
// Every block calls it with kThreads threads and kSharedBytes of dynamic shared memory.
#include <cstdint>

#include "cuda/common/dynamic_shared.cuh"
#include "cuda/common/warp.cuh"
#include "cuda/sort/block/merge.hpp"
#include "cuda/sort/oddeven/exact_schedules.cuh"
#include "cuda/sort/oddeven/exact_tile_sort.cuh"
#include "cuda/sort/policy.hpp"
#include "cuda/sort/sorter.hpp"

namespace particles::cuda::detail::exact {
// Internal linkage: each source that includes it compiles its own copy (no relocatable device
// code), the odd-even sorter's and the partition sort's.
namespace {

// True in every thread of every block when one round of merge-splits finishes the sort (each
// block reads all the tiles' ends, so all decide alike without another grid barrier).
__device__ bool one_round_everywhere(const Args& a, std::uint32_t tiles) {
  auto ends = [&](int i) { return a.ends[i]; };
  bool holds = true;
  for (std::uint32_t c = 1 + threadIdx.x; c < tiles; c += kThreads)
    holds = holds && one_round_holds(ends, static_cast<int>(c), static_cast<int>(tiles));
  return __syncthreads_and(holds) != 0;
}

// The one round for tile c: every pair of its sorted copy goes straight to its final place.
__device__ __noinline__ void place_tile(Args a, std::uint32_t c, std::uint32_t tiles) {
  Shared& sh = dynamic_shared<Shared>();
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
__device__ __noinline__ void merge_tile(Args a, const std::uint32_t* src_keys,
                                        const std::uint32_t* src_values, std::uint32_t* dst_keys,
                                        std::uint32_t* dst_values, std::uint32_t run,
                                        std::uint32_t tile) {
  Shared& sh = dynamic_shared<Shared>();
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

// Tile t's range of the sorted pairs, from src (the caller's arrays or the scratch copy), into the
// caller's arrays when src is not them, and its values to *a.final_values_at when given.
__device__ __noinline__ void finish_tile(Args a, std::uint32_t tile, const std::uint32_t* src_keys,
                                         const std::uint32_t* src_values) {
  const std::uint32_t begin = tile * kTile;
  const std::uint32_t end = min(begin + kTile, a.n);
  std::uint32_t* const final_values = a.final_values_at != nullptr ? *a.final_values_at : nullptr;
  for (std::uint32_t i = begin + threadIdx.x; i < end; i += kThreads) {
    const std::uint32_t value = src_values[i];
    if (src_keys != a.keys) {
      a.keys[i] = src_keys[i];
      a.values[i] = value;
    }
    if (final_values != nullptr) final_values[i] = value;
  }
}

// The exact sort of a.keys / a.values (and the copy of the values to *a.final_values_at) on the
// given schedule, which may have run phases of its own before. Returns what it did, the same in
// every block.
template <typename Schedule>
__device__ OddEvenStatus sort(const Args& a, Schedule& schedule) {
  const std::uint32_t tiles = (a.n + kTile - 1) / kTile;
  if (tiles == 1) {  // one tile: its sort is the result
    schedule.phase(1, [&](std::uint32_t) {
      sort_tile(a, 0, a.keys, a.values);
      __syncthreads();
      finish_tile(a, 0, a.keys, a.values);  // nothing to copy back; the final values
    });
    return OddEvenStatus{1, 0, 0, 0};
  }
  schedule.phase(tiles,
                 [&](std::uint32_t t) { sort_tile(a, t, a.scratch_keys, a.scratch_values); });
  schedule.wait_for_previous();
  if (one_round_everywhere(a, tiles)) {
    schedule.phase(tiles, [&](std::uint32_t c) { place_tile(a, c, tiles); });
    // The round's even and odd merge-splits were done together: two phases, nothing left.
    if (a.final_values_at != nullptr)
      schedule.phase(tiles, [&](std::uint32_t t) { finish_tile(a, t, a.keys, a.values); });
    return OddEvenStatus{1, 2, 0, 0};
  }
  // Far from sorted: merge the sorted tiles pairwise, ping-ponging with the scratch copy.
  std::uint32_t *src_keys = a.scratch_keys, *src_values = a.scratch_values;
  std::uint32_t *dst_keys = a.keys, *dst_values = a.values;
  for (std::uint64_t run = kTile; run < a.n; run *= 2) {
    schedule.phase(tiles, [&](std::uint32_t t) {
      merge_tile(a, src_keys, src_values, dst_keys, dst_values, static_cast<std::uint32_t>(run), t);
    });
    std::uint32_t* const keys_written = dst_keys;
    std::uint32_t* const values_written = dst_values;
    dst_keys = src_keys;
    dst_values = src_values;
    src_keys = keys_written;
    src_values = values_written;
  }
  if (src_keys != a.keys || a.final_values_at != nullptr)
    schedule.phase(tiles, [&](std::uint32_t t) { finish_tile(a, t, src_keys, src_values); });
  return OddEvenStatus{0, 0, 1, 0};
}

}  // namespace
}  // namespace particles::cuda::detail::exact
