// Auto measuring what it chose (core/auto_policy.hpp, after_probing_frame): frames played out as
// the CUDA pipeline runs them, with the cost of each kind of frame given, to see which frames
// run and what they cost on average.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include "core/auto_policy.hpp"

namespace particles {
namespace {

struct Played {
  int radix_frames = 0;
  double mean_ms = 0.0;
  std::vector<float> spans;
};

// What the frames of a scene cost beyond its probing and radix frames, where the two differ:
// a frame of a partition stint (no probe: cheaper than a probing frame) and the restart frame,
// the first auto frame after radix frames, which cannot try the partition sort and runs radix
// behind the probe (reported as radix).
struct MoreCosts {
  std::function<float(int)> partition_stint_ms;  // empty: a probing frame's cost
  std::function<float(int)> restart_ms;          // empty: a probing frame, taking `path`
  std::function<SortPath(int)> path_at;          // the probing frames' path; empty: `path`
};

// A frame enqueued and not yet reported: its stint, the path it took and its span.
struct Enqueued {
  SortPath stint;
  SortPath path;
  float ms;
};

// `frames` frames where a probing frame costs auto_ms(f) and takes `path`, and a radix frame
// costs radix_ms(f), through the AutoSchedule a backend keeps. Each frame's report arrives `lag`
// frames after it was enqueued: 0 as on the CPU backend, 1 as on the CUDA backend, whose report
// of frame f comes after frame f + 1 is enqueued. The first auto frame after a radix frame
// restarts auto's order, as the CUDA pipeline does.

template <class AutoCostAt, class RadixCostAt>
Played play(int frames, SortPath path, AutoCostAt auto_ms, RadixCostAt radix_ms,
            bool measures_cost = true, int lag = 1, const MoreCosts& more = {}) {
  AutoSchedule schedule(measures_cost);
  Played p;
  double total = 0.0;
  std::deque<Enqueued> in_flight;
  SortPath last_stint = SortPath::unsorted;
  for (int f = 0; f < frames; ++f) {
    const SortPath stint = schedule.next_frame();
    const bool restart = stint != SortPath::radix && last_stint == SortPath::radix;
    if (restart) schedule.restart_order();
    last_stint = stint;
    Enqueued e{stint, more.path_at ? more.path_at(f) : path, auto_ms(f)};
    if (stint == SortPath::radix) {
      e = {stint, SortPath::radix, radix_ms(f)};
    } else if (restart && more.restart_ms) {
      e = {stint, SortPath::radix, more.restart_ms(f)};
    } else if (stint == SortPath::partition && more.partition_stint_ms) {
      e.ms = more.partition_stint_ms(f);
    }
    p.radix_frames += stint == SortPath::radix ? 1 : 0;
    total += e.ms;
    p.spans.push_back(e.ms);
    in_flight.push_back(e);
    if (static_cast<int>(in_flight.size()) > lag) {
      schedule.on_report(in_flight.front().stint, in_flight.front().path, in_flight.front().ms);
      in_flight.pop_front();
    }
  }
  p.mean_ms = total / frames;
  return p;
}

float median(std::vector<float> v) {
  std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

TEST(AutoCost, RadixTakesOverWhereAutosFramesCostMore) {
  // The 64K galaxy on the H200: auto's odd-even frames about 48 us, radix's 37.
  // Between radix stints of the longest length, the probing frames that keep auto's figure
  // current: two, or three when reports come a frame late.
  for (int lag : {0, 1}) {
    for (SortPath path : {SortPath::oddeven, SortPath::skipped_sorted, SortPath::partition}) {
      const Played p = play(
          2000, path, [](int) { return 0.048f; }, [](int) { return 0.037f; }, true, lag);
      EXPECT_GT(p.radix_frames, 1880) << to_string(path) << ", lag " << lag;
      EXPECT_LE(p.mean_ms, 1.02 * 0.037) << to_string(path) << ", lag " << lag;
      EXPECT_FLOAT_EQ(median(p.spans), 0.037f);
    }
  }
}

// The 4M smoke on the H200: the partition sort takes every probing frame and every frame of its
// stints (about 611 us), radix's frames cost 570. Partition stints form at once and double, so
// radix is timed only between stints: with the CUDA backend's late reports, the report of the
// probing frame before a stint arrives during it and the next probing frame starts the next one.
TEST(AutoCost, RadixTakesOverFromPartitionStintsWithReportsAFrameLate) {
  for (int lag : {0, 1, 2}) {
    const Played p = play(
        3000, SortPath::partition, [](int) { return 0.611f; }, [](int) { return 0.570f; }, true,
        lag);
    EXPECT_GT(p.radix_frames, 2700) << "lag " << lag;
    EXPECT_LE(p.mean_ms, 1.01 * 0.570) << "lag " << lag;
  }
}

// The 1M Lorenz attractor on the H200: its first frames move too fast for the partition sort,
// whose tries fall back to radix (probing frames about 110 us, radix 94), then the partition sort
// takes every frame: 76-83 us probing, 55 in a stint. The restart frame after each radix stint
// costs 151-160 us: counted as auto's cost, it kept auto's mean above radix's, and radix stints ran
// on (1.00x radix where auto had been 0.60x).
TEST(AutoCost, AutoWinsBackOnceItsPartitionSortPays) {
  for (int lag : {0, 1}) {
    MoreCosts more;
    more.partition_stint_ms = [](int) { return 0.055f; };
    more.restart_ms = [](int) { return 0.158f; };
    more.path_at = [](int f) { return f < 100 ? SortPath::radix : SortPath::partition; };
    const Played p = play(
        3000, SortPath::partition, [](int f) { return f < 100 ? 0.110f : 0.080f; },
        [](int) { return 0.094f; }, true, lag, more);
    const std::vector<float> late(p.spans.begin() + 1000, p.spans.end());
    double mean = 0.0;
    for (float ms : late) mean += ms;
    mean /= static_cast<double>(late.size());
    EXPECT_LT(mean, 0.65 * 0.094) << "lag " << lag;
    EXPECT_FLOAT_EQ(median(late), 0.055f) << "lag " << lag;
  }
}

TEST(AutoCost, AutoKeepsItsWinsAndTimesRadixEverLessOften) {
  // The 1M galaxy: auto 47 us, radix 94. Radix is timed at doubling intervals up to the longest.
  const Played p = play(
      5000, SortPath::oddeven, [](int) { return 0.047f; }, [](int) { return 0.094f; });
  EXPECT_FLOAT_EQ(median(p.spans), 0.047f);
  EXPECT_LT(p.radix_frames, 40);
  EXPECT_LT(p.mean_ms, 1.01 * 0.047);
  // The gaps between radix probes double until they reach the longest.
  std::vector<int> starts;
  for (int f = 1; f < 5000; ++f) {
    if (p.spans[f] > 0.05f && p.spans[f - 1] < 0.05f) starts.push_back(f);
  }
  ASSERT_GE(starts.size(), 5u);
  for (std::size_t i = 2; i < starts.size(); ++i) {
    const int gap = starts[i] - starts[i - 1] - kAutoRadixProbeFrames;
    const int before = starts[i - 1] - starts[i - 2] - kAutoRadixProbeFrames;
    EXPECT_EQ(gap, std::min(2 * before, kAutoRadixProbeLongest)) << i;
  }
}

TEST(AutoCost, WithinTheMarginAutoStays) {
  // Radix 1% cheaper: not enough to switch (kAutoCostMargin), auto's own paths run.
  const Played p = play(
      3000, SortPath::oddeven, [](int) { return 0.0505f; }, [](int) { return 0.050f; });
  EXPECT_LT(p.radix_frames, 40);
}

TEST(AutoCost, ASceneThatTurnsCheapForAutoGoesBackToIt) {
  // Radix wins for the first 1000 frames, then auto's frames drop to a third of radix's.
  const auto auto_ms = [](int f) { return f < 1000 ? 0.060f : 0.015f; };
  const Played p = play(3000, SortPath::oddeven, auto_ms, [](int) { return 0.040f; });
  int late_radix = 0;
  for (int f = 2000; f < 3000; ++f) late_radix += p.spans[f] == 0.040f ? 1 : 0;
  EXPECT_LT(late_radix, 20);
  // And back: auto's frames turning dear again hand over to radix.
  const auto turning = [](int f) { return f < 1000 ? 0.015f : 0.060f; };
  const Played q = play(3000, SortPath::oddeven, turning, [](int) { return 0.040f; });
  int late_auto = 0;
  for (int f = 2000; f < 3000; ++f) late_auto += q.spans[f] == 0.060f ? 1 : 0;
  EXPECT_LT(late_auto, 100);  // its probing frames between the longest stints
}

TEST(AutoCost, UntimedFramesChangeNothing) {
  AutoCost c;
  c = after_auto_span(c, -1.0f);
  c = after_radix_span(c, 0.0f);
  EXPECT_LT(c.auto_ms, 0.0f);
  EXPECT_LT(c.radix_ms, 0.0f);
  EXPECT_FALSE(radix_costs_less(c));
  // Without any timing (a backend that cannot time), auto behaves as without the cost: radix is
  // probed (it costs a few frames) but never takes over.
  const Played p = play(
      2000, SortPath::oddeven, [](int) { return -1.0f; }, [](int) { return -1.0f; });
  EXPECT_LT(p.radix_frames, 40);
}

// The unmeasured cost, with no spans, leaves every stint to the frames' reports: the path
// sequence is after_auto_report's, frame for frame, whatever the reports say.
TEST(AutoCost, UnmeasuredCostFollowsTheReportsAlone) {
  const SortPath paths[] = {SortPath::oddeven, SortPath::radix, SortPath::partition,
                            SortPath::unsorted};
  AutoStint plain, measured;
  AutoCost cost = kUnmeasuredAutoCost;
  std::uint32_t x = 12345u;
  for (int f = 0; f < 5000; ++f) {
    x = x * 1664525u + 1013904223u;
    // Runs of one path, long enough for stints to form.
    const SortPath path = paths[(x >> 28) % 4 == 0 ? (x >> 24) % 4 : (f / 97) % 4];
    plain = after_auto_report(plain, path);
    cost = after_auto_span(cost, 0.0f);
    const AutoChoice before = before_frame(measured, cost);
    ASSERT_EQ(before.stint.left, measured.left) << f;  // never a radix probe
    measured = after_probing_frame(before.stint, before.cost, path);
    cost = before.cost;
    ASSERT_EQ(measured.path, plain.path) << f;
    ASSERT_EQ(measured.left, plain.left) << f;
    ASSERT_EQ(measured.length, plain.length) << f;
    ASSERT_EQ(measured.streak, plain.streak) << f;
  }
}

// Unmeasured (the tests of auto's paths), the schedule takes no span into account: auto's frames
// ten times radix's never bring radix stints, where the measured schedule runs radix nearly
// throughout.
TEST(AutoSchedule, UnmeasuredSpansChangeNothing) {
  const auto slow_auto = [](int) { return 1.0f; };
  const auto fast_radix = [](int) { return 0.1f; };
  const Played unmeasured = play(2000, SortPath::oddeven, slow_auto, fast_radix, false);
  const Played measured = play(2000, SortPath::oddeven, slow_auto, fast_radix, true);
  EXPECT_EQ(unmeasured.radix_frames, 0);
  EXPECT_GT(measured.radix_frames, 1800);
}

// A partition stint whose frame falls back ends at once, and reset() forgets stint and cost.
TEST(AutoSchedule, APartitionFallbackEndsItsStintAndResetForgets) {
  AutoSchedule schedule(true);
  for (int f = 0; f < kAutoStintStreak; ++f) {
    ASSERT_EQ(schedule.next_frame(), SortPath::unsorted);
    schedule.on_report(SortPath::unsorted, SortPath::partition, 0.05f);
  }
  ASSERT_EQ(schedule.next_frame(), SortPath::partition);
  schedule.on_report(SortPath::partition, SortPath::oddeven, 0.05f);  // fell back
  EXPECT_EQ(schedule.next_frame(), SortPath::unsorted);
  EXPECT_GT(schedule.cost().auto_ms, 0.0f);
  schedule.reset();
  EXPECT_LT(schedule.cost().auto_ms, 0.0f);
  EXPECT_EQ(schedule.stint().left, 0);
  EXPECT_EQ(schedule.stint().streak, 0);
}

// The last frame of a partition stint falls back, and its report arrives a frame late, after
// the radix probe that follows the stint has begun: the probe runs its frames whole.
TEST(AutoSchedule, ALateFallbackReportLeavesARadixProbeRunning) {
  AutoSchedule schedule(true);
  for (int f = 0; f < kAutoRadixProbeFirst + 4 && schedule.stint().path != SortPath::radix; ++f) {
    const SortPath stint = schedule.next_frame();
    schedule.on_report(stint, SortPath::oddeven, 0.05f);
  }
  ASSERT_EQ(schedule.stint().path, SortPath::radix);
  const AutoStint probe = schedule.stint();  // as before_frame starts it
  ASSERT_GT(probe.left, 0);
  schedule.on_report(SortPath::partition, SortPath::oddeven, 0.05f);  // the late fallback
  EXPECT_EQ(schedule.stint().path, SortPath::radix);
  EXPECT_EQ(schedule.stint().left, probe.left);
}

}  // namespace
}  // namespace particles
