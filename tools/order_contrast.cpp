// order_contrast: how plainly a scene needs its drawing order. For each scene it runs the real
// `particles` binary twice, headless on the CPU backend for N frames (default 120), once sorted
// in the exact order and once in another (--order, default unsorted: index order), and compares
// the two screenshots: a pixel is lit when either image is more than 8/255 from the background
// in some channel, and differs when the two images are more than 8/255 apart in some channel. It
// prints, per scene, the share of lit pixels that differ, and the other order's order error (the
// % of adjacent pairs out of exact order) at the last frame.
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

// Static, so this file's copy of stb_image cannot clash with another library's.
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#define STBI_ONLY_PNG
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#endif
#include <stb/stb_image.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace fs = std::filesystem;

namespace {

constexpr int kThreshold = 8;  // of 255, as in issue #39

struct Rgba {
  int width = 0, height = 0;
  std::vector<std::uint8_t> pixels;
};

Rgba read_png(const fs::path& path) {
  int w = 0, h = 0, channels = 0;
  stbi_uc* data = stbi_load(path.c_str(), &w, &h, &channels, 4);
  if (data == nullptr) {
    throw std::runtime_error("cannot read " + path.string() + ": " + stbi_failure_reason());
  }
  Rgba image{w, h, std::vector<std::uint8_t>(data, data + std::size_t(w) * std::size_t(h) * 4)};
  stbi_image_free(data);
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

// The order error (%) of the report's last frame: its last column; -1 where none was measured.
double last_order_error(const fs::path& csv) {
  std::ifstream in(csv);
  std::string line, last;
  while (std::getline(in, line)) {
    if (!line.empty()) last = line;
  }
  const auto comma = last.rfind(',');
  if (comma == std::string::npos) return -1.0;
  try {
    return std::stod(last.substr(comma + 1));
  } catch (const std::exception&) {
    return -1.0;  // the header alone
  }
}

struct Figure {
  std::uint64_t lit = 0, differing = 0;
};

Figure compare(const Rgba& a, const Rgba& b, const particles::Color& background) {
  if (a.width != b.width || a.height != b.height) {
    throw std::runtime_error("the two screenshots differ in size");
  }
  const int bg[3] = {int(background.r * 255.0f + 0.5f), int(background.g * 255.0f + 0.5f),
                     int(background.b * 255.0f + 0.5f)};
  Figure f;
  for (std::size_t i = 0; i < a.pixels.size(); i += 4) {
    int lit = 0, apart = 0;
    for (int c = 0; c < 3; ++c) {
      const int pa = a.pixels[i + c], pb = b.pixels[i + c];
      lit = std::max({lit, std::abs(pa - bg[c]), std::abs(pb - bg[c])});
      apart = std::max(apart, std::abs(pa - pb));
    }
    if (lit > kThreshold) {
      ++f.lit;
      if (apart > kThreshold) ++f.differing;
    }
  }
  return f;
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
                frames, kThreshold);
    std::printf("| scene | file | lit pixels | differ exact vs %s | share | order error |\n",
                order.c_str());
    std::printf("|---|---|---:|---:|---:|---:|\n");
    for (const fs::path& scene : scenes) {
      const particles::SceneDesc desc = particles::load_scene(scene);
      const std::string stem = scene.stem().string();
      const fs::path sorted_png = out / (stem + "-sorted.png");
      const fs::path other_png = out / (stem + "-" + order + ".png");
      render(binary, scene, frames, "exact", period, sorted_png);
      render(binary, scene, frames, order, period, other_png);
      const Figure f = compare(read_png(sorted_png), read_png(other_png), desc.background);
      const double share = f.lit == 0 ? 0.0 : 100.0 * double(f.differing) / double(f.lit);
      const double error = last_order_error(fs::path(other_png).replace_extension(".csv"));
      std::printf("| %s | %s | %llu | %llu | %.1f%% | %.2f%% |\n", desc.name.c_str(),
                  scene.filename().string().c_str(), static_cast<unsigned long long>(f.lit),
                  static_cast<unsigned long long>(f.differing), share, error);
      std::fflush(stdout);
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "order_contrast: %s\n", e.what());
    return 1;
  }
}
