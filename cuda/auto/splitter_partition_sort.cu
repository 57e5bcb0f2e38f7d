// The splitter partition sort's host side (splitter_partition_sort.hpp): its buffers, checks and
// launches. The kernels are in splitter_bucket_kernel.cuh (the sort of the buckets) and
// splitter_partition_kernels.cuh (append, note, forget).
#include "cuda/auto/splitter_partition_sort.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "cuda/auto/partition_append.cuh"
#include "cuda/auto/splitter_bucket_kernel.cuh"
#include "cuda/auto/splitter_partition.hpp"
#include "cuda/auto/splitter_partition_kernels.cuh"
#include "cuda/common/check.hpp"
#include "cuda/common/launch_grid.hpp"
#include "cuda/sort/copy_kernels.cuh"
#include "cuda/sort/oddeven/exact_merge_sort.cuh"

namespace particles::cuda {
namespace {

std::uint32_t buckets_for(std::size_t capacity) {
  return std::max<std::uint32_t>(1u, partition_buckets(static_cast<std::uint32_t>(capacity)));
}

}  // namespace

SplitterPartitionSort::SplitterPartitionSort(std::size_t capacity)
    : capacity_(capacity),
      max_buckets_(std::min(buckets_for(capacity), kPartitionMaxBuckets)),
      counts_(std::size_t{max_buckets_} * kPartitionCountStride),
      splitters_(buckets_for(capacity)),  // note_sorted takes them for any count
      state_(kPartitionStateWords),
      slots_(std::size_t{max_buckets_} * kPartitionBucketCapacity),
      scratch_values_(capacity),
      overflow_words_(sizeof(exact::TicketWords) / sizeof(std::uint32_t)) {
  if (capacity >= kNoSplitters)
    throw std::invalid_argument("SplitterPartitionSort: capacity " + std::to_string(capacity) +
                                " is too large");
  for (const auto kernel :
       {partition_bucket_sort_kernel<false>, partition_bucket_sort_kernel<true>}) {
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(kBucketSharedBytes)));
  }
  // The bucket kernel reads a usual bucket's slots before its count (stale words past it are
  // ignored): they are never read uninitialized.
  CUDA_CHECK(cudaMemset(slots_.data(), 0xff, slots_.size_bytes()));
  CUDA_CHECK(cudaMemset(overflow_words_.data(), 0, overflow_words_.size_bytes()));
  forget_splitters(nullptr);
  CUDA_CHECK(cudaStreamSynchronize(nullptr));
}

void SplitterPartitionSort::forget_splitters(cudaStream_t stream) {
  partition_forget_kernel<<<(max_buckets_ + 255) / 256, 256, 0, stream>>>(
      state_.data(), counts_.data(), max_buckets_);
  CUDA_CHECK_LAUNCH("partition_forget_kernel", stream);
}

void SplitterPartitionSort::note_sorted(const std::uint32_t* sorted_keys, std::uint32_t n,
                                        cudaStream_t stream, const std::int32_t* enable,
                                        const NotedValues& copy) {
  check_count(n, "note_sorted");
  // A thread per splitter (each is one scattered read: 8192 of them at 16M keys); with values to
  // copy, the copies' grid (copy_kernels.cuh).
  constexpr unsigned kThreads = detail::kCopyThreads;
  const std::uint32_t blocks =
      copy.target != nullptr
          ? detail::grid_stride_blocks(n, kThreads, 1)
          : std::max<std::uint32_t>(1u, (partition_buckets(n) + kThreads - 1) / kThreads);
  partition_note_sorted_kernel<<<blocks, kThreads, 0, stream>>>(sorted_keys, n, splitters_.data(),
                                                                state_.data(), enable, copy);
  CUDA_CHECK_LAUNCH("partition_note_sorted_kernel", stream);
}

void SplitterPartitionSort::check_count(std::uint32_t n, const char* call) const {
  if (n > capacity_)
    throw std::invalid_argument(std::string("SplitterPartitionSort::") + call + ": n " +
                                std::to_string(n) + " > capacity " + std::to_string(capacity_));
}

PartitionAppend SplitterPartitionSort::append_target() noexcept {
  return {splitters_.data(), state_.data(), counts_.data(), slots_.data()};
}

void SplitterPartitionSort::sort_enabled(std::uint32_t* keys, std::uint32_t* values,
                                         std::uint32_t n, cudaStream_t stream,
                                         const std::int32_t* enable, std::int32_t* fallback,
                                         std::uint32_t* ran, const PartitionExtras& extras) {
  check_count(n, "sort_enabled");
  if (extras.keys_by_place != nullptr)
    throw std::invalid_argument(
        "SplitterPartitionSort::sort_enabled: keys_by_place is for "
        "sort_appended");
  if (n == 0) return;
  partition_append_kernel<<<detail::grid_stride_blocks(n, kAppendThreads, 8), kAppendThreads, 0,
                            stream>>>(keys, values, n, append_target(), scratch_values_.data(),
                                      enable);
  CUDA_CHECK_LAUNCH("partition_append_kernel", stream);
  launch_bucket_sort(scratch_values_.data(), keys, values, n, stream, enable, fallback, ran,
                     extras);
}

void SplitterPartitionSort::sort_appended(std::uint32_t* out_keys, std::uint32_t* out_values,
                                          std::uint32_t n, cudaStream_t stream,
                                          const std::int32_t* enable, std::int32_t* fallback,
                                          std::uint32_t* ran, const PartitionExtras& extras) {
  check_count(n, "sort_appended");
  if (extras.keys_by_place != nullptr && out_keys != nullptr)
    throw std::invalid_argument(
        "SplitterPartitionSort::sort_appended: keys_by_place sorts the "
        "keys there, not to out_keys");
  if (n == 0) return;
  launch_bucket_sort(nullptr, out_keys, out_values, n, stream, enable, fallback, ran, extras);
}

void SplitterPartitionSort::launch_bucket_sort(const std::uint32_t* in_values,
                                               std::uint32_t* out_keys, std::uint32_t* out_values,
                                               std::uint32_t n, cudaStream_t stream,
                                               const std::int32_t* enable, std::int32_t* fallback,
                                               std::uint32_t* ran, const PartitionExtras& extras) {
  const std::uint32_t buckets = partition_buckets(n);
  // The overflow sort's scratch is the slots (see overflow_scratch_words): 4n words or more for
  // any sort the kernel takes.
  if (extras.keys_by_place != nullptr && buckets <= kPartitionMaxBuckets &&
      overflow_scratch_words(n) > 2 * slots_.size())
    throw std::logic_error(
        "SplitterPartitionSort: the slots cannot hold the overflow sort's scratch");
  BucketSortArgs args{slots_.data(),
                      counts_.data(),
                      state_.data(),
                      n,
                      enable,
                      {fallback, ran, extras.finish_enable},
                      extras.final_values,
                      extras.keys_by_place,
                      {out_keys, out_values, nullptr,
                       extras.note_splitters ? splitters_.data() : nullptr, in_values},
                      reinterpret_cast<exact::TicketWords*>(overflow_words_.data()),
                      reinterpret_cast<std::uint32_t*>(slots_.data())};
  // More buckets than any sort takes: one block, to give the verdict.
  const std::uint32_t blocks = buckets <= kPartitionMaxBuckets ? buckets : 1u;
  const auto kernel = in_values == nullptr && out_keys == nullptr
                          ? partition_bucket_sort_kernel<true>
                          : partition_bucket_sort_kernel<false>;
  kernel<<<blocks, kBucketThreads, kBucketSharedBytes, stream>>>(args);
  CUDA_CHECK_LAUNCH("partition_bucket_sort_kernel", stream);
}

}  // namespace particles::cuda
