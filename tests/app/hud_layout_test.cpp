// The HUD's geometry (hud_layout.hpp) at the window sizes issue #63 tried, and --ui-scale's
// parsing: the panel leaves most of the picture, the font scale stays in its range.
#include "app/main/hud_layout.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "app/scene/options.hpp"

namespace particles {
namespace {

TEST(HudLayout, PanelLeavesMostOfThePictureAt800x500AndLarger) {
  for (const auto& [w, h] : {std::pair{800.0f, 500.0f}, std::pair{1280.0f, 720.0f},
                             std::pair{1920.0f, 1080.0f}, std::pair{3840.0f, 2160.0f}}) {
    const HudPanel p = hud_panel(w, h, 1.0f);
    EXPECT_GE(p.width, 230.0f) << w;  // the settings' widest row
    EXPECT_LE(p.width, 0.3f * w) << w;
    EXPECT_LE(p.x + p.width, w);
    EXPECT_LE(p.y + p.max_height, h) << "scrolls past the window's bottom at " << w << "x" << h;
    EXPECT_GE(p.max_height, h - 20.0f);
  }
  // Issue #63: about 350 px at 1280x720 (28% of the window) and 45% at 800x500.
  EXPECT_LE(hud_panel(1280.0f, 720.0f, 1.0f).width, 260.0f);
  EXPECT_LE(hud_panel(800.0f, 500.0f, 1.0f).width, 230.0f);
}

TEST(HudLayout, PanelGrowsWithTheFontScaleButNeverPastHalfTheWindow) {
  EXPECT_FLOAT_EQ(hud_panel(3840.0f, 2160.0f, 2.0f).width, 600.0f);
  EXPECT_FLOAT_EQ(hud_panel(3840.0f, 2160.0f, 1.0f).width, 300.0f);
  EXPECT_FLOAT_EQ(hud_panel(800.0f, 500.0f, 3.0f).width, 400.0f);
  const HudPanel tiny = hud_panel(100.0f, 50.0f, 1.0f);
  EXPECT_LE(tiny.x + tiny.width, 100.0f);
  EXPECT_GE(tiny.max_height, 0.0f);
  const HudPanel none = hud_panel(0.0f, 0.0f, 1.0f);  // a minimised window
  EXPECT_EQ(none.width, 0.0f);
  EXPECT_EQ(none.max_height, 0.0f);
}

TEST(HudLayout, GraphsStartOpenOnlyWhereTheyFit) {
  EXPECT_TRUE(graphs_open_by_default(1080.0f, 1.0f));
  EXPECT_FALSE(graphs_open_by_default(720.0f, 1.0f));
  EXPECT_FALSE(graphs_open_by_default(500.0f, 1.0f));
  EXPECT_FALSE(graphs_open_by_default(1440.0f, 2.0f));
}

TEST(HudLayout, UiScaleIsClampedAndFollowsTheContentScaleInQuarterSteps) {
  EXPECT_FLOAT_EQ(clamp_ui_scale(0.1f), kMinUiScale);
  EXPECT_FLOAT_EQ(clamp_ui_scale(10.0f), kMaxUiScale);
  EXPECT_FLOAT_EQ(clamp_ui_scale(1.5f), 1.5f);
  EXPECT_FLOAT_EQ(clamp_ui_scale(std::numeric_limits<float>::quiet_NaN()), 1.0f);
  EXPECT_FLOAT_EQ(default_ui_scale(1.0f, 1.0f), 1.0f);
  EXPECT_FLOAT_EQ(default_ui_scale(2.0f, 2.0f), 2.0f);
  EXPECT_FLOAT_EQ(default_ui_scale(1.3f, 1.2f), 1.25f);  // the larger axis, to a quarter
  EXPECT_FLOAT_EQ(default_ui_scale(1.0f, 1.5f), 1.5f);
  EXPECT_FLOAT_EQ(default_ui_scale(6.0f, 6.0f), kMaxUiScale);
  EXPECT_FLOAT_EQ(default_ui_scale(0.0f, 0.0f), 1.0f);  // unknown
  EXPECT_FLOAT_EQ(default_ui_scale(-1.0f, std::numeric_limits<float>::quiet_NaN()), 1.0f);
  EXPECT_FLOAT_EQ(default_ui_scale(std::numeric_limits<float>::infinity(), 1.0f), 1.0f);
}

TEST(HudLayout, ImageFitsTheWindowAsTheBlitShowsIt) {
  const ImageRect same = fit_image(1280, 720, 1280.0f, 720.0f);
  EXPECT_EQ(same.x, 0.0f);
  EXPECT_EQ(same.y, 0.0f);
  EXPECT_EQ(same.width, 1280.0f);
  EXPECT_EQ(same.height, 720.0f);
  // A recording's 1280x720 frames in an 800x500 window: bars above and below.
  const ImageRect wide = fit_image(1280, 720, 800.0f, 500.0f);
  EXPECT_EQ(wide.width, 800.0f);
  EXPECT_EQ(wide.height, 450.0f);
  EXPECT_EQ(wide.x, 0.0f);
  EXPECT_EQ(wide.y, 25.0f);
  // A tall image: bars left and right.
  const ImageRect tall = fit_image(500, 1000, 800.0f, 500.0f);
  EXPECT_EQ(tall.width, 250.0f);
  EXPECT_EQ(tall.x, 275.0f);
  EXPECT_EQ(fit_image(0, 720, 800.0f, 500.0f).width, 0.0f);
}

// The heat view's caption at 800x500 was centred on the image and ran under the panel, which hid
// its first words: a label keeps to the columns the panel leaves.
TEST(HudLayout, LabelsKeepClearOfThePanel) {
  const ImageRect image{0.0f, 0.0f, 800.0f, 500.0f};
  const ImageRect panel{8.0f, 8.0f, 238.0f, 484.0f};
  const Span beside = clear_of_panel(image, panel, 420.0f, 492.0f, 8.0f);
  EXPECT_EQ(beside.left, 254.0f);
  EXPECT_EQ(beside.right, 800.0f);
  // A box centred on the image would start under the panel: it is centred beside it instead.
  const float x = place_box(image, beside, 460.0f);
  EXPECT_GE(x, beside.left);
  EXPECT_LE(x + 460.0f, beside.right);
  EXPECT_FLOAT_EQ(x, 297.0f);
  // A narrow box clear of the panel where centred stays centred.
  EXPECT_FLOAT_EQ(place_box(image, beside, 200.0f), 300.0f);
  // A box wider than the room starts at its left edge.
  EXPECT_EQ(place_box(image, beside, 700.0f), beside.left);

  // A hidden panel, and a collapsed one that ends above the rows, leave the whole width.
  const Span hidden = clear_of_panel(image, ImageRect{}, 420.0f, 492.0f, 8.0f);
  EXPECT_EQ(hidden.left, 0.0f);
  EXPECT_EQ(hidden.right, 800.0f);
  const ImageRect collapsed{8.0f, 8.0f, 238.0f, 170.0f};
  EXPECT_EQ(clear_of_panel(image, collapsed, 420.0f, 492.0f, 8.0f).left, 0.0f);
  EXPECT_EQ(clear_of_panel(image, collapsed, 6.0f, 60.0f, 8.0f).left, 254.0f);

  // A panel dragged to the right: the room is on its left.
  const ImageRect right{600.0f, 8.0f, 190.0f, 484.0f};
  const Span left_of = clear_of_panel(image, right, 420.0f, 492.0f, 8.0f);
  EXPECT_EQ(left_of.left, 0.0f);
  EXPECT_EQ(left_of.right, 592.0f);
  // A panel over the whole image leaves no room.
  EXPECT_EQ(
      clear_of_panel(image, ImageRect{0.0f, 0.0f, 800.0f, 500.0f}, 0.0f, 500.0f, 8.0f).width(),
      0.0f);
}

TEST(HudLayout, CompactMillisecondsKeepThreeSignificantDigits) {
  EXPECT_EQ(compact_ms(0.05123), "0.0512");
  EXPECT_EQ(compact_ms(0.5), "0.500");
  EXPECT_EQ(compact_ms(1.258), "1.26");
  EXPECT_EQ(compact_ms(16.666), "16.7");
  EXPECT_EQ(compact_ms(264.3), "264");
  EXPECT_EQ(compact_ms(9.999), "10.0");
  EXPECT_EQ(compact_ms(0.0), "0.0000");
  EXPECT_EQ(compact_ms(-1.0), "-");
  EXPECT_EQ(compact_ms(std::numeric_limits<double>::quiet_NaN()), "-");
}

// --ui-scale: a number in [0.75, 3]; anything else is a usage error that names the flag.
struct Parsed {
  ParseOutcome outcome;
  std::string err;
};

Parsed parse(std::vector<std::string> args) {
  args.insert(args.begin(), {"particles", "--scene", PARTICLES_SOURCE_DIR "/scenes/galaxy.toml"});
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  Parsed p{parse_options(static_cast<int>(argv.size()), argv.data(), out, err), {}};
  p.err = err.str();
  return p;
}

TEST(UiScaleOption, UnsetByDefaultAndTakenWhenGiven) {
  const Parsed none = parse({});
  ASSERT_TRUE(none.outcome.options) << none.err;
  EXPECT_FALSE(none.outcome.options->ui_scale);
  const Parsed given = parse({"--ui-scale", "1.5"});
  ASSERT_TRUE(given.outcome.options) << given.err;
  ASSERT_TRUE(given.outcome.options->ui_scale);
  EXPECT_FLOAT_EQ(*given.outcome.options->ui_scale, 1.5f);
  const Parsed edge = parse({"--ui-scale=3"});
  ASSERT_TRUE(edge.outcome.options) << edge.err;
  EXPECT_FLOAT_EQ(*edge.outcome.options->ui_scale, 3.0f);
}

TEST(UiScaleOption, OutOfRangeOrNotANumberIsAUsageError) {
  for (const char* bad : {"0", "0.5", "3.5", "-1", "nan", "inf", "big", ""}) {
    const Parsed p = parse({"--ui-scale", bad});
    EXPECT_FALSE(p.outcome.options) << bad;
    EXPECT_EQ(p.outcome.exit_code, kUsageExitCode) << bad;
    EXPECT_NE(p.err.find("--ui-scale"), std::string::npos) << bad << ": " << p.err;
  }
}

}  // namespace
}  // namespace particles
