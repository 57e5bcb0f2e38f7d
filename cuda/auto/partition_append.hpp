#pragma once
// What a kernel that makes keys needs in order to append them to the splitter partition sort's
// buckets (splitter_partition.hpp; the device side is partition_append.cuh): the sort's device
// arrays, all owned by SplitterPartitionSort, which hands them out (append_target()).
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/sort/key_bits.hpp"  // PARTICLES_HD

namespace particles::cuda {

// The partition sort's device state words.
enum PartitionStateWord : int {
  kSplittersFor = 0,  // the key count the splitters were taken for; kNoSplitters when none
  kAppended = 1,      // 1 once a kernel appended this sort's keys; cleared by the sort
  kOverflow = 2,      // 1 when a bucket got more keys than it holds; cleared by the sort
  kTicket = 3,        // the bucket kernel's blocks past their counts; back to zero by the last
  kPartitionStateWords = 4
};
inline constexpr std::uint32_t kNoSplitters = 0xffffffffu;  // no sort has that many keys
// Words from one bucket's count to the next: a 128-byte line each, so the appends' atomics spread
// over the L2's slices instead of queueing at the few that 2 KB of packed counts map to. (Counts a
// 32-byte sector apart gained nothing, so it is the line that the atomics queue on:
// docs/notes/partition.md, "Appends".)
inline constexpr std::uint32_t kPartitionCountStride = 32;

struct PartitionAppend {
  const std::uint32_t* splitters = nullptr;  // [j], j in [1, buckets)
  std::uint32_t* state = nullptr;            // PartitionStateWord
  // Keys per bucket, kPartitionCountStride words apart; zero between sorts.
  std::uint32_t* counts = nullptr;
  uint2* slots = nullptr;  // kPartitionBucketCapacity (key, place) pairs per bucket
  // Optional: the keys by place, for the sort's fallback. When set, the kernel that appends
  // need not store its keys itself: a key that does not fit its bucket is stored here, and a sort
  // that refuses for that reason stores here the keys its buckets hold
  // (PartitionExtras::keys_by_place, the same array), so the fallback finds every key.
  std::uint32_t* keys_by_place = nullptr;
  // A kernel given a target with no slots appends nothing.
  PARTICLES_HD bool present() const noexcept { return slots != nullptr; }
};

}  // namespace particles::cuda
