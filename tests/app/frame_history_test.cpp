// FrameHistory: records found by frame number, and the bound that keeps a long interactive
// session's memory flat.
#include <gtest/gtest.h>

#include "app/main/frame_record.hpp"
#include "app/main/live_stats.hpp"

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

RunConfig base_config() {
  RunConfig c;
  c.scene = "scenes/galaxy.toml";
  c.count = 65536;
  c.backend = "cpu";
  c.width = 1280;
  c.height = 720;
  return c;
}

void push_every_series(LiveStats& stats, float v) {
  for (RollingSeries* s :
       {&stats.frame_ms, &stats.backend_ms, &stats.draw_ms, &stats.composite_ms, &stats.present_ms,
        &stats.span_ms, &stats.order_error, &stats.pixels_off}) {
    s->push(v);
  }
  for (RollingSeries& s : stats.stage_ms) s.push(v);
}

bool every_series_empty(const LiveStats& stats) {
  for (const RollingSeries* s :
       {&stats.frame_ms, &stats.backend_ms, &stats.draw_ms, &stats.composite_ms, &stats.present_ms,
        &stats.span_ms, &stats.order_error, &stats.pixels_off}) {
    if (s->summary().samples != 0) return false;
  }
  for (const RollingSeries& s : stats.stage_ms) {
    if (s.summary().samples != 0) return false;
  }
  return true;
}

// Each setting the times depend on, changed alone, empties every series (the HUD's numbers and
// graphs) and makes the frame of the change the first one counted; the same setting again keeps
// them.
TEST(LiveStats, EveryChangeOfSettingStartsTheStatisticsOver) {
  using Change = void (*)(RunConfig&);
  const std::pair<const char*, Change> changes[] = {
      {"scene", [](RunConfig& c) { c.scene = "scenes/fountain.toml"; }},
      {"count", [](RunConfig& c) { c.count = 131072; }},
      {"algorithm", [](RunConfig& c) { c.choices.algorithm = Algorithm::quicksort; }},
      {"renderer", [](RunConfig& c) { c.choices.renderer = RendererKind::composite; }},
      {"key mode", [](RunConfig& c) { c.choices.key_mode = KeyMode::quantized; }},
      {"order", [](RunConfig& c) { c.choices.order = DrawOrder::eye_distance; }},
      {"comparison", [](RunConfig& c) { c.choices.compare = true; }},
      {"width", [](RunConfig& c) { c.width = 800; }},
      {"height", [](RunConfig& c) { c.height = 500; }},
      {"backend", [](RunConfig& c) { c.backend = "cuda"; }},
      {"stage timing", [](RunConfig& c) { c.choices.stage_sample_period = 1; }},
      {"stage fusion", [](RunConfig& c) { c.choices.fuse_stages = false; }},
  };
  for (const auto& [name, change] : changes) {
    LiveStats stats;
    EXPECT_FALSE(stats.begin_frame(base_config(), 0)) << "the first frame is no change";
    for (std::uint64_t f = 1; f < 50; ++f) {
      ASSERT_FALSE(stats.begin_frame(base_config(), f)) << name;
      push_every_series(stats, 40.0f);
    }
    ASSERT_FALSE(every_series_empty(stats));
    RunConfig changed = base_config();
    change(changed);
    EXPECT_TRUE(stats.begin_frame(changed, 50)) << name;
    EXPECT_TRUE(every_series_empty(stats)) << name;
    EXPECT_EQ(stats.first_frame(), 50u) << name;
    EXPECT_EQ(stats.configurations(), 2) << name;
    EXPECT_EQ(stats.config(), normalized(changed)) << name;
    // Timings of frames before the change, arriving late, are not counted.
    EXPECT_FALSE(stats.counts(49)) << name;
    EXPECT_TRUE(stats.counts(50)) << name;
    push_every_series(stats, 2.0f);
    EXPECT_EQ(stats.frame_ms.summary().median, 2.0) << name;
    EXPECT_FALSE(stats.begin_frame(changed, 51)) << name;
    EXPECT_EQ(stats.frame_ms.summary().samples, 1u) << name;
  }
}

// Settings that do not apply change nothing: the key bits of exact keys, the period of an order
// that is not stale, the mode of no comparison. Where they apply, they count.
TEST(LiveStats, SettingsThatDoNotApplyKeepTheStatistics) {
  LiveStats stats;
  RunConfig c = base_config();
  stats.begin_frame(c, 0);
  stats.frame_ms.push(5.0f);
  c.choices.key_bits = 12;
  c.choices.order_period = 3;
  c.choices.compare_mode = CompareMode::heat;
  EXPECT_FALSE(stats.begin_frame(c, 1));
  EXPECT_EQ(stats.frame_ms.summary().samples, 1u);
  c.choices.key_mode = KeyMode::quantized;
  EXPECT_TRUE(stats.begin_frame(c, 2));
  c.choices.key_bits = 10;
  EXPECT_TRUE(stats.begin_frame(c, 3));
  c.choices.order = DrawOrder::stale;
  EXPECT_TRUE(stats.begin_frame(c, 4));
  c.choices.order_period = 8;
  EXPECT_TRUE(stats.begin_frame(c, 5));
  EXPECT_EQ(stats.configurations(), 5);
}

TEST(LiveStats, DescribeNamesTheConfiguration) {
  RunConfig c = base_config();
  c.choices.algorithm = Algorithm::cub;
  c.choices.key_mode = KeyMode::quantized;
  c.choices.key_bits = 12;
  c.choices.order = DrawOrder::stale;
  c.choices.order_period = 8;
  EXPECT_EQ(describe(c, "Spiral galaxy"),
            "Spiral galaxy, 65536 particles, cpu backend, cub algorithm, raster renderer, 12-bit "
            "quantized keys, stale order (every 8 frames), 1280x720");
}

// The exit summary covers the last configuration's frames, less its warm-up.
TEST(LiveStats, SummaryCoversTheLastConfigurationOnly) {
  // 600 frames held from frame 0, the configuration from frame 400: 200 frames, 20 warm-up.
  SummarySpan s = summary_span(0, 600, 400);
  EXPECT_EQ(s.begin, 420u);
  EXPECT_EQ(s.warmup, 20u);
  // One configuration all along: a tenth, at most 30, skipped.
  s = summary_span(0, 600, 0);
  EXPECT_EQ(s.begin, 30u);
  EXPECT_EQ(s.warmup, 30u);
  // The history (bounded) dropped the first frames of the configuration: all it holds, no skip.
  s = summary_span(1000, 500, 200);
  EXPECT_EQ(s.begin, 0u);
  EXPECT_EQ(s.warmup, 0u);
  // The history starts later, but inside the configuration's frames.
  s = summary_span(1000, 500, 1100);
  EXPECT_EQ(s.begin, 100u + 30u);  // 400 frames: 30 warm-up at most
  // A change on the very last frame: one frame, no warm-up.
  s = summary_span(0, 600, 599);
  EXPECT_EQ(s.begin, 599u);
  EXPECT_EQ(s.warmup, 0u);
}

}  // namespace
}  // namespace particles
