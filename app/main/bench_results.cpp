#include "app/main/bench_results.hpp"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "core/output_file.hpp"

namespace particles {
namespace {

template <typename Get>
Summary summarize_frames(const std::vector<BenchFrame>& frames, Get get) {
  std::vector<double> values;
  values.reserve(frames.size());
  for (const BenchFrame& f : frames) {
    const float v = get(f);
    if (v >= 0.0f) values.push_back(v);
  }
  return summarize(std::move(values));
}

nlohmann::json summary_json(const Summary& s) {
  return {{"median_ms", s.median}, {"p99_ms", s.p99},      {"min_ms", s.min}, {"max_ms", s.max},
          {"mean_ms", s.mean},     {"samples", s.samples}, {"p10_ms", s.p10}, {"p90_ms", s.p90}};
}

// Whether two runs measure the same frames apart from the algorithm.
bool same_setting(const BenchRun& a, const BenchRun& b) {
  return a.scene == b.scene && a.backend == b.backend && a.key_mode == b.key_mode &&
         a.renderer == b.renderer && a.order == b.order && a.order_period == b.order_period &&
         a.count == b.count && a.fused_stages == b.fused_stages && a.stage_every == b.stage_every;
}

// A CSV field as RFC 4180 has it: quoted, with quotes doubled, only where it needs to be (a
// scene's name is free text).
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string quoted = "\"";
  for (char c : s) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

std::string radix_comparison_table(const BenchResults& results,
                                   const std::vector<SpanAgainstRadix>& ratios) {
  std::ostringstream t;
  t << "\nSpan medians in microseconds against radix's (same scene, backend, keys, renderer, "
       "count and stage settings):\n\n"
       "| scene | backend | algorithm | keys | renderer | count | span | radix span | x radix |\n"
       "|---|---|---|---|---|---:|---:|---:|---:|\n";
  char cell[96];
  for (const SpanAgainstRadix& r : ratios) {
    const BenchRun& run = results.runs[r.run];
    std::snprintf(cell, sizeof cell, "%.1f | %.1f | %.3f", 1000.0 * r.span_ms,
                  1000.0 * r.radix_span_ms, r.ratio);
    t << "| " << run.scene << " | " << run.backend << " | " << run.algorithm << " | "
      << run.key_mode << " | " << run.renderer << " | " << run.count << " | " << cell << " |\n";
  }
  return t.str();
}

}  // namespace

std::string sort_paths_cell(const BenchRun& run) {
  // Paths in the order they first ran, each with its frame count.
  std::vector<std::pair<SortPath, std::size_t>> counts;
  for (const BenchFrame& f : run.frames) {
    auto it = std::find_if(counts.begin(), counts.end(),
                           [&](const auto& c) { return c.first == f.path; });
    if (it == counts.end()) {
      counts.emplace_back(f.path, 1);
    } else {
      ++it->second;
    }
  }
  if (counts.size() == 1) return to_string(counts.front().first);
  std::string cell;
  for (const auto& [path, frames] : counts) {
    if (!cell.empty()) cell += ", ";
    cell += std::string(to_string(path)) + ' ' + std::to_string(frames);
  }
  return cell.empty() ? "n/a" : cell;
}

std::vector<SpanAgainstRadix> spans_against_radix(const BenchResults& results) {
  constexpr std::string_view radix_name = to_string(Algorithm::radix);
  // Each run's span median once: a run may be compared with several.
  std::vector<double> span(results.runs.size());
  for (std::size_t i = 0; i < results.runs.size(); ++i) span[i] = results.runs[i].span().median;
  std::vector<SpanAgainstRadix> ratios;
  for (std::size_t i = 0; i < results.runs.size(); ++i) {
    const BenchRun& run = results.runs[i];
    if (run.algorithm == radix_name || span[i] <= 0.0) continue;
    for (std::size_t j = 0; j < results.runs.size(); ++j) {
      const BenchRun& radix = results.runs[j];
      if (radix.algorithm != radix_name || !same_setting(run, radix)) continue;
      if (span[j] > 0.0) ratios.push_back({i, j, span[i], span[j], span[i] / span[j]});
      break;
    }
  }
  return ratios;
}

std::optional<SpanAgainstRadix> worst_auto_against_radix(const BenchResults& results) {
  std::optional<SpanAgainstRadix> worst;
  for (const SpanAgainstRadix& r : spans_against_radix(results)) {
    if (results.runs[r.run].algorithm != to_string(Algorithm::automatic)) continue;
    if (!worst || r.ratio > worst->ratio) worst = r;
  }
  return worst;
}

std::string worst_auto_line(const BenchResults& results) {
  const std::optional<SpanAgainstRadix> worst = worst_auto_against_radix(results);
  if (!worst) return "";
  const BenchRun& run = results.runs[worst->run];
  char ratio[32];
  std::snprintf(ratio, sizeof ratio, "%.3fx", worst->ratio);
  return "worst auto / radix: " + std::string(ratio) + " (" + run.scene + ", " +
         std::to_string(run.count) + " particles, " + run.key_mode + " keys, " + run.renderer +
         ", " + run.backend + ")";
}

Summary BenchRun::stage(int s) const {
  return summarize_frames(frames, [s](const BenchFrame& f) { return f.stage_ms[s]; });
}
Summary BenchRun::span() const {
  return summarize_frames(frames, [](const BenchFrame& f) { return f.span_ms; });
}
Summary BenchRun::draw() const {
  return summarize_frames(frames, [](const BenchFrame& f) { return f.draw_ms; });
}
Summary BenchRun::composite() const {
  return summarize_frames(frames, [](const BenchFrame& f) { return f.composite_ms; });
}
Summary BenchRun::present() const {
  return summarize_frames(frames, [](const BenchFrame& f) { return f.present_ms; });
}
Summary BenchRun::frame() const {
  return summarize_frames(frames, [](const BenchFrame& f) { return f.frame_ms; });
}
Summary BenchRun::descents() const {
  return summarize_frames(frames, [](const BenchFrame& f) {
    return f.order_error >= 0.0f ? 100.0f * f.order_error : -1.0f;
  });
}
Summary BenchRun::pixels_off() const {
  return summarize_frames(frames, [](const BenchFrame& f) { return f.pixels_off; });
}
Summary BenchRun::psnr() const {
  return summarize_frames(frames, [](const BenchFrame& f) { return f.psnr_db; });
}

void write_bench_csv(const std::filesystem::path& file, const BenchResults& results) {
  std::ostringstream out;
  out << "run,scene,backend,algorithm,key_mode,order,renderer,count,frame";
  for (int s = 0; s < kStageCount; ++s) out << ',' << to_string(static_cast<Stage>(s)) << "_ms";
  // descents_pct: % of adjacent pairs out of exact order; pixels_off_pct: % of lit pixels whose
  // image differs visibly from the exact order's (core/pixels_off.hpp), psnr_db its PSNR against
  // it (inf: the same image); -1 where not measured.
  out << ",span_ms,composite_ms,draw_ms,present_ms,frame_ms,sort_path,verified,descents_pct,"
         "pixels_off_pct,psnr_db\n";
  for (std::size_t r = 0; r < results.runs.size(); ++r) {
    const BenchRun& run = results.runs[r];
    for (std::size_t i = 0; i < run.frames.size(); ++i) {
      const BenchFrame& f = run.frames[i];
      out << r << ',' << csv_field(run.scene) << ',' << run.backend << ',' << run.algorithm << ','
          << run.key_mode << ',' << run.order << ',' << run.renderer << ',' << run.count << ','
          << i;
      for (float v : f.stage_ms) out << ',' << v;
      out << ',' << f.span_ms << ',' << f.composite_ms << ',' << f.draw_ms << ',' << f.present_ms
          << ',' << f.frame_ms << ',' << to_string(f.path) << ',' << (f.verified ? 1 : 0) << ','
          << (f.order_error >= 0.0f ? 100.0f * f.order_error : -1.0f) << ',' << f.pixels_off << ','
          << f.psnr_db << '\n';
    }
  }
  write_file_atomically(file, out.str());
}

void write_bench_json(const std::filesystem::path& file, const BenchResults& results) {
  nlohmann::json root;
  root["date"] = results.date;
  root["command"] = results.command;
  root["gl_renderer"] = results.gl_renderer;
  root["verify"] = results.verify;
  root["runs"] = nlohmann::json::array();
  const std::vector<SpanAgainstRadix> ratios = spans_against_radix(results);
  for (std::size_t r = 0; r < results.runs.size(); ++r) {
    const BenchRun& run = results.runs[r];
    nlohmann::json j;
    j["scene"] = run.scene;
    j["backend"] = run.backend;
    j["algorithm"] = run.algorithm;
    j["key_mode"] = run.key_mode;
    j["renderer"] = run.renderer;
    j["order"] = run.order;
    if (run.order == to_string(DrawOrder::stale)) j["order_period"] = run.order_period;
    j["count"] = run.count;
    j["fused_stages"] = run.fused_stages;
    j["stage_every"] = run.stage_every;
    j["frames"] = run.frames.size();
    nlohmann::json stages;
    for (int s = 0; s < kStageCount; ++s) {
      nlohmann::json stage = summary_json(run.stage(s));
      if (run.in_simulate[static_cast<std::size_t>(s)]) stage["in_simulate"] = true;
      stages[to_string(static_cast<Stage>(s))] = stage;
    }
    j["stages"] = stages;
    j["span"] = summary_json(run.span());
    for (const SpanAgainstRadix& ratio : ratios) {
      if (ratio.run == r) j["span_vs_radix"] = ratio.ratio;
    }
    j["composite"] = summary_json(run.composite());
    j["draw"] = summary_json(run.draw());
    j["present"] = summary_json(run.present());
    j["frame"] = summary_json(run.frame());
    auto percent_json = [](const Summary& e) {
      return nlohmann::json{{"median", e.median}, {"p99", e.p99},   {"min", e.min},
                            {"max", e.max},       {"mean", e.mean}, {"samples", e.samples}};
    };
    if (const Summary e = run.descents(); e.samples > 0) j["order_descents_pct"] = percent_json(e);
    if (const Summary e = run.pixels_off(); e.samples > 0) {
      j["order_pixels_off_pct"] = percent_json(e);
    }
    // Lower is worse: the median and the worst frame (null where the images were the same).
    if (const Summary e = run.psnr(); e.samples > 0) {
      j["image_psnr_db"] = nlohmann::json{{"median", e.median}, {"min", e.min}};
    }
    std::uint64_t verified = 0;
    nlohmann::json paths = nlohmann::json::object();
    for (const BenchFrame& f : run.frames) {
      verified += f.verified ? 1 : 0;
      paths[to_string(f.path)] = paths.value(to_string(f.path), 0) + 1;
    }
    j["sort_paths"] = paths;
    j["verified_frames"] = verified;
    j["verify_failures"] = run.verify_failures;
    if (!run.first_failure.empty()) j["first_failure"] = run.first_failure;
    root["runs"].push_back(j);
  }
  // Where auto costs the most against radix over the whole matrix (null without such a pair).
  if (const std::optional<SpanAgainstRadix> worst = worst_auto_against_radix(results)) {
    const BenchRun& run = results.runs[worst->run];
    root["worst_auto_vs_radix"] = {
        {"ratio", worst->ratio},     {"scene", run.scene},
        {"count", run.count},        {"key_mode", run.key_mode},
        {"renderer", run.renderer},  {"backend", run.backend},
        {"span_ms", worst->span_ms}, {"radix_span_ms", worst->radix_span_ms},
        {"run", worst->run},         {"radix_run", worst->radix_run}};
  } else {
    root["worst_auto_vs_radix"] = nullptr;
  }
  write_file_atomically(file, root.dump(2) + '\n');
}

std::string bench_table(const BenchResults& results) {
  std::ostringstream t;
  t << "| scene | backend | algorithm | sort path | key mode | draw order | renderer | count |";
  for (int s = 0; s < kStageCount; ++s) t << ' ' << to_string(static_cast<Stage>(s)) << " |";
  t << " stages total | span | composite | draw | present | frame | descents % | pixels off | "
       "PSNR dB | verified |\n"
       "|---|---|---|---|---|---|---|---:|";
  for (int s = 0; s < kStageCount + 10; ++s) t << "---:|";
  t << '\n';
  char cell[64];
  auto both = [&](const Summary& s) {
    if (s.samples == 0) return std::string("n/a");
    std::snprintf(cell, sizeof cell, "%.3f / %.3f", s.median, s.p99);
    return std::string(cell);
  };
  for (const BenchRun& run : results.runs) {
    t << "| " << run.scene << " | " << run.backend << " | " << run.algorithm << " | "
      << sort_paths_cell(run) << " | " << run.key_mode << " | " << run.order << " | "
      << run.renderer << " | " << run.count << " |";
    double total = 0.0;
    for (int s = 0; s < kStageCount; ++s) {
      const Summary sum = run.stage(s);
      total += sum.median;
      t << ' ' << (run.in_simulate[static_cast<std::size_t>(s)] ? kInSimulateText : both(sum))
        << " |";
    }
    std::snprintf(cell, sizeof cell, "%.3f", total);
    t << ' ' << cell << " | " << both(run.span()) << " | " << both(run.composite()) << " | "
      << both(run.draw()) << " | " << both(run.present()) << " | " << both(run.frame()) << " | ";
    const bool exactly_sorted = run.order == to_string(DrawOrder::exact) && run.key_mode == "exact";
    for (const Summary& e : {run.descents(), run.pixels_off()}) {
      if (e.samples > 0) {
        std::snprintf(cell, sizeof cell, "%.2f%% / %.2f%%", e.median, e.p99);
        t << cell;
      } else {
        t << (exactly_sorted ? "0" : "n/a");
      }
      t << " | ";
    }
    if (const Summary p = run.psnr(); p.samples > 0) {
      std::snprintf(cell, sizeof cell, "%.1f / %.1f", p.median, p.min);
      t << cell;
    } else {
      t << (exactly_sorted ? "inf" : "n/a");
    }
    t << " | ";
    if (!results.verify) {
      t << "off";
    } else if (run.order != to_string(DrawOrder::exact)) {
      t << "not checked";
    } else if (run.verify_failures == 0) {
      t << "all " << run.frames.size();
    } else {
      t << run.verify_failures << " FAILED";
    }
    t << " |\n";
  }
  t << "\nsort path is what sorted the run's frames, with frame counts where it varied (auto's "
       "paths; on the CPU backend each algorithm's own CPU implementation, std::stable_sort "
       "standing in for CUB; on CUDA a fixed algorithm's frames read 'as selected').\n"
       "\nCells are median / p99 in milliseconds, n/a where the run has no such time. stages "
       "total is the sum of stage medians, from the frames that timed their stages; span is the "
       "pipeline's whole time, from the frames that timed it alone (on the CUDA backend every "
       "stage boundary timed slows the frame). A stage reads in simulate where its work ran in "
       "simulate's pass and is timed there (the CPU backend's extents, and keys of exact view "
       "depth). composite is the tile compositor, draw GL's "
       "rasterization of the particles, present GL putting the frame's image on screen; frame is "
       "the CPU wall time of the whole frame. descents % is the % of the drawn order's adjacent "
       "pairs that exact view-depth keys put the other way round; pixels off is the % of lit "
       "pixels whose image differs by more than 8/255 from the exact order's image of the same "
       "frame, what a viewer sees (measured after the frame, outside its time, on either backend). "
       "Both are median / p99, measured for the approximate orders and the sort-free renderers "
       "(exact keys sorted exactly: 0). PSNR dB is the whole image's peak signal-to-noise ratio "
       "against the same exact image, median / worst frame (inf: the same image). The exact image "
       "is always the tile compositor's; a sort-free renderer is compared as it draws. Only the "
       "exact order is verified.\n";
  const std::vector<SpanAgainstRadix> ratios = spans_against_radix(results);
  if (!ratios.empty()) t << radix_comparison_table(results, ratios);
  if (const std::string worst = worst_auto_line(results); !worst.empty())
    t << '\n' << worst << '\n';
  return t.str();
}

}  // namespace particles
