// FrameChoices: the one struct of what the user chose, its defaults, the clearing of choices
// that do not apply, the backend settings made from it, and the name tables of its enums.
#include "core/frame_choices.hpp"

#include <gtest/gtest.h>

#include <array>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/frame_types.hpp"

namespace particles {
namespace {

// Every value of each enum the user names has a name of its own that reads back as that value;
// a name that is none reads back as nothing.
template <class Enum, std::size_t N, class Parse>
void expect_names_round_trip(const std::array<Enum, N>& values, Parse parse, const char* what) {
  std::set<std::string> names;
  for (const Enum v : values) {
    const std::string_view name = to_string(v);
    EXPECT_NE(name, "?") << what;
    EXPECT_TRUE(names.emplace(name).second) << what << " name twice: " << name;
    EXPECT_EQ(parse(name), v) << what << ' ' << name;
  }
  EXPECT_FALSE(parse("bogo").has_value()) << what;
  EXPECT_FALSE(parse("").has_value()) << what;
}

TEST(FrameChoices, EveryEnumNameRoundTrips) {
  expect_names_round_trip(kAllAlgorithms, algorithm_from_string, "algorithm");
  expect_names_round_trip(kAllRenderers, renderer_from_string, "renderer");
  expect_names_round_trip(kAllDrawOrders, draw_order_from_string, "draw order");
  expect_names_round_trip(kAllCompareModes, compare_mode_from_string, "comparison mode");
}

// The one table is the one the command line checks against, auto included: the sorters' enum is
// the same Algorithm (cuda/sort/sorter.hpp), so no second table can disagree with it.
TEST(FrameChoices, AlgorithmNamesAreTheCommandLines) {
  const std::vector<std::string> expected = {"radix", "oddeven", "quicksort", "cub", "auto"};
  EXPECT_EQ(algorithm_names(), expected);
  EXPECT_EQ(algorithm_from_string("auto"), Algorithm::automatic);
}

TEST(FrameChoices, Defaults) {
  const FrameChoices c;
  EXPECT_EQ(c.algorithm, Algorithm::radix);
  EXPECT_EQ(c.renderer, RendererKind::raster);
  EXPECT_EQ(c.key_mode, KeyMode::exact);
  EXPECT_EQ(c.key_bits, kDefaultKeyBits);
  EXPECT_EQ(c.order, DrawOrder::exact);
  EXPECT_EQ(c.order_period, kDefaultOrderPeriod);
  EXPECT_FALSE(c.compare);
  EXPECT_EQ(c.compare_mode, CompareMode::split);
  EXPECT_TRUE(c.fuse_stages);
  EXPECT_EQ(c.stage_sample_period, kDefaultStageSamplePeriod);
}

// Choices that do not apply are cleared, so two choices that draw the same frames are equal.
TEST(FrameChoices, ApplicableOnlyClearsWhatDoesNotApply) {
  FrameChoices c;
  c.key_bits = 12;
  c.order_period = 3;
  c.compare_mode = CompareMode::heat;
  const FrameChoices cleared = applicable_only(c);
  EXPECT_EQ(cleared.key_bits, 0);
  EXPECT_EQ(cleared.order_period, 0);
  EXPECT_EQ(cleared.compare_mode, CompareMode::split);
  EXPECT_EQ(cleared, applicable_only(FrameChoices{}));
  EXPECT_EQ(applicable_only(cleared), cleared);

  // Where they apply, they are kept.
  c.key_mode = KeyMode::quantized;
  c.order = DrawOrder::stale;
  c.compare = true;
  EXPECT_EQ(applicable_only(c), c);

  // What always applies is never cleared.
  FrameChoices other;
  other.algorithm = Algorithm::automatic;
  other.renderer = RendererKind::composite;
  other.fuse_stages = false;
  other.stage_sample_period = 1;
  EXPECT_EQ(applicable_only(other).algorithm, Algorithm::automatic);
  EXPECT_EQ(applicable_only(other).renderer, RendererKind::composite);
  EXPECT_FALSE(applicable_only(other).fuse_stages);
  EXPECT_EQ(applicable_only(other).stage_sample_period, 1);
}

// The backend's settings carry every choice it runs, and by default are FrameSettings' own.
TEST(FrameChoices, SettingsCarryTheChoices) {
  const FrameSettings defaults = settings_of(FrameChoices{});
  const FrameSettings plain;
  EXPECT_EQ(defaults.algorithm, plain.algorithm);
  EXPECT_EQ(defaults.key_mode, plain.key_mode);
  EXPECT_EQ(defaults.key_bits, plain.key_bits);
  EXPECT_EQ(defaults.order, plain.order);
  EXPECT_EQ(defaults.order_period, plain.order_period);
  EXPECT_EQ(defaults.compare_order, plain.compare_order);
  EXPECT_EQ(defaults.compare_mode, plain.compare_mode);
  EXPECT_EQ(defaults.fuse_stages, plain.fuse_stages);
  EXPECT_EQ(defaults.stage_sample_period, plain.stage_sample_period);

  FrameChoices c;
  c.algorithm = Algorithm::quicksort;
  c.key_mode = KeyMode::quantized;
  c.key_bits = 10;
  c.order = DrawOrder::stale;
  c.order_period = 5;
  c.compare = true;
  c.compare_mode = CompareMode::heat;
  c.fuse_stages = false;
  c.stage_sample_period = 1;
  const FrameSettings s = settings_of(c);
  EXPECT_EQ(s.algorithm, Algorithm::quicksort);
  EXPECT_EQ(s.key_mode, KeyMode::quantized);
  EXPECT_EQ(s.key_bits, 10);
  EXPECT_EQ(s.order, DrawOrder::stale);
  EXPECT_EQ(s.order_period, 5);
  EXPECT_TRUE(s.compare_order);
  EXPECT_EQ(s.compare_mode, CompareMode::heat);
  EXPECT_FALSE(s.fuse_stages);
  EXPECT_EQ(s.stage_sample_period, 1);
}

}  // namespace
}  // namespace particles
