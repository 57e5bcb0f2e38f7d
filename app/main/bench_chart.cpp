// The bench chart, an SVG written as plain text so the bench needs no plotting library. One row
// per run, labelled scene / count / keys / algorithm / renderer, holds a stacked bar of the run's
// medians (the backend's stages, or its span where no stage was timed, then composite, draw,
// present, and "other": the rest of the median frame, so that the bar accounts for the whole
// frame, frame_shares.hpp) and under it a thin bar for the median whole frame (CPU wall time).
// A whisker across each bar's end spans the frame's p10 to p90: a difference between two runs
// smaller than their spread is noise, not a difference between algorithms.
//
// The axis is linear and every row prints its numbers. Runs differ by 100x and more (a raster
// draw of 16M sprites takes ~65 ms, the compositor 0.15 ms), which a log axis seems made for, but
// a stacked bar has no honest segments on a log axis: a segment's length would depend on what is
// stacked before it, and the first one would always look large. So lengths stay proportional to
// time, and a run too small to see is read from its text: its label line lists each segment's
// median and the total, the bar's end repeats the total, and each segment has a tooltip.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "app/main/bench_results.hpp"
#include "app/main/frame_shares.hpp"
#include "core/output_file.hpp"

namespace particles {
namespace {

// Okabe-Ito colours, distinct for colour-blind readers: the stages, then span, composite, draw;
// present takes Paul Tol's indigo, the whole frame a dark grey.
constexpr const char* kStageColors[kStageCount] = {"#0072B2", "#E69F00", "#009E73", "#D55E00",
                                                   "#CC79A7"};
constexpr const char* kSpanColor = "#999999";
constexpr const char* kCompositeColor = "#F0E442";
constexpr const char* kDrawColor = "#56B4E9";
constexpr const char* kPresentColor = "#332288";
constexpr const char* kFrameColor = "#444444";
constexpr const char* kOtherColor = "#E8E8E8";  // pale: time no measured part accounts for
constexpr const char* kFrameName = "frame (CPU wall)";

// Layout in SVG user units (pixels at 100%).
constexpr int kMargin = 24;
constexpr int kValueRoom = 90;  // right of the longest bar, for its total
constexpr int kRowHeight = 46;  // label line, stacked bar, frame bar, gap
constexpr int kBarHeight = 14;
constexpr int kFrameBarHeight = 5;
constexpr double kCharWidth = 7.0;  // a generous average for 12 px sans-serif, to size the chart

struct Segment {
  std::string name;
  const char* color;
  double ms;
};

// Text for XML content and attribute values: the five special characters as entities, and
// control characters (not allowed in XML 1.0) as spaces.
std::string escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += (static_cast<unsigned char>(c) < 0x20 && c != '\t') ? ' ' : c;
    }
  }
  return out;
}

// Milliseconds with three significant digits or more: 65.0, 1.23, 0.150; "<0.001" for what would
// print as a misleading 0.000.
std::string ms_text(double v) {
  if (v > 0.0 && v < 0.0005) return "<0.001";
  const int digits = v >= 100.0 ? 0 : v >= 10.0 ? 1 : v >= 1.0 ? 2 : 3;
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, v);
  return buffer;
}

// A coordinate with one decimal, enough at this size.
std::string num(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", v);
  return buffer;
}

// The stacked part of a run's bar, in order; segments without a median are left out.
std::vector<Segment> segments_of(const BenchRun& run) {
  std::vector<Segment> out;
  auto add = [&](std::string name, const char* color, const Summary& s) {
    if (s.samples > 0 && s.median > 0.0) out.push_back({std::move(name), color, s.median});
  };
  for (int s = 0; s < kStageCount; ++s) {
    add(to_string(static_cast<Stage>(s)), kStageColors[s], run.stage(s));
  }
  if (out.empty()) add("span", kSpanColor, run.span());
  add("composite", kCompositeColor, run.composite());
  add("draw", kDrawColor, run.draw());
  add("present", kPresentColor, run.present());
  // The rest of the median frame, so that the bar is the whole frame.
  std::vector<FramePart> parts;
  for (const Segment& s : out) parts.push_back({s.name, s.ms});
  const Summary frame = run.frame();
  if (frame.samples > 0) {
    const FrameShares shares = account_frame(frame.median, parts);
    if (shares.other_ms > 0.0) out.push_back({kOtherShareName, kOtherColor, shares.other_ms});
  }
  return out;
}

// A horizontal whisker from x0 to x1 with end caps, at height y; `title` its tooltip.
std::string whisker(double x0, double x1, double y, const std::string& title = "") {
  std::ostringstream w;
  w << "<g stroke=\"#000000\" stroke-width=\"1.5\">";
  if (!title.empty()) w << "<title>" << escape(title) << "</title>";
  w << "<line x1=\"" << num(x0) << "\" y1=\"" << num(y) << "\" x2=\"" << num(x1) << "\" y2=\""
    << num(y) << "\"/>";
  for (double x : {x0, x1}) {
    w << "<line x1=\"" << num(x) << "\" y1=\"" << num(y - 5) << "\" x2=\"" << num(x) << "\" y2=\""
      << num(y + 5) << "\"/>";
  }
  w << "</g>\n";
  return w.str();
}

// A step of 1, 2, 2.5 or 5 times a power of ten that divides [0, highest] into at most `ticks`.
double nice_step(double highest, int ticks) {
  const double raw = highest / ticks;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 2.5, 5.0}) {
    if (raw <= m * magnitude * (1.0 + 1e-9)) return m * magnitude;
  }
  return 10.0 * magnitude;
}

std::string run_label(const BenchRun& run) {
  return run.scene + " / " + std::to_string(run.count) + " / " + run.key_mode + " / " +
         run.algorithm + " / " + run.renderer;
}

std::string values_text(const std::vector<Segment>& segments, const Summary& frame) {
  std::string text;
  double total = 0.0;
  for (const Segment& s : segments) {
    text += (text.empty() ? "" : " + ") + s.name + ' ' + ms_text(s.ms);
    total += s.ms;
  }
  text = segments.empty() ? std::string("no stage, span or renderer times")
                          : text + " = " + ms_text(total) + " ms";
  if (frame.samples > 0) {
    text += "; frame " + ms_text(frame.median) + " ms, p10-p90 " + ms_text(frame.p10) + "-" +
            ms_text(frame.p90) + " ms";
    if (total > frame.median * (1.0 + 1e-9)) {
      text += " (the parts overlap it by " + ms_text(total - frame.median) + " ms)";
    }
  }
  return text;
}

// Each run's bar, frame summary, label and printed values, and what sizes the chart.
struct ChartRows {
  std::vector<std::vector<Segment>> bars;
  std::vector<Summary> frames;
  std::vector<std::string> labels, values;
  double highest = 0.0;
  std::size_t longest_line = 60;
};

ChartRows chart_rows(const BenchResults& results) {
  ChartRows rows;
  for (const BenchRun& run : results.runs) {
    rows.bars.push_back(segments_of(run));
    rows.frames.push_back(run.frame());
    double total = 0.0;
    for (const Segment& s : rows.bars.back()) total += s.ms;
    rows.highest =
        std::max({rows.highest, total, rows.frames.back().median, rows.frames.back().p90});
    rows.labels.push_back(run_label(run));
    rows.values.push_back(values_text(rows.bars.back(), rows.frames.back()));
    rows.longest_line =
        std::max(rows.longest_line, rows.labels.back().size() + 4 + rows.values.back().size());
  }
  return rows;
}

using Legend = std::vector<std::pair<std::string, const char*>>;

// Every series some run has, in stacking order, then the frame.
Legend legend_of(const std::vector<std::vector<Segment>>& bars) {
  Legend legend;
  auto used = [&](const std::string& name) {
    for (const auto& bar : bars) {
      for (const Segment& s : bar) {
        if (s.name == name) return true;
      }
    }
    return false;
  };
  for (int s = 0; s < kStageCount; ++s) {
    const std::string name = to_string(static_cast<Stage>(s));
    if (used(name)) legend.emplace_back(name, kStageColors[s]);
  }
  const std::pair<const char*, const char*> after_stages[] = {{"span", kSpanColor},
                                                              {"composite", kCompositeColor},
                                                              {"draw", kDrawColor},
                                                              {"present", kPresentColor},
                                                              {kOtherShareName, kOtherColor}};
  for (const auto& [name, color] : after_stages) {
    if (used(name)) legend.emplace_back(name, color);
  }
  legend.emplace_back(kFrameName, kFrameColor);
  legend.emplace_back("frame p10-p90", nullptr);  // the whisker
  return legend;
}

// Legend rows, wrapped to the chart's width; returns the last row's baseline.
int draw_legend(std::ostream& body, const Legend& legend, int width) {
  int legend_y = 70;
  double x = kMargin;
  for (const auto& [name, color] : legend) {
    const double item = 18 + kCharWidth * static_cast<double>(name.size()) + 18;
    if (x + item > width - kMargin && x > kMargin) {
      x = kMargin;
      legend_y += 20;
    }
    if (color != nullptr) {
      body << "<rect x=\"" << num(x) << "\" y=\"" << legend_y - 11
           << "\" width=\"12\" height=\"12\" fill=\"" << color << "\" stroke=\"#333333\" "
           << "stroke-width=\"0.5\"/>\n";
    } else {
      body << whisker(x, x + 12, legend_y - 5);
    }
    body << "<text x=\"" << num(x + 18) << "\" y=\"" << legend_y << "\">" << escape(name)
         << "</text>\n";
    x += item;
  }
  return legend_y;
}

// The plot's horizontal scale: milliseconds from zero to `max` across [left, right].
struct Axis {
  double left, right, max;
  double x_of(double ms) const { return left + (right - left) * ms / max; }
};

// Axis: zero to a round number above the longest bar, five or so gridlines.
Axis draw_axis(std::ostream& body, double highest, double plot_left, double plot_right,
               int plot_top, int plot_bottom) {
  const double step = nice_step(highest > 0.0 ? highest : 1.0, 5);
  const Axis axis{plot_left, plot_right,
                  step * std::ceil((highest > 0.0 ? highest : 1.0) / step - 1e-9)};
  const int tick_count = static_cast<int>(std::lround(axis.max / step));
  for (int i = 0; i <= tick_count; ++i) {
    const double tick = step * i;
    const double x = axis.x_of(tick);
    char tick_label[32];
    std::snprintf(tick_label, sizeof tick_label, "%g", tick);
    body << "<line x1=\"" << num(x) << "\" y1=\"" << plot_top << "\" x2=\"" << num(x) << "\" y2=\""
         << plot_bottom << "\" stroke=\"" << (i == 0 ? "#333333" : "#dddddd")
         << "\" stroke-width=\"1\"/>\n<text x=\"" << num(x) << "\" y=\"" << plot_bottom + 16
         << "\" text-anchor=\"middle\" font-size=\"11\">" << tick_label << "</text>\n";
  }
  body << "<line x1=\"" << num(plot_left) << "\" y1=\"" << plot_bottom << "\" x2=\""
       << num(plot_right) << "\" y2=\"" << plot_bottom << "\" stroke=\"#333333\"/>\n"
       << "<text x=\"" << num((plot_left + plot_right) / 2) << "\" y=\"" << plot_bottom + 36
       << "\" text-anchor=\"middle\">milliseconds, median per frame (linear axis; each row "
          "prints its values)</text>\n";
  return axis;
}

// Run r's row: its label and values, its stacked bar and total, its frame bar and whisker.
void draw_row(std::ostream& body, const ChartRows& rows, std::size_t r, const Axis& axis,
              int row_y) {
  const int bar_y = row_y + 20;
  const Summary& frame = rows.frames[r];
  body << "<g>\n<text x=\"" << num(axis.left + 4) << "\" y=\"" << row_y + 15
       << "\"><tspan font-weight=\"bold\">" << escape(rows.labels[r])
       << "</tspan><tspan dx=\"14\" fill=\"#444444\">" << escape(rows.values[r])
       << "</tspan></text>\n";
  double base = 0.0;
  for (const Segment& s : rows.bars[r]) {
    const double x0 = axis.x_of(base), x1 = axis.x_of(base + s.ms);
    body << "<rect x=\"" << num(x0) << "\" y=\"" << bar_y << "\" width=\""
         << num(std::max(x1 - x0, 0.0)) << "\" height=\"" << kBarHeight << "\" fill=\"" << s.color
         << "\"><title>" << escape(s.name + ' ' + ms_text(s.ms)) << " ms</title></rect>\n";
    base += s.ms;
  }
  if (!rows.bars[r].empty()) {
    body << "<text x=\"" << num(axis.x_of(base) + 6) << "\" y=\"" << bar_y + kBarHeight - 3
         << "\" font-size=\"11\">" << escape(ms_text(base)) << " ms</text>\n";
  }
  if (frame.samples > 0) {
    body << "<rect x=\"" << num(axis.left) << "\" y=\"" << bar_y + kBarHeight + 3 << "\" width=\""
         << num(axis.x_of(frame.median) - axis.left) << "\" height=\"" << kFrameBarHeight
         << "\" fill=\"" << kFrameColor << "\"><title>" << kFrameName << ' '
         << escape(ms_text(frame.median)) << " ms</title></rect>\n";
    body << whisker(axis.x_of(frame.p10), axis.x_of(frame.p90), bar_y + kBarHeight / 2.0,
                    "frame p10-p90 " + ms_text(frame.p10) + "-" + ms_text(frame.p90) + " ms");
  }
  body << "</g>\n";
}

}  // namespace

void write_bench_chart(const std::filesystem::path& file, const BenchResults& results) {
  const std::size_t runs = results.runs.size();
  const ChartRows rows = chart_rows(results);
  const int width = std::clamp(
      static_cast<int>(2 * kMargin + kCharWidth * static_cast<double>(rows.longest_line)), 900,
      2400);
  const double plot_left = kMargin, plot_right = width - kMargin - kValueRoom;

  std::ostringstream body;
  const int legend_y = draw_legend(body, legend_of(rows.bars), width);
  const int plot_top = legend_y + 22;
  const int plot_bottom = plot_top + static_cast<int>(runs) * kRowHeight + 4;
  const int height = plot_bottom + 56;
  const Axis axis = draw_axis(body, rows.highest, plot_left, plot_right, plot_top, plot_bottom);
  for (std::size_t r = 0; r < runs; ++r) {
    draw_row(body, rows, r, axis, plot_top + static_cast<int>(r) * kRowHeight);
  }
  if (runs == 0) {
    body << "<text x=\"" << kMargin << "\" y=\"" << plot_top + 20 << "\">no runs</text>\n";
  }

  const std::string title = "particles bench, " + results.date + ", " + results.gl_renderer;
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" viewBox=\"0 0 " << width << ' ' << height
      << "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\" "
         "fill=\"#222222\">\n<title>"
      << escape(title) << "</title>\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
      << "<text x=\"" << kMargin << "\" y=\"30\" font-size=\"18\" font-weight=\"bold\">"
      << "particles bench: median milliseconds per frame, per run</text>\n"
      << "<text x=\"" << kMargin << "\" y=\"50\" fill=\"#444444\">" << escape(results.date)
      << ", GL renderer: " << escape(results.gl_renderer) << "</text>\n"
      << body.str() << "</svg>\n";

  write_file_atomically(file, svg.str());
}

}  // namespace particles
