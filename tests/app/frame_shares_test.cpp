// account_frame: the HUD's share-of-frame list and the bench chart's bar account for the whole
// frame, the measured parts plus "other", and the shares add up to 100%.
#include "app/main/frame_shares.hpp"

#include <gtest/gtest.h>

#include <numeric>

namespace particles {
namespace {

double sum_of(const std::vector<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0);
}

TEST(FrameShares, TheRestOfTheFrameIsOtherAndSharesAddUpTo100) {
  // The frame: 11.6 ms of parts under a 29.6 ms frame.
  const FrameShares s =
      account_frame(29.6, {{"pipeline", 6.0}, {"draw (GL)", 5.0}, {"present", 0.6}});
  ASSERT_EQ(s.parts.size(), 4u);
  EXPECT_EQ(s.parts.back().name, kOtherShareName);
  EXPECT_NEAR(s.other_ms, 18.0, 1e-9);
  EXPECT_NEAR(s.parts.back().ms, 18.0, 1e-9);
  EXPECT_EQ(s.overlap_ms, 0.0);
  EXPECT_NEAR(s.measured_ms, 11.6, 1e-9);
  EXPECT_NEAR(s.percent[0], 100.0 * 6.0 / 29.6, 1e-9);
  EXPECT_NEAR(s.percent[3], 100.0 * 18.0 / 29.6, 1e-9);
  EXPECT_NEAR(sum_of(s.percent), 100.0, 1e-9);
}

TEST(FrameShares, UnmeasuredPartsAreLeftOut) {
  const FrameShares s =
      account_frame(10.0, {{"pipeline", 2.0}, {"composite", 0.0}, {"present", -1.0}});
  ASSERT_EQ(s.parts.size(), 2u);
  EXPECT_EQ(s.parts[0].name, "pipeline");
  EXPECT_NEAR(s.other_ms, 8.0, 1e-9);
  EXPECT_NEAR(sum_of(s.percent), 100.0, 1e-9);
}

// Parts whose medians exceed the frame (GPU work beside the host's): no "other", the overlap
// said, and the shares are of the parts' sum, still 100% in all.
TEST(FrameShares, PartsBeyondTheFrameAreSharesOfTheirSum) {
  const FrameShares s = account_frame(4.0, {{"pipeline", 3.0}, {"composite", 2.0}});
  ASSERT_EQ(s.parts.size(), 2u);
  EXPECT_EQ(s.other_ms, 0.0);
  EXPECT_NEAR(s.overlap_ms, 1.0, 1e-9);
  EXPECT_NEAR(s.percent[0], 60.0, 1e-9);
  EXPECT_NEAR(s.percent[1], 40.0, 1e-9);
  EXPECT_NEAR(sum_of(s.percent), 100.0, 1e-9);
}

TEST(FrameShares, ExactlyAccountedAndEmptyFrames) {
  const FrameShares exact = account_frame(3.0, {{"pipeline", 1.0}, {"present", 2.0}});
  EXPECT_EQ(exact.parts.size(), 2u);  // nothing left over: no "other"
  EXPECT_NEAR(sum_of(exact.percent), 100.0, 1e-9);
  const FrameShares nothing = account_frame(0.0, {});
  EXPECT_TRUE(nothing.parts.empty());
  const FrameShares only_other = account_frame(5.0, {});
  ASSERT_EQ(only_other.parts.size(), 1u);
  EXPECT_NEAR(only_other.percent[0], 100.0, 1e-9);
}

}  // namespace
}  // namespace particles
