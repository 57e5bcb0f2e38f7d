#pragma once
// The quicksort's finish: one kernel runs every finish job the levels planned (or the single job
// of a sort of one tile), sorting it in shared memory into the caller's arrays. Launched by
// warp_quicksort.cu, the one source that includes this header.
#include <cstdint>

#include "cuda/common/dynamic_shared.cuh"
#include "cuda/sort/block/block_radix.cuh"
#include "cuda/sort/quicksort/quicksort_common.cuh"

namespace particles::cuda::detail {
namespace {

struct SortShared {  // block sort of one tile (the finish)
  Rank::Storage rank;
  std::uint32_t keys[kBlockSortTile];
  std::uint32_t values[kBlockSortTile];
};

struct FinishArgs {
  const std::uint32_t* src_keys[2];  // per job side
  const std::uint32_t* src_values[2];
  std::uint32_t* dst_keys;
  std::uint32_t* dst_values;
  const Job* jobs;  // nullptr: the single job below
  const Control* ctrl;
  Job single;
  KeyBits bits;
};

// Runs every finish job: sorts it in shared memory by the bits that differ inside it (a copy when
// none do) and writes it to the caller's arrays.
// 3 blocks per SM, as the scatter.
__global__ void __launch_bounds__(kThreads, 3) finish_kernel(FinishArgs a) {
  auto& sh = dynamic_shared<SortShared>();
  const std::uint32_t count = a.jobs != nullptr ? a.ctrl->jobs : 1u;
  for (std::uint32_t e = blockIdx.x; e < count; e += gridDim.x) {
    const Job job = a.jobs != nullptr ? a.jobs[e] : a.single;
    // A select, not a[job.side]: indexing a kernel parameter array puts it on the stack.
    const std::uint32_t* src_keys = (job.side ? a.src_keys[1] : a.src_keys[0]) + job.start;
    const std::uint32_t* src_values = (job.side ? a.src_values[1] : a.src_values[0]) + job.start;
    if (job.width == 0) {
      // Equal keys (or unsorted for the fallback): a copy of any length, a tile at a time with
      // all of its loads issued before the first store (a load-store loop waits on each load).
      for (std::uint32_t t = 0; t < job.len; t += kTile) {
        std::uint32_t k[kItems], v[kItems];
#pragma unroll
        for (int i = 0; i < kItems; ++i) {
          const std::uint32_t idx = t + threadIdx.x + static_cast<std::uint32_t>(i * kThreads);
          k[i] = idx < job.len ? src_keys[idx] : 0u;
          v[i] = idx < job.len ? src_values[idx] : 0u;
        }
#pragma unroll
        for (int i = 0; i < kItems; ++i) {
          const std::uint32_t idx = t + threadIdx.x + static_cast<std::uint32_t>(i * kThreads);
          if (idx < job.len) {
            a.dst_keys[job.start + idx] = k[i];
            a.dst_values[job.start + idx] = v[i];
          }
        }
      }
      continue;
    }
    std::uint32_t k[kItems], v[kItems];
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const auto idx = static_cast<std::uint32_t>(Rank::striped_index(i));
      k[i] = idx < job.len ? src_keys[idx] : 0xffffffffu;  // padding sorts last
      v[i] = idx < job.len ? src_values[idx] : 0u;
    }
    const KeyBits job_bits{a.bits.begin_bit, a.bits.begin_bit + static_cast<int>(job.width)};
    block_sort_pairs<kBlockSortThreads, kBlockSortItems>(k, v, job_bits, sh.rank, sh.keys,
                                                         sh.values);
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const auto idx = static_cast<std::uint32_t>(Rank::striped_index(i));
      if (idx < job.len) {
        a.dst_keys[job.start + idx] = k[i];
        a.dst_values[job.start + idx] = v[i];
      }
    }
  }
}

}  // namespace
}  // namespace particles::cuda::detail
