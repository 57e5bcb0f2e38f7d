// The bench chart: one stacked bar per run (stage medians, then the draw), drawn by a tiny
// software rasterizer so the bench needs no plotting library. Labels use stb_easy_font, which
// turns text into rectangles.
#include <stb/stb_easy_font.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "app/gl/image.hpp"
#include "app/main/bench_results.hpp"

namespace particles {
namespace {

struct Rgb {
  std::uint8_t r, g, b;
};

// Stage colours, then the draw; chosen to stay distinct for colour-blind readers.
constexpr Rgb kSeriesColors[kStageCount + 1] = {{0, 114, 178}, {230, 159, 0},   {0, 158, 115},
                                                {213, 94, 0},  {204, 121, 167}, {86, 180, 233}};

class Canvas {
 public:
  Canvas(int w, int h) {
    image_.width = w;
    image_.height = h;
    image_.rgba.assign(static_cast<std::size_t>(w) * h * 4, 255);
  }
  void fill(int x0, int y0, int x1, int y1, Rgb c) {
    x0 = std::clamp(x0, 0, image_.width);
    x1 = std::clamp(x1, 0, image_.width);
    y0 = std::clamp(y0, 0, image_.height);
    y1 = std::clamp(y1, 0, image_.height);
    for (int y = y0; y < y1; ++y) {
      for (int x = x0; x < x1; ++x) {
        std::uint8_t* p = &image_.rgba[(static_cast<std::size_t>(y) * image_.width + x) * 4];
        p[0] = c.r;
        p[1] = c.g;
        p[2] = c.b;
        p[3] = 255;
      }
    }
  }
  // Text at (x, y) top-left, scaled by an integer factor; stb_easy_font emits quads.
  void text(int x, int y, const std::string& s, int scale = 1, Rgb c = {30, 30, 30}) {
    static char buffer[60000];
    const int quads =
        stb_easy_font_print(0, 0, const_cast<char*>(s.c_str()), nullptr, buffer, sizeof buffer);
    const float* v = reinterpret_cast<const float*>(buffer);
    for (int q = 0; q < quads; ++q) {
      const float* quad = v + q * 16;  // 4 vertices of (x, y, z, colour-as-float)
      const int qx0 = static_cast<int>(quad[0]), qy0 = static_cast<int>(quad[1]);
      const int qx1 = static_cast<int>(quad[8]), qy1 = static_cast<int>(quad[9]);
      fill(x + qx0 * scale, y + qy0 * scale, x + qx1 * scale, y + qy1 * scale, c);
    }
  }
  const gl::Image& image() const { return image_; }

 private:
  gl::Image image_;
};

}  // namespace

void write_bench_chart(const std::filesystem::path& file, const BenchResults& results) {
  const int bar_w = 36, gap = 14, left = 80, top = 60, plot_h = 420, bottom = 190;
  const int runs = static_cast<int>(results.runs.size());
  const int width = std::max(640, left + runs * (bar_w + gap) + 220);
  const int height = top + plot_h + bottom;
  Canvas canvas(width, height);

  std::vector<std::vector<double>> parts;
  double highest = 0.0;
  for (const BenchRun& run : results.runs) {
    std::vector<double> p;
    for (int s = 0; s < kStageCount; ++s) p.push_back(run.stage(s).median);
    const Summary draw = run.draw();
    p.push_back(draw.samples ? draw.median : 0.0);
    double total = 0.0;
    for (double v : p) total += v;
    highest = std::max(highest, total);
    parts.push_back(std::move(p));
  }
  if (highest <= 0.0) highest = 1.0;
  const double scale = plot_h / (highest * 1.1);

  canvas.text(left, 16, "particles bench: median ms per frame, by stage", 2);
  canvas.text(left, 40, results.gl_renderer + "   " + results.date);
  // Axis with five gridlines labelled in milliseconds.
  for (int g = 0; g <= 5; ++g) {
    const double ms = highest * 1.1 * g / 5.0;
    const int y = top + plot_h - static_cast<int>(ms * scale);
    canvas.fill(left - 4, y, width - 200, y + 1, {215, 215, 215});
    char label[32];
    std::snprintf(label, sizeof label, "%.3g", ms);
    canvas.text(8, y - 4, label);
  }
  canvas.fill(left - 1, top, left, top + plot_h, {60, 60, 60});
  for (int r = 0; r < runs; ++r) {
    const int x = left + gap / 2 + r * (bar_w + gap);
    double base = 0.0;
    for (std::size_t s = 0; s < parts[r].size(); ++s) {
      const int y0 = top + plot_h - static_cast<int>((base + parts[r][s]) * scale);
      const int y1 = top + plot_h - static_cast<int>(base * scale);
      canvas.fill(x, y0, x + bar_w, y1, kSeriesColors[s]);
      base += parts[r][s];
    }
    // Labels run downwards under each bar, one short line per field.
    const BenchRun& run = results.runs[r];
    int y = top + plot_h + 8;
    for (const std::string& line :
         {run.algorithm, std::to_string(run.count), run.key_mode.substr(0, 5), run.backend,
          run.scene.substr(0, 8)}) {
      canvas.text(x, y, line);
      y += 12;
    }
  }
  const int legend_x = width - 180;
  for (int s = 0; s <= kStageCount; ++s) {
    const int y = top + 10 + s * 20;
    canvas.fill(legend_x, y, legend_x + 14, y + 14, kSeriesColors[s]);
    canvas.text(legend_x + 22, y + 3,
                s < kStageCount ? std::string(to_string(static_cast<Stage>(s))) : "draw (GL)");
  }
  gl::write_png(file.string(), canvas.image());
}

}  // namespace particles
