#pragma once
// The adaptive sort policy, shared by the CUDA pipeline (decided on the device by a one-thread
// kernel that enables one of the sorts) and the CPU pipeline and tests (its twin).
//
// Two probes over the keys laid out in last frame's order:
//   descents          pairs (i, i+1) out of order: zero means the order is already sorted;
//   strided descents  pairs (i, i+kAutoProbeStride) out of order: zero means no element has to
//                     travel about that far, which is when the odd-even merge-split (tiles of
//                     twice the stride) converges in a few phases.
// Adjacent descents alone cannot tell "slightly jittered everywhere" (about half the pairs out
// of order, yet nearly sorted) from "shuffled"; the strided probe can.
#include <cstdint>

#include "core/frame_types.hpp"
#include "core/host_device.hpp"

namespace particles {

// Half the odd-even sort's tile (cuda/sort/policy.hpp kBlockSortTile = 4096, asserted there).
inline constexpr std::uint32_t kAutoProbeStride = 2048;

PARTICLES_HD SortPath choose_auto_path(std::uint32_t descents, std::uint32_t strided_descents) {
  if (descents == 0) return SortPath::skipped_sorted;
  return strided_descents == 0 ? SortPath::oddeven : SortPath::radix;
}

// The CUDA backend tries its splitter partition sort on frames the policy sends to radix. A try
// that cannot sort (keys moved beyond its reach, as on 16M-particle galaxy frames) still costs a
// counting pass, so after one the next kPartitionRetryAfter - 1 frames go straight to radix.
// Keys of at most 16 bits are never tried: their radix sort is two passes, cheaper than the
// partition sort (H200, 1M galaxy frames: 43 against about 60 us).
inline constexpr int kPartitionRetryAfter = 8;

// Whether keys of key_bits bits are ever tried; the pipeline does not even record the partition
// sort (nor take its splitters) for a graph whose keys are not.
PARTICLES_HD constexpr bool partition_sort_worth_trying(int key_bits) {
  return key_bits > 16;
}

struct PartitionTries {
  int wait = 0;        // frames before the next try
  bool tried = false;  // whether this frame tries
};

// After a reset there are no splitters until the first frame's sort leaves them, so the first
// frame must not try (its failed try would hold the next kPartitionRetryAfter - 1 back): a wait of
// 2 is 1 on frame 0 and 0 on frame 1.
inline constexpr PartitionTries kPartitionTriesAfterReset{2, false};

// This frame's tries from last frame's: `failed` when last frame tried and fell back.
PARTICLES_HD PartitionTries next_partition_tries(PartitionTries last, bool failed, SortPath policy,
                                                 int key_bits) {
  PartitionTries next;
  next.wait = failed ? kPartitionRetryAfter - 1 : (last.wait > 0 ? last.wait - 1 : 0);
  next.tried = policy == SortPath::radix && partition_sort_worth_trying(key_bits) && next.wait == 0;
  return next;
}

// The CUDA backend's auto frame costs more than its fixed radix frame when it ends in radix
// anyway: the probe, the choice, the other sorts' empty launches, an unrouted 4-pass radix sort
// and the order copy (H200: fountain 1M 138 against 99 us, whose respawns put keys out of the
// partition sort's reach; galaxy 16M 1218 against 894). So after kAutoRadixStreak fused auto
// frames in a row that ended in radix, the next kAutoRadixStint run the fixed radix frame instead
// (same keys, exactly sorted, ties in the same order: both break them by place in the layout),
// then auto probes again. Its first frame back starts from the identity and does not try the
// partition sort (stale layout and splitters); its second does.
inline constexpr int kAutoRadixStreak = 2;
inline constexpr int kAutoRadixStint = 16;

struct AutoStint {
  int streak = 0;  // reported auto frames in a row that ended in radix
  int left = 0;    // frames still to run as the fixed radix frame
};

// The state after the report of a frame that ran the auto frame (not one of a stint).
PARTICLES_HD constexpr AutoStint after_auto_report(AutoStint s, SortPath path) {
  if (path != SortPath::radix) return {0, s.left};
  if (++s.streak < kAutoRadixStreak) return s;
  return {0, kAutoRadixStint};
}

}  // namespace particles
