#pragma once
// The splitter partition sort's small kernels: its own append (sort_enabled's), the note of a
// sorted frame's splitters, and the forgetting of them. Launched by splitter_partition_sort.cu,
// the one source that includes this header.
#include <cstdint>

#include "cuda/auto/partition_append.cuh"
#include "cuda/auto/splitter_partition.hpp"
#include "cuda/auto/splitter_partition_sort.hpp"
#include "cuda/common/enable_word.cuh"
#include "cuda/sort/copy_kernels.cuh"

namespace particles::cuda {
namespace {

constexpr int kAppendThreads = 256;

// sort_enabled's append: each key with its place, and the values copied aside (the sort writes
// them in place, and reads them by place).
__global__ void __launch_bounds__(kAppendThreads)
    partition_append_kernel(const std::uint32_t* __restrict__ keys,
                            const std::uint32_t* __restrict__ values, std::uint32_t n,
                            PartitionAppend target, std::uint32_t* __restrict__ values_aside,
                            const std::int32_t* enable) {
  if (*enable == 0) return;
  detail::make_and_append_keys(target, n, [&](std::uint32_t i) {
    values_aside[i] = values[i];
    return keys[i];
  });
}

__global__ void partition_note_sorted_kernel(const std::uint32_t* __restrict__ sorted,
                                             std::uint32_t n, std::uint32_t* splitters,
                                             std::uint32_t* state, const std::int32_t* enable,
                                             NotedValues copy) {
  if (detail::disabled(enable)) return;
  const std::uint32_t buckets = partition_buckets(n);
  const std::uint32_t first = blockIdx.x * blockDim.x + threadIdx.x;
  const std::uint32_t stride = gridDim.x * blockDim.x;
  for (std::uint32_t j = 1 + first; j < buckets; j += stride)
    splitters[j] = sorted[j * kPartitionBucket];
  if (copy.target != nullptr) detail::copy_words(copy.values, *copy.target, n);
  if (first == 0) state[kSplittersFor] = n;
}

// After it no splitters serve, and nothing is appended: a word memset cannot write, on the
// stream, capturable, with no host memory to keep alive.
__global__ void partition_forget_kernel(std::uint32_t* state, std::uint32_t* counts,
                                        std::uint32_t buckets) {
  const std::uint32_t first = blockIdx.x * blockDim.x + threadIdx.x;
  const std::uint32_t stride = gridDim.x * blockDim.x;
  for (std::uint32_t j = first; j < buckets; j += stride) counts[j * kPartitionCountStride] = 0;
  if (first == 0) {
    state[kSplittersFor] = kNoSplitters;
    state[kAppended] = 0;
    state[kOverflow] = 0;
    state[kTicket] = 0;
  }
}

}  // namespace
}  // namespace particles::cuda
