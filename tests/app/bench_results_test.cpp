// The bench's comparison of each run's span with radix's (spans_against_radix), in its table and
// its JSON, on runs made up here.
#include "app/main/bench_results.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace particles {
namespace {

// A run whose frames all have the given span; `frames` frames.
BenchRun run_with_span(const std::string& algorithm, const std::string& key_mode,
                       std::uint32_t count, float span_ms, int frames = 9) {
  BenchRun run;
  run.scene = "Spiral galaxy";
  run.backend = "cuda";
  run.algorithm = algorithm;
  run.key_mode = key_mode;
  run.count = count;
  run.stage_every = 8;
  for (int i = 0; i < frames; ++i) {
    BenchFrame f;
    f.span_ms = span_ms;
    f.frame_ms = 1.0f;
    run.frames.push_back(f);
  }
  return run;
}

BenchResults sample_results() {
  BenchResults r;
  r.runs.push_back(run_with_span("auto", "exact", 1048576, 0.0486f));      // 0: radix is later
  r.runs.push_back(run_with_span("radix", "exact", 1048576, 0.0940f));     // 1
  r.runs.push_back(run_with_span("cub", "exact", 1048576, 0.1108f));       // 2
  r.runs.push_back(run_with_span("auto", "quantized", 1048576, 0.0801f));  // 3: no radix run
  r.runs.push_back(run_with_span("auto", "exact", 2097152, 0.0930f));      // 4: no radix run
  r.runs.push_back(run_with_span("radix", "exact", 2097152, 0.0f, 0));     // 5: no span
  return r;
}

TEST(BenchSpanAgainstRadix, PairsEachRunWithTheRadixRunOfItsSetting) {
  const std::vector<SpanAgainstRadix> ratios = spans_against_radix(sample_results());
  ASSERT_EQ(ratios.size(), 2u);
  EXPECT_EQ(ratios[0].run, 0u);
  EXPECT_EQ(ratios[0].radix_run, 1u);
  EXPECT_NEAR(ratios[0].span_ms, 0.0486, 1e-6);
  EXPECT_NEAR(ratios[0].radix_span_ms, 0.0940, 1e-6);
  EXPECT_NEAR(ratios[0].ratio, 0.0486 / 0.0940, 1e-6);
  EXPECT_EQ(ratios[1].run, 2u);
  EXPECT_EQ(ratios[1].radix_run, 1u);
  EXPECT_NEAR(ratios[1].ratio, 0.1108 / 0.0940, 1e-6);
}

TEST(BenchSpanAgainstRadix, OtherStageSettingsAreNotCompared) {
  BenchResults r = sample_results();
  r.runs[1].fused_stages = false;  // radix run apart: auto and cub have nothing to compare with
  EXPECT_TRUE(spans_against_radix(r).empty());
  r = sample_results();
  r.runs[1].stage_every = 1;  // every frame of radix stage-timed: slower spans
  EXPECT_TRUE(spans_against_radix(r).empty());
}

TEST(BenchSpanAgainstRadix, TableListsMicrosecondsAndRatio) {
  const std::string table = bench_table(sample_results());
  EXPECT_NE(
      table.find("| scene | backend | algorithm | keys | count | span | radix span | x radix |"),
      std::string::npos)
      << table;
  EXPECT_NE(table.find("| Spiral galaxy | cuda | auto | exact | 1048576 | 48.6 | 94.0 | 0.517 |"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("| Spiral galaxy | cuda | cub | exact | 1048576 | 110.8 | 94.0 | 1.179 |"),
            std::string::npos)
      << table;
  EXPECT_EQ(table.find("| quantized | 1048576 | 80.1"), std::string::npos) << table;
}

TEST(BenchSpanAgainstRadix, TableHasNoComparisonWithoutRadix) {
  BenchResults r;
  r.runs.push_back(run_with_span("auto", "exact", 1048576, 0.0486f));
  EXPECT_EQ(bench_table(r).find("x radix"), std::string::npos);
}

TEST(BenchSpanAgainstRadix, JsonHasTheRatioOnlyWhereThereIsOne) {
  const auto file = std::filesystem::temp_directory_path() / "particles-bench-ratio/summary.json";
  write_bench_json(file, sample_results());
  std::ifstream in(file);
  ASSERT_TRUE(in);
  const nlohmann::json runs = nlohmann::json::parse(in).at("runs");
  ASSERT_EQ(runs.size(), 6u);
  EXPECT_NEAR(runs[0].at("span_vs_radix").get<double>(), 0.0486 / 0.0940, 1e-6);
  EXPECT_NEAR(runs[2].at("span_vs_radix").get<double>(), 0.1108 / 0.0940, 1e-6);
  for (int i : {1, 3, 4, 5}) EXPECT_FALSE(runs[i].contains("span_vs_radix")) << i;
}

}  // namespace
}  // namespace particles
