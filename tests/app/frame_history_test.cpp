// FrameHistory: records found by frame number, and the bound that keeps a long interactive
// session's memory flat.
#include <gtest/gtest.h>

#include "app/main/frame_record.hpp"

namespace particles {
namespace {

FrameRecord record_of_frame(std::uint64_t frame) {
  FrameRecord r;
  r.frame = frame;
  r.frame_ms = static_cast<double>(frame);
  return r;
}

TEST(FrameHistory, UnboundedKeepsEveryFrame) {
  FrameHistory history;
  for (std::uint64_t f = 0; f < 1000; ++f) history.push(record_of_frame(f));
  EXPECT_EQ(history.records().size(), 1000u);
  EXPECT_EQ(history.first_frame(), 0u);
  ASSERT_NE(history.find(0), nullptr);
  EXPECT_EQ(history.find(999)->frame, 999u);
  EXPECT_EQ(history.find(1000), nullptr);
}

TEST(FrameHistory, BoundedDropsTheOldestAndStillFindsByFrame) {
  FrameHistory history(4);
  for (std::uint64_t f = 0; f < 1003; ++f) {
    history.push(record_of_frame(f));
    ASSERT_LT(history.records().size(), 8u);  // never more than 2 * keep - 1
    ASSERT_GE(history.records().size(), std::min<std::size_t>(f + 1, 4));
    EXPECT_EQ(history.find(f)->frame, f);  // the newest is always there
  }
  EXPECT_EQ(history.find(0), nullptr);
  const std::uint64_t first = history.first_frame();
  EXPECT_EQ(history.find(first)->frame, first);
  EXPECT_EQ(history.find(first - 1), nullptr);
  history.find(1002)->draw_ms = 2.5;  // late results land in the right record
  EXPECT_EQ(history.records().back().draw_ms, 2.5);
}

}  // namespace
}  // namespace particles
