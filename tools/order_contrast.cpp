// order_contrast: how plainly a scene needs its drawing order. For each scene it runs the real
// `particles` binary twice, headless on the CPU backend for N frames (default 120), once sorted
// and once --unsorted, and compares the two screenshots: a pixel is lit when either image is
// more than 8/255 from the background in some channel, and differs when the two images are more
// than 8/255 apart in some channel. It prints, per scene, the share of lit pixels that differ.
// Usage: order_contrast [--frames N] [--out DIR] [--binary PATH] [SCENE.toml ...]
//        (no scenes: every scenes/*.toml)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/scene/scene_loader.hpp"

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

void render(const std::string& binary, const fs::path& scene, int frames, bool sorted,
            const fs::path& png) {
  const std::string command =
      quoted(binary) + " --headless --backend cpu --frames " + std::to_string(frames) +
      " --scene " + quoted(scene.string()) + (sorted ? "" : " --unsorted") + " --screenshot " +
      quoted(png.string()) + " --report " +
      quoted(fs::path(png).replace_extension(".csv").string()) + " > /dev/null 2>&1";
  if (std::system(command.c_str()) != 0) throw std::runtime_error("failed: " + command);
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
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--frames" && i + 1 < argc) {
        frames = std::stoi(argv[++i]);
      } else if (arg == "--out" && i + 1 < argc) {
        out = argv[++i];
      } else if (arg == "--binary" && i + 1 < argc) {
        binary = argv[++i];
      } else if (!arg.empty() && arg[0] != '-') {
        scenes.emplace_back(arg);
      } else {
        std::fprintf(stderr,
                     "usage: order_contrast [--frames N] [--out DIR] [--binary PATH] "
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
    std::printf("| scene | file | lit pixels | differ sorted vs unsorted | share |\n");
    std::printf("|---|---|---:|---:|---:|\n");
    for (const fs::path& scene : scenes) {
      const particles::SceneDesc desc = particles::load_scene(scene);
      const std::string stem = scene.stem().string();
      const fs::path sorted_png = out / (stem + "-sorted.png");
      const fs::path unsorted_png = out / (stem + "-unsorted.png");
      render(binary, scene, frames, true, sorted_png);
      render(binary, scene, frames, false, unsorted_png);
      const Figure f = compare(read_png(sorted_png), read_png(unsorted_png), desc.background);
      const double share = f.lit == 0 ? 0.0 : 100.0 * double(f.differing) / double(f.lit);
      std::printf("| %s | %s | %llu | %llu | %.1f%% |\n", desc.name.c_str(),
                  scene.filename().string().c_str(), static_cast<unsigned long long>(f.lit),
                  static_cast<unsigned long long>(f.differing), share);
      std::fflush(stdout);
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "order_contrast: %s\n", e.what());
    return 1;
  }
}
