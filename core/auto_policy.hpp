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
// that cannot sort (a bucket of last frame's splitters overflows with this frame's keys) still
// costs its appends and a launch, so after one the next kPartitionRetryAfter - 1 frames go
// straight to radix.
// Keys of at most 16 bits are never tried: their radix sort is two passes, cheaper than the
// partition sort (docs/notes/auto.md, "Figures from the code comments").
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

// The CUDA backend's auto frame pays for its choice every frame: the probe, the one-thread
// choice and the empty launches of the sorts not chosen. A scene that keeps taking the same costly
// path pays it for nothing, so after kAutoStintStreak fused auto frames in a row that ended in
// the same one of these paths, the next kAutoStint frames run a graph of that path alone:
//   radix      the fixed radix frame (cheaper than probing where radix is what auto picks:
//              docs/notes/auto.md, "Figures from the code comments"). Auto's
//              first frame back starts from the identity and does not try the partition sort
//              (stale layout and splitters); its second does.
//   partition  auto's layout and the splitter partition sort, without the probe, the choice
//              and the odd-even window path, and without a fallback launch: a frame that moved
//              too far for the buckets is sorted by the same kernel's overflow sort (the
//              odd-even sorter's exact merge sort; reported as oddeven), which ends the stint.
// Either way every frame is exactly sorted and ties keep the same order (the layout's places).
// A stint whose probing frames chose its path again runs twice as long as the one before, up to
// kAutoStintLongest: where auto cannot help (the fountain, whose second probing frame tries the
// partition sort and fails; the 16M galaxy), the probing frames' cost fades from auto's mean
// instead of recurring every kAutoStint frames. Any other path, a request changed or a partition
// stint's frame that fell back starts over from kAutoStint, so a scene that turns coherent waits
// at most kAutoStintLongest frames (about a second at 60 Hz) to be probed again.
inline constexpr int kAutoStintStreak = 2;
inline constexpr int kAutoStint = 16;
inline constexpr int kAutoStintLongest = 64;

PARTICLES_HD constexpr bool stint_path(SortPath path) {
  return path == SortPath::radix || path == SortPath::partition;
}

struct AutoStint {
  SortPath path = SortPath::unsorted;  // the streak's path, then the stint's
  int streak = 0;                      // reported auto frames in a row that ended in `path`
  int left = 0;                        // frames still to run as the stint's graph
  int length = 0;                      // the frames of the last stint of `path`; 0: none yet
};

// The state after the report of a frame that ran the auto frame (not one of a stint). A report
// that arrives while a stint runs is of a frame enqueued before the stint began (the CUDA
// backend's reports come a frame late) and changes nothing: the stint was chosen after it, and
// keeps its path and length.
PARTICLES_HD constexpr AutoStint after_auto_report(AutoStint s, SortPath path) {
  if (s.left > 0) return s;
  if (!stint_path(path)) return {SortPath::unsorted, 0, 0, 0};
  if (path != s.path) s = {path, 0, s.left, 0};
  ++s.streak;
  if (s.streak < kAutoStintStreak) return s;
  const int length = s.length == 0                      ? kAutoStint
                     : 2 * s.length < kAutoStintLongest ? 2 * s.length
                                                        : kAutoStintLongest;
  return {path, 0, length, length};
}

// Auto also measures what it chose. Its probing frames (those above, which run the fused auto frame
// whatever path it takes) can cost more than radix's frames where their fixed work, the probe and
// the odd-even window's phases, outweighs radix's few passes: at small counts (docs/performance.md,
// "Auto against radix on every scene"). So the backend times both kinds of frame (the span it
// already reads back) and keeps a running mean of each: the probing frames', and the radix frames'
// (radix stints, and short radix probes that it runs for the purpose when it has no recent figure).
// Once radix's mean is the lower by kAutoCostMargin, the probing frames' reports count as radix
// frames, so stints of radix run, doubling as above; the probing frames between them keep auto's
// figure current, so a scene whose order becomes cheap to keep goes back to auto. Radix is timed
// again after probe_every of auto's own frames (probing frames and partition stints'), which
// doubles (up to kAutoRadixProbeLongest) each time radix loses, so where auto wins by far its
// probes fade from the mean.
inline constexpr float kAutoCostMargin = 1.02f;
inline constexpr int kAutoRadixProbeFrames = 3;  // the first of a new graph may not time
inline constexpr int kAutoRadixProbeFirst = 8;
inline constexpr int kAutoRadixProbeLongest = 1024;

struct AutoCost {
  float auto_ms = -1.0f;                   // running mean span of the probing frames; < 0: none yet
  float radix_ms = -1.0f;                  // of the radix frames
  int until_probe = kAutoRadixProbeFirst;  // probing frames before radix is timed again; < 0: never
  int probe_every = kAutoRadixProbeFirst;
};

// A cost that is never measured: given no spans, it never probes radix, and after_probing_frame
// is after_auto_report. The tests of auto's paths use it, whose paths must follow from the
// frames alone.
inline constexpr AutoCost kUnmeasuredAutoCost = {-1.0f, -1.0f, -1, kAutoRadixProbeFirst};

PARTICLES_HD constexpr float running_mean(float mean, float sample) {
  return mean < 0.0f ? sample : mean + (sample - mean) * 0.25f;
}

// A probing frame's span (ms; not positive: not timed, ignored).
PARTICLES_HD constexpr AutoCost after_auto_span(AutoCost c, float span_ms) {
  if (span_ms > 0.0f) c.auto_ms = running_mean(c.auto_ms, span_ms);
  if (c.until_probe > 0) --c.until_probe;
  return c;
}

// A radix frame's span, run in auto's place.
PARTICLES_HD constexpr AutoCost after_radix_span(AutoCost c, float span_ms) {
  if (span_ms > 0.0f) c.radix_ms = running_mean(c.radix_ms, span_ms);
  return c;
}

PARTICLES_HD constexpr bool radix_costs_less(const AutoCost& c) {
  return c.radix_ms > 0.0f && c.auto_ms > kAutoCostMargin * c.radix_ms;
}

// The stint after a probing frame's report: after_auto_report's, with the frame counted as a
// radix frame when radix costs less.
PARTICLES_HD constexpr AutoStint after_probing_frame(AutoStint s, const AutoCost& c,
                                                     SortPath path) {
  return after_auto_report(s, radix_costs_less(c) ? SortPath::radix : path);
}

// Before a frame is enqueued: when radix is due to be timed and no stint runs, a short radix
// probe (which leaves radix's stint length as it was), the next one twice as far off unless
// radix has won. Decided here rather than on a report, so that no stint chosen by a report
// (which may arrive after the next frame was enqueued) can put it off.
struct AutoChoice {
  AutoStint stint;
  AutoCost cost;
};

PARTICLES_HD constexpr AutoChoice before_frame(AutoStint s, AutoCost c) {
  if (s.left > 0 || c.until_probe != 0) return {s, c};
  s = {SortPath::radix, 0, kAutoRadixProbeFrames, s.path == SortPath::radix ? s.length : 0};
  c.probe_every = radix_costs_less(c)                          ? kAutoRadixProbeFirst
                  : 2 * c.probe_every < kAutoRadixProbeLongest ? 2 * c.probe_every
                                                               : kAutoRadixProbeLongest;
  c.until_probe = c.probe_every;
  return {s, c};
}

// Auto's state between frames, for a backend that runs it: the stint and the cost above, behind
// the three things a frame does with them. next_frame() before each fused auto frame is enqueued
// says which stint it runs in; on_report() takes that frame's report when it arrives (in any
// order after, once each); reset() forgets everything (a new scene, count or request).
class AutoSchedule {
 public:
  // measures_cost: whether spans count (the product); off, the paths follow the reports alone
  // (kUnmeasuredAutoCost), as the tests of those paths need.
  explicit AutoSchedule(bool measures_cost = false) : measures_cost_(measures_cost) { reset(); }

  void set_measures_cost(bool on) {
    measures_cost_ = on;
    reset();
  }
  void reset() {
    stint_ = {};
    skip_next_probing_span_ = false;
    cost_ = measures_cost_ ? AutoCost{} : kUnmeasuredAutoCost;
  }

  // The stint the next fused auto frame runs in (SortPath::unsorted: none, the probing frame).
  SortPath next_frame() {
    const AutoChoice choice = before_frame(stint_, cost_);
    stint_ = choice.stint;
    cost_ = choice.cost;
    next_ = SortPath::unsorted;
    if (stint_.left == 0) return next_;
    --stint_.left;
    next_ = stint_.path;
    return next_;
  }

  // The frame about to be enqueued comes back from a radix stint (or a probe) and starts from a
  // fresh order: the reports before it no longer count toward a streak. Without last frame's
  // order or splitters it cannot try the partition sort, so where that sort is what auto picks,
  // the frame runs radix behind auto's probe and costs more than either; its span would make
  // auto look dearer than it is (docs/performance.md, "Auto against radix on every scene") and
  // is left out of auto's cost.
  void restart_order() {
    stint_.streak = 0;
    skip_next_probing_span_ = next_ == SortPath::unsorted;
  }

  // The report of a fused auto frame that ran in `stint` (next_frame's answer), took `path`, and
  // spanned span_ms (not positive: not timed).
  void on_report(SortPath stint, SortPath path, float span_ms) {
    const float span = measures_cost_ ? span_ms : 0.0f;
    if (stint == SortPath::unsorted) {
      cost_ = after_auto_span(cost_, skip_next_probing_span_ ? 0.0f : span);
      skip_next_probing_span_ = false;
      stint_ = after_probing_frame(stint_, cost_, path);
    } else if (stint == SortPath::radix) {
      cost_ = after_radix_span(cost_, span);
    } else if (stint == SortPath::partition) {
      // A partition stint is auto's own choice: its frames count as auto's cost, and toward
      // the next radix probe, which would otherwise wait out every stint (a few hundred frames
      // at a scene's start, where partition stints double from the first ones).
      cost_ = after_auto_span(cost_, span);
      // It fell back: the probing frame decides. (Only a partition stint ends; a report that
      // arrives late, during the radix probe after the stint, leaves the probe running.)
      if (path != SortPath::partition && stint_.path == SortPath::partition) stint_ = {};
    }
  }

  const AutoStint& stint() const { return stint_; }
  const AutoCost& cost() const { return cost_; }

 private:
  bool measures_cost_;
  bool skip_next_probing_span_ = false;
  SortPath next_ = SortPath::unsorted;  // next_frame's last answer
  AutoStint stint_;
  AutoCost cost_;
};

}  // namespace particles
