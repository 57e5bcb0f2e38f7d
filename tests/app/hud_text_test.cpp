// What the HUD says (hud_text.hpp): counts that read alike in one list (issue #63: "200000" beside
// "256K"), stage timings that name the fused pass instead of showing 0, and graph captions with
// their unit.
#include "app/main/hud_text.hpp"

#include <gtest/gtest.h>

#include <string>

#include "core/frame_types.hpp"

namespace particles {
namespace {

TEST(CountLabel, WholeNumbersOfKAndMAreShort) {
  EXPECT_EQ(count_label(1024), "1K");
  EXPECT_EQ(count_label(65536), "64K");
  EXPECT_EQ(count_label(131072), "128K");
  EXPECT_EQ(count_label(262144), "256K");
  EXPECT_EQ(count_label(524288), "512K");
  EXPECT_EQ(count_label(1u << 20), "1M");
  EXPECT_EQ(count_label(1u << 24), "16M");
  EXPECT_EQ(count_label(3u << 20), "3M");
  EXPECT_EQ(count_label(1536u << 10), "1536K");  // 1.5M: a whole number of K, not of M
}

TEST(CountLabel, OtherCountsHaveThousandsSeparators) {
  EXPECT_EQ(count_label(0), "0");
  EXPECT_EQ(count_label(1), "1");
  EXPECT_EQ(count_label(999), "999");
  EXPECT_EQ(count_label(1000), "1,000");
  EXPECT_EQ(count_label(1023), "1,023");
  EXPECT_EQ(count_label(1536), "1,536");  // 1.5K
  EXPECT_EQ(count_label(200000), "200,000");
  EXPECT_EQ(count_label(1000000), "1,000,000");
  EXPECT_EQ(count_label(1048575), "1,048,575");
  EXPECT_EQ(count_label(4294967295u), "4,294,967,295");
}

TEST(StageTimeText, AStageTimedInsideSimulateSaysSoInsteadOfZero) {
  EXPECT_EQ(stage_time_text(0.0, true), kInSimulateText);
  EXPECT_EQ(stage_time_text(0.0, true), "in simulate");
  EXPECT_EQ(stage_time_text(1.26, false), "1.26");
  EXPECT_EQ(stage_time_text(0.0, false), "0.0000");  // a measured 0 still reads as a time
}

TEST(GraphCaption, EveryTimeCarriesItsUnit) {
  Summary s;
  s.median = 16.7;
  s.p99 = 17.1;
  EXPECT_EQ(graph_caption("frame", s), "frame  med 16.7 ms  p99 17.1 ms");
}

}  // namespace
}  // namespace particles
