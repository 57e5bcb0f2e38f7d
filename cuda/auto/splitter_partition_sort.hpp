#pragma once
// The splitter partition sort (the idea and its math: splitter_partition.hpp): a stable sort of
// keys laid out in last frame's order through splitters that last frame's sorted keys left.
// The keys are appended to their buckets by whatever kernel makes them (append_target(), which
// the pipeline's step takes) or by the sort's own append kernel (sort_enabled); then one block
// per bucket sorts its pairs by (key, place) and writes them at the bucket's start, which it
// sums from the counts the appends left. Scratch: 16 bytes per key for the slots (a bucket's
// slots hold twice its usual size; 128 MB for the largest sort it takes, 8M keys), and 4 per key
// for sort_enabled's values. Whether it can sort is decided on the device: when it cannot, it
// writes none of its outputs and sets the caller's fallback word instead, so a graph can hold it
// and a fallback sort with no host round trip (the pipeline's auto mode). Given the keys by place
// (PartitionExtras::keys_by_place) it never refuses for an overflowed bucket: it sorts them there
// itself, in the same kernel (a partition stint's frame that moved too far).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "cuda/auto/partition_append.hpp"
#include "cuda/common/device_buffer.hpp"

namespace particles::cuda {

// Work a sort that runs can take off its caller's hands, each optional.
struct PartitionExtras {
  // A device word holding an address: the sorted values also go there (the pipeline's GL
  // element buffer, which may map elsewhere every frame).
  std::uint32_t* const* final_values = nullptr;
  // The sorted keys become the next sort's splitters, as note_sorted would take them.
  bool note_splitters = false;
  // A device word set to 0 when the sort runs (the caller's own copy of the values and its
  // note_sorted are then not needed) and to 1 when it refuses.
  std::int32_t* finish_enable = nullptr;
  // sort_appended alone, without out_keys: the keys by place that the appends were given
  // (PartitionAppend::keys_by_place; a kernel that did not append, its splitters being for
  // another n, must have stored every key there). With it the sort refuses only n past its
  // largest sort: when a bucket overflowed, or nothing was appended, the buckets' keys go there
  // too and every block of the bucket kernel sorts them there (an exact merge sort, stable),
  // their places going to the values and final_values; it then sets *ran = 0 (the buckets did
  // not sort them) and *fallback = 0 (nothing is left to do), and the splitters stay as they
  // were. A partition stint's frame that moved too far needs no fallback launch this way.
  std::uint32_t* keys_by_place = nullptr;
};

// Values note_sorted also copies, in the same launch: values[0, n) to the address *target holds
// when it runs (the caller's copy of its sorted values to a moving target, fused with it).
struct NotedValues {
  const std::uint32_t* values = nullptr;
  std::uint32_t* const* target = nullptr;  // null: nothing to copy
};

class SplitterPartitionSort {
 public:
  explicit SplitterPartitionSort(std::size_t capacity);

  // The next sort falls back until note_sorted gives splitters again.
  void forget_splitters(cudaStream_t stream);
  // Takes the splitters for the next sort from n sorted keys (device memory), and copies `copy`;
  // when enable is given, only if *enable != 0 at run time.
  void note_sorted(const std::uint32_t* sorted_keys, std::uint32_t n, cudaStream_t stream,
                   const std::int32_t* enable = nullptr, const NotedValues& copy = {});

  // When *enable != 0: sorts (keys, values) stably by the whole key and sets *ran = 1 and
  // *fallback = 0, or, when the splitters (absent, made for another n, too far from these keys)
  // do not allow it, leaves them as they are and sets *ran = 0 and *fallback = 1. When
  // *enable == 0 every launch returns at once, *ran = 0 and *fallback is untouched. Device
  // words; n <= capacity. `extras` are done only when it sorts. Two launches: the append, then
  // sort_appended's.
  void sort_enabled(std::uint32_t* keys, std::uint32_t* values, std::uint32_t n,
                    cudaStream_t stream, const std::int32_t* enable, std::int32_t* fallback,
                    std::uint32_t* ran, const PartitionExtras& extras = {});

  // Where a kernel that makes n keys appends them, with their places as the values
  // (partition_append.cuh); it appends only while the splitters are for n keys.
  PartitionAppend append_target() noexcept;
  // The sort of keys a kernel appended through append_target(), the values being their places:
  // as sort_enabled, writing the sorted keys and places to out_keys and out_values, and falling
  // back also when no kernel appended since the last sort. out_keys may be null: the sorted keys
  // are then not kept (extras.note_splitters still takes the splitters from them). The arrays the
  // keys were made in are not read (they are the fallback's input, left as they are).
  void sort_appended(std::uint32_t* out_keys, std::uint32_t* out_values, std::uint32_t n,
                     cudaStream_t stream, const std::int32_t* enable, std::int32_t* fallback,
                     std::uint32_t* ran, const PartitionExtras& extras = {});

  std::size_t capacity() const noexcept { return capacity_; }
  // [j] for j in [1, buckets): the splitters; for tests.
  const std::uint32_t* device_splitters() const noexcept { return splitters_.data(); }

 private:
  void check_count(std::uint32_t n, const char* call) const;  // throws when n > capacity
  void launch_bucket_sort(const std::uint32_t* in_values, std::uint32_t* out_keys,
                          std::uint32_t* out_values, std::uint32_t n, cudaStream_t stream,
                          const std::int32_t* enable, std::int32_t* fallback, std::uint32_t* ran,
                          const PartitionExtras& extras);

  std::size_t capacity_;
  std::uint32_t max_buckets_;                   // of a sort this one takes
  DeviceBuffer<std::uint32_t> counts_;          // keys per bucket, a line apart; zero between sorts
  DeviceBuffer<std::uint32_t> splitters_;       // buckets
  DeviceBuffer<std::uint32_t> state_;           // PartitionStateWord
  DeviceBuffer<uint2> slots_;                   // kPartitionBucketCapacity pairs per bucket
  DeviceBuffer<std::uint32_t> scratch_values_;  // sort_enabled's values, read by place
  DeviceBuffer<std::uint32_t> overflow_words_;  // the overflow sort's counters; zero between sorts
};

}  // namespace particles::cuda
