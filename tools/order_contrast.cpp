// order_contrast: how plainly a scene needs its drawing order. For each scene it runs the real
// `particles` binary twice, headless on the CPU backend for N frames (default 120), once sorted
// in the exact order and once in another (--order, default unsorted: index order), and compares
// the two screenshots: a pixel is lit when either image is more than 8/255 from the background
// in some channel, and differs when the two images are more than 8/255 apart in some channel. It
// prints, per scene, the share of lit pixels that differ (core/pixels_off.hpp, the measure the
// comparison view and the bench report live), and the other order's descents (the % of adjacent
// pairs out of exact order) at the last frame.
// Usage: order_contrast [--frames N] [--out DIR] [--binary PATH] [--order NAME]
//        [--order-period N] [SCENE.toml ...]   (no scenes: every scenes/*.toml)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/scene/scene_loader.hpp"
#include "core/draw_order.hpp"
#include "core/pixels_off.hpp"
#include "tests/support/stb_image_impl.hpp"
// stb_image first (stb_image_impl.hpp)
#include "tests/support/read_png.hpp"

namespace fs = std::filesystem;

namespace {

using Rgba = particles::test::PngPixels;

Rgba read_png(const fs::path& path) {
  Rgba image = particles::test::read_png(path);
  if (image.pixels.empty()) {
    throw std::runtime_error("cannot read " + path.string() + ": " + stbi_failure_reason());
  }
  return image;
}

std::string quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// order: a DrawOrder's name (core/draw_order.hpp), drawn with --order-period `period`.
void render(const std::string& binary, const fs::path& scene, int frames, const std::string& order,
            int period, const fs::path& png) {
  const std::string command =
      quoted(binary) + " --headless --backend cpu --frames " + std::to_string(frames) +
      " --scene " + quoted(scene.string()) + " --order " + quoted(order) + " --order-period " +
      std::to_string(period) + " --screenshot " + quoted(png.string()) + " --report " +
      quoted(fs::path(png).replace_extension(".csv").string()) + " > /dev/null 2>&1";
  if (std::system(command.c_str()) != 0) throw std::runtime_error("failed: " + command);
}

// The descents (% of adjacent pairs out of exact order) of the report's last frame, from its
// descents_pct column; -1 where none was measured.
double last_descents(const fs::path& csv) {
  std::ifstream in(csv);
  std::string header, line, last;
  std::getline(in, header);
  while (std::getline(in, line)) {
    if (!line.empty()) last = line;
  }
  auto column = [](const std::string& row, std::size_t index) {
    std::size_t start = 0;
    for (std::size_t i = 0; i < index; ++i) {
      start = row.find(',', start);
      if (start == std::string::npos) return std::string();
      ++start;
    }
    return row.substr(start, row.find(',', start) - start);
  };
  std::size_t index = 0;
  for (std::size_t at = 0; at < header.size(); ++index) {
    const std::size_t comma = header.find(',', at);
    if (header.substr(at, comma - at) == "descents_pct") {
      try {
        return std::stod(column(last, index));
      } catch (const std::exception&) {
        return -1.0;  // the header alone
      }
    }
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return -1.0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    int frames = 120;
    fs::path out = "order-contrast";
    std::string binary = PARTICLES_BINARY;
    std::vector<fs::path> scenes;
    std::string order = "unsorted";  // compared with the exact order
    int period = particles::kDefaultOrderPeriod;
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--frames" && i + 1 < argc) {
        frames = std::stoi(argv[++i]);
      } else if (arg == "--out" && i + 1 < argc) {
        out = argv[++i];
      } else if (arg == "--order" && i + 1 < argc) {
        order = argv[++i];
        if (!particles::draw_order_from_string(order)) {
          throw std::runtime_error("unknown draw order '" + order + "'");
        }
      } else if (arg == "--order-period" && i + 1 < argc) {
        period = std::stoi(argv[++i]);
      } else if (arg == "--binary" && i + 1 < argc) {
        binary = argv[++i];
      } else if (!arg.empty() && arg[0] != '-') {
        scenes.emplace_back(arg);
      } else {
        std::fprintf(stderr,
                     "usage: order_contrast [--frames N] [--out DIR] [--binary PATH] "
                     "[--order exact|unsorted|stale|eye|coarse] [--order-period N] "
                     "[SCENE.toml ...]\n");
        return 2;
      }
    }
    if (scenes.empty()) {
      for (const auto& e : fs::directory_iterator(PARTICLES_SCENES_DIR)) {
        if (e.path().extension() == ".toml") scenes.push_back(e.path());
      }
      std::sort(scenes.begin(), scenes.end());
    }
    fs::create_directories(out);
    std::printf("# order_contrast: CPU backend, headless 1280x720, frame %d, pixels > %d/255\n\n",
                frames, particles::kPixelsOffThreshold);
    std::printf("| scene | file | lit pixels | differ exact vs %s | share | descents |\n",
                order.c_str());
    std::printf("|---|---|---:|---:|---:|---:|\n");
    for (const fs::path& scene : scenes) {
      const particles::SceneDesc desc = particles::load_scene(scene);
      const std::string stem = scene.stem().string();
      const fs::path sorted_png = out / (stem + "-sorted.png");
      const fs::path other_png = out / (stem + "-" + order + ".png");
      render(binary, scene, frames, "exact", period, sorted_png);
      render(binary, scene, frames, order, period, other_png);
      const Rgba sorted = read_png(sorted_png), other = read_png(other_png);
      if (sorted.width != other.width || sorted.height != other.height) {
        throw std::runtime_error("the two screenshots differ in size");
      }
      const particles::PixelsOff f = particles::count_pixels_off(
          sorted.pixels, other.pixels, 4, particles::rgb8_of(desc.background));
      const double descents = last_descents(fs::path(other_png).replace_extension(".csv"));
      std::printf("| %s | %s | %llu | %llu | %.1f%% | %.2f%% |\n", desc.name.c_str(),
                  scene.filename().string().c_str(), static_cast<unsigned long long>(f.lit),
                  static_cast<unsigned long long>(f.off), f.percent(), descents);
      std::fflush(stdout);
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "order_contrast: %s\n", e.what());
    return 1;
  }
}
