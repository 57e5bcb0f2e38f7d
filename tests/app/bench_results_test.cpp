// The bench's files from runs made up here: each run's span against radix's
// (spans_against_radix) in the table and the JSON, the renderer and its times in the CSV, JSON
// and table, and the SVG chart.
#include "app/main/bench_results.hpp"
#include "core/file_bytes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

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

TEST(BenchSpanAgainstRadix, OnlyRunsOfTheSameRendererArePaired) {
  BenchResults r = sample_results();
  r.runs[1].renderer = "composite";  // the only radix run at 1M exact composites: no pair left
  EXPECT_TRUE(spans_against_radix(r).empty());

  // A composite radix run ahead of the raster one: each auto run pairs with its own renderer's.
  r = BenchResults{};
  r.runs.push_back(run_with_span("radix", "exact", 1048576, 0.2000f));  // 0: composite
  r.runs.push_back(run_with_span("radix", "exact", 1048576, 0.1000f));  // 1: raster
  r.runs.push_back(run_with_span("auto", "exact", 1048576, 0.0500f));   // 2: raster
  r.runs.push_back(run_with_span("auto", "exact", 1048576, 0.0600f));   // 3: composite
  r.runs[0].renderer = r.runs[3].renderer = "composite";
  const std::vector<SpanAgainstRadix> ratios = spans_against_radix(r);
  ASSERT_EQ(ratios.size(), 2u);
  EXPECT_EQ(ratios[0].run, 2u);
  EXPECT_EQ(ratios[0].radix_run, 1u);
  EXPECT_NEAR(ratios[0].ratio, 0.5, 1e-6);
  EXPECT_EQ(ratios[1].run, 3u);
  EXPECT_EQ(ratios[1].radix_run, 0u);
  EXPECT_NEAR(ratios[1].ratio, 0.3, 1e-6);
  const std::string table = bench_table(r);
  EXPECT_NE(table.find("| auto | exact | raster | 1048576 | 50.0 | 100.0 | 0.500 |"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("| auto | exact | composite | 1048576 | 60.0 | 200.0 | 0.300 |"),
            std::string::npos)
      << table;
}

TEST(BenchSpanAgainstRadix, TableListsMicrosecondsAndRatio) {
  const std::string table = bench_table(sample_results());
  EXPECT_NE(table.find("| scene | backend | algorithm | keys | renderer | count | span | radix "
                       "span | x radix |"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find(
                "| Spiral galaxy | cuda | auto | exact | raster | 1048576 | 48.6 | 94.0 | 0.517 |"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find(
                "| Spiral galaxy | cuda | cub | exact | raster | 1048576 | 110.8 | 94.0 | 1.179 |"),
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

// Two runs at 16M on the CUDA backend, one per renderer: GL's draw takes 400x the compositor.
BenchResults renderer_results() {
  BenchResults r;
  r.gl_renderer = "NVIDIA H200/PCIe/SSE2 & <friends>";
  r.date = "2025-01-02T03:04:05Z";
  BenchRun raster = run_with_span("radix", "exact", 16777216, 0.9f, 5);
  raster.scene = "Rock & <roll> \"galaxy\"";
  for (BenchFrame& f : raster.frames) {
    f.stage_ms = {0.25f, 0.05f, 0.1f, 0.4f, 0.1f};
    f.draw_ms = 65.0f;
    f.frame_ms = 66.5f;
  }
  BenchRun composite = raster;
  composite.renderer = "composite";
  for (BenchFrame& f : composite.frames) {
    f.draw_ms = -1.0f;
    f.composite_ms = 0.15f;
    f.present_ms = 0.02f;
    f.frame_ms = 1.25f;
  }
  composite.frames[4].present_ms = -1.0f;  // one frame's present timer never arrived
  r.runs = {raster, composite};
  return r;
}

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.push_back(field);
      field.clear();
    } else {
      field += c;
    }
  }
  fields.push_back(field);
  return fields;
}

std::string read_all(const std::filesystem::path& file) {
  return file_bytes(file).value_or("");
}

TEST(BenchRendererResults, CsvHasRendererCompositeAndPresentColumns) {
  const auto file = std::filesystem::temp_directory_path() / "particles-bench-renderer/frames.csv";
  write_bench_csv(file, renderer_results());
  std::ifstream in(file);
  std::string header;
  ASSERT_TRUE(std::getline(in, header));
  EXPECT_EQ(header,
            "run,scene,backend,algorithm,key_mode,order,renderer,count,frame,simulate_ms,"
            "extents_ms,keys_ms,sort_ms,order_ms,span_ms,composite_ms,draw_ms,present_ms,frame_ms,"
            "sort_path,verified,descents_pct,pixels_off_pct,psnr_db");
  const std::vector<std::string> names = split_csv_line(header);
  auto column = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
  };
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(in, line);) rows.push_back(split_csv_line(line));
  ASSERT_EQ(rows.size(), 10u);
  for (const auto& row : rows) ASSERT_EQ(row.size(), names.size());
  // The scene's name has quotes and no comma: quoted all the same, and read back whole.
  EXPECT_EQ(rows[0][column("scene")], "Rock & <roll> \"galaxy\"");
  EXPECT_EQ(rows[0][column("renderer")], "raster");
  EXPECT_EQ(rows[0][column("draw_ms")], "65");
  EXPECT_EQ(rows[0][column("composite_ms")], "-1");
  EXPECT_EQ(rows[0][column("present_ms")], "-1");
  EXPECT_EQ(rows[5][column("run")], "1");
  EXPECT_EQ(rows[5][column("renderer")], "composite");
  EXPECT_EQ(rows[5][column("draw_ms")], "-1");
  EXPECT_EQ(rows[5][column("composite_ms")], "0.15");
  EXPECT_EQ(rows[5][column("present_ms")], "0.02");
  EXPECT_EQ(rows[9][column("present_ms")], "-1");
  EXPECT_EQ(rows[9][column("frame_ms")], "1.25");
}

TEST(BenchRendererResults, JsonHasRendererCompositeAndPresent) {
  const auto file =
      std::filesystem::temp_directory_path() / "particles-bench-renderer/summary.json";
  write_bench_json(file, renderer_results());
  std::ifstream in(file);
  ASSERT_TRUE(in);
  const nlohmann::json runs = nlohmann::json::parse(in).at("runs");
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].at("renderer"), "raster");
  EXPECT_EQ(runs[0].at("composite").at("samples"), 0);
  EXPECT_EQ(runs[0].at("present").at("samples"), 0);
  EXPECT_EQ(runs[0].at("draw").at("samples"), 5);
  EXPECT_NEAR(runs[0].at("draw").at("median_ms").get<double>(), 65.0, 1e-6);
  EXPECT_EQ(runs[1].at("renderer"), "composite");
  EXPECT_EQ(runs[1].at("draw").at("samples"), 0);
  EXPECT_EQ(runs[1].at("composite").at("samples"), 5);
  EXPECT_NEAR(runs[1].at("composite").at("median_ms").get<double>(), 0.15, 1e-6);
  EXPECT_EQ(runs[1].at("present").at("samples"), 4);
  EXPECT_NEAR(runs[1].at("present").at("median_ms").get<double>(), 0.02, 1e-6);
}

TEST(BenchRendererResults, TableHasRendererAndItsTimes) {
  const std::string table = bench_table(renderer_results());
  // Markdown needs as many cells in the separator line, and in each row, as in the header.
  std::istringstream lines(table);
  std::string header, separator, row;
  ASSERT_TRUE(std::getline(lines, header) && std::getline(lines, separator) &&
              std::getline(lines, row));
  const auto bars = [](const std::string& line) {
    return std::count(line.begin(), line.end(), '|');
  };
  EXPECT_EQ(bars(separator), bars(header)) << table;
  EXPECT_EQ(bars(row), bars(header)) << table;
  EXPECT_NE(
      table.find("| scene | backend | algorithm | sort path | key mode | draw order | renderer | "
                 "count | simulate |"),
      std::string::npos)
      << table;
  EXPECT_NE(table.find("| stages total | span | composite | draw | present | frame | descents % "
                       "| pixels off | PSNR dB | verified |"),
            std::string::npos)
      << table;
  // Raster: no composite, a draw, no present.
  EXPECT_NE(table.find("| exact | raster | 16777216 |"), std::string::npos) << table;
  EXPECT_NE(table.find("| 0.900 | 0.900 / 0.900 | n/a | 65.000 / 65.000 | n/a | 66.500 / 66.500 |"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("| 0.900 | 0.900 / 0.900 | 0.150 / 0.150 | n/a | 0.020 / 0.020 | 1.250 / "
                       "1.250 |"),
            std::string::npos)
      << table;
}

// Checks `xml` is one well-formed element tree as far as a chart needs: every tag closed in
// order, attribute values quoted, every '&' starting an entity; returns what is wrong, or "".
std::string xml_problem(const std::string& xml) {
  std::vector<std::string> open;
  std::size_t i = 0;
  while (i < xml.size()) {
    if (xml[i] == '&') {
      const std::size_t semi = xml.find(';', i);
      const std::string entity = semi == std::string::npos ? "" : xml.substr(i, semi - i + 1);
      if (entity != "&amp;" && entity != "&lt;" && entity != "&gt;" && entity != "&quot;" &&
          entity != "&apos;") {
        return "bare '&' at " + std::to_string(i);
      }
      i = semi + 1;
      continue;
    }
    if (xml[i] == '>') return "bare '>' at " + std::to_string(i);
    if (xml[i] != '<') {
      ++i;
      continue;
    }
    if (xml.compare(i, 4, "<!--") == 0) {
      const std::size_t end = xml.find("-->", i);
      if (end == std::string::npos) return "unclosed comment";
      i = end + 3;
      continue;
    }
    // A tag: the name, then attributes whose quoted values may hold no '<'.
    std::size_t j = i + 1;
    const bool closing = j < xml.size() && xml[j] == '/';
    if (closing) ++j;
    const std::size_t name_end = xml.find_first_of(" \t\n/>", j);
    if (name_end == std::string::npos || name_end == j) return "bad tag at " + std::to_string(i);
    const std::string name = xml.substr(j, name_end - j);
    j = name_end;
    char quote = 0;
    for (; j < xml.size(); ++j) {
      const char c = xml[j];
      if (quote) {
        if (c == quote) quote = 0;
        if (c == '<') return "'<' in an attribute of <" + name + ">";
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '>') {
        break;
      }
    }
    if (j == xml.size()) return "unterminated <" + name + ">";
    const bool self_closing = xml[j - 1] == '/';
    if (closing) {
      if (open.empty() || open.back() != name) return "</" + name + "> closes nothing open";
      open.pop_back();
      if (open.empty() && xml.find('<', j) != std::string::npos) return "content after the root";
    } else if (!self_closing) {
      open.push_back(name);
    }
    i = j + 1;
  }
  return open.empty() ? "" : "<" + open.back() + "> never closed";
}

// The table's row names what sorted the run's frames: one path alone, or each with its frames.
TEST(BenchRendererResults, TableRowNamesTheSortPathThatRan) {
  BenchRun run = run_with_span("cub", "exact", 65536, 0.9f, 3);
  for (BenchFrame& f : run.frames) f.path = SortPath::library;
  EXPECT_EQ(sort_paths_cell(run), "std::stable_sort");
  run.frames[0].path = SortPath::insertion;
  run.frames[2].path = SortPath::radix;
  EXPECT_EQ(sort_paths_cell(run), "insertion 1, std::stable_sort 1, radix 1");
  BenchResults r;
  for (BenchFrame& f : run.frames) f.path = SortPath::quicksort;
  r.runs = {run};
  EXPECT_NE(bench_table(r).find("| cub | quicksort | exact |"), std::string::npos)
      << bench_table(r);
}

TEST(BenchChart, XmlCheckerCatchesTheUsualMistakes) {
  EXPECT_EQ(xml_problem("<svg><g><rect x=\"1\"/></g></svg>"), "");
  EXPECT_NE(xml_problem("<svg><g></svg>"), "");
  EXPECT_NE(xml_problem("<svg><text>a & b</text></svg>"), "");
  EXPECT_NE(xml_problem("<svg><text>a < b</text></svg>"), "");
  EXPECT_NE(xml_problem("<svg><text>a</title></svg>"), "");
}

TEST(BenchChart, IsWellFormedSvgWithEscapedLabelsAndValues) {
  const auto file = std::filesystem::temp_directory_path() / "particles-bench-chart/chart.svg";
  std::filesystem::remove(file);
  write_bench_chart(file, renderer_results());
  const std::string svg = read_all(file);
  ASSERT_EQ(svg.rfind("<svg", 0), 0u) << svg.substr(0, 200);
  EXPECT_NE(svg.find("xmlns=\"http://www.w3.org/2000/svg\""), std::string::npos);
  EXPECT_EQ(xml_problem(svg), "") << svg;
  // Each run's label, its characters escaped, and the title's date and GL renderer.
  EXPECT_NE(svg.find("Rock &amp; &lt;roll&gt; &quot;galaxy&quot; / 16777216 / exact / radix / "
                     "raster"),
            std::string::npos)
      << svg;
  EXPECT_NE(svg.find("/ radix / composite"), std::string::npos) << svg;
  EXPECT_NE(svg.find("2025-01-02T03:04:05Z"), std::string::npos) << svg;
  EXPECT_NE(svg.find("NVIDIA H200/PCIe/SSE2 &amp; &lt;friends&gt;"), std::string::npos) << svg;
  // The legend has what the runs have, the span only where no stage was timed.
  for (const char* series :
       {">simulate<", ">sort<", ">composite<", ">draw<", ">present<", ">frame (CPU wall)<"}) {
    EXPECT_NE(svg.find(series), std::string::npos) << series;
  }
  EXPECT_EQ(svg.find(">span<"), std::string::npos);
  // 400x apart on a linear axis: the composite run's values are printed beside its bar.
  // The rest of each frame is stacked as "other", so the bar is the whole frame.
  EXPECT_NE(
      svg.find("composite 0.150 + present 0.020 + other (host, present wait) 0.180 = 1.25 ms; "
               "frame 1.25 ms, p10-p90 1.25-1.25 ms"),
      std::string::npos)
      << svg;
  EXPECT_NE(svg.find("draw 65.0 + other (host, present wait) 0.600 = 66.5 ms; frame 66.5 ms"),
            std::string::npos)
      << svg;
}

TEST(BenchChart, RunsWithoutStagesStackTheirSpan) {
  BenchResults r;
  r.runs.push_back(run_with_span("auto", "exact", 1048576, 0.0486f));
  const auto file = std::filesystem::temp_directory_path() / "particles-bench-chart/span.svg";
  write_bench_chart(file, r);
  const std::string svg = read_all(file);
  EXPECT_EQ(xml_problem(svg), "") << svg;
  EXPECT_NE(svg.find(">span<"), std::string::npos) << svg;
  EXPECT_NE(svg.find("span 0.049 + other (host, present wait) 0.951 = 1.00 ms; frame 1.00 ms"),
            std::string::npos)
      << svg;
}

// Every bar carries its frame's spread, p10 to p90, as a whisker with its numbers; parts that
// exceed the frame (GPU work beside the host's) get no "other" and say by how much.
TEST(BenchChart, BarsShowTheFramesSpreadAndAccountForTheWholeFrame) {
  BenchResults r;
  BenchRun noisy = run_with_span("radix", "exact", 65536, 0.5f, 10);
  for (int i = 0; i < 10; ++i)
    noisy.frames[static_cast<std::size_t>(i)].frame_ms = 1.0f + static_cast<float>(i);
  BenchRun overlapping = run_with_span("cub", "exact", 65536, 3.0f, 4);  // span > frame (1 ms)
  r.runs = {noisy, overlapping};
  const auto file = std::filesystem::temp_directory_path() / "particles-bench-chart/spread.svg";
  write_bench_chart(file, r);
  const std::string svg = read_all(file);
  EXPECT_EQ(xml_problem(svg), "") << svg;
  // Frames of 1..10 ms: p10 2, median 6 (nearest rank), p90 9.
  EXPECT_NE(svg.find("span 0.500 + other (host, present wait) 5.50 = 6.00 ms; frame 6.00 ms, "
                     "p10-p90 2.00-9.00 ms"),
            std::string::npos)
      << svg;
  EXPECT_NE(svg.find("<title>frame p10-p90 2.00-9.00 ms</title>"), std::string::npos) << svg;
  EXPECT_NE(svg.find(">frame p10-p90<"), std::string::npos) << svg;  // in the legend
  EXPECT_NE(svg.find("span 3.00 = 3.00 ms; frame 1.00 ms, p10-p90 1.00-1.00 ms (the parts "
                     "overlap it by 2.00 ms)"),
            std::string::npos)
      << svg;
}

TEST(BenchChart, NoRunsIsStillAChart) {
  const auto file = std::filesystem::temp_directory_path() / "particles-bench-chart/empty.svg";
  write_bench_chart(file, BenchResults{});
  const std::string svg = read_all(file);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_EQ(xml_problem(svg), "") << svg;
}

TEST(BenchStagesInSimulate, TableSaysInSimulateWhereAStageRanInSimulatesPass) {
  BenchResults r;
  BenchRun run = run_with_span("radix", "exact", 65536, 0.5f);
  run.backend = "cpu";
  for (BenchFrame& f : run.frames) f.stage_ms = {0.3f, 0.0f, 0.0f, 0.2f, 0.0f};
  run.in_simulate[static_cast<std::size_t>(Stage::extents)] = true;
  run.in_simulate[static_cast<std::size_t>(Stage::keys)] = true;
  r.runs.push_back(run);
  const std::string table = bench_table(r);
  // simulate's and sort's times, extents and keys named for where they ran, order's measured 0.
  EXPECT_NE(table.find("| 0.300 / 0.300 | in simulate | in simulate | 0.200 / 0.200 | "
                       "0.000 / 0.000 |"),
            std::string::npos)
      << table;
}

}  // namespace
}  // namespace particles
