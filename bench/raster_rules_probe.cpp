// raster_rules_probe: the arithmetic this machine's GL applies at the three places where the
// compositor has to agree with it, each measured on inputs chosen for it (app/gl/raster_rules.hpp
// draws them): a float fragment stored into an RGBA8 target; a float fragment blended (ONE,
// ONE_MINUS_SRC_ALPHA) over a known RGBA8 value; a point of known window position and size (which
// pixels get fragments, their gl_PointCoord, and particle.frag's disc profile on it). Each table
// prints how often candidate rules give exactly GL's answer; the compositor follows the rules that
// measure_raster_rules() picks. With a folder argument the raw samples are written there (raw
// little-endian arrays, described in header.txt beside them), and frames of the scenes named after
// it (CPU backend: GL's image, the vertices, draw order, sprite scales and the compositor's
// camera), so that other rules can be tried against real piles of sprites away from this machine.
// Usage: raster_rules_probe [dump folder [count WxH scene.toml...]]
#include <glad/gl.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/gl/gl_context.hpp"
#include "app/gl/particle_buffers.hpp"
#include "app/gl/particle_renderer.hpp"
#include "app/gl/raster_rules.hpp"
#include "app/gl/render_target.hpp"
#include "app/main/backend.hpp"
#include "app/main/scene_draw.hpp"
#include "app/scene/options.hpp"
#include "app/scene/scene_loader.hpp"
#include "core/camera.hpp"

using namespace particles;

namespace {

template <class T>
void dump(const std::filesystem::path& dir, const std::string& name, const std::vector<T>& data) {
  if (dir.empty()) return;
  std::ofstream out(dir / name, std::ios::binary);
  out.write(reinterpret_cast<const char*>(data.data()),
            static_cast<std::streamsize>(data.size() * sizeof(T)));
  if (!out) throw std::runtime_error("cannot write " + name);
}

std::uint32_t round_half_up(float v) {
  return static_cast<std::uint32_t>(std::clamp(v, 0.0f, 1.0f) * 255.0f + 0.5f);
}
std::uint32_t truncate_unorm(float v) {
  return static_cast<std::uint32_t>(std::clamp(v, 0.0f, 1.0f) * 255.0f);
}
float half_precision(float v) {
  if (v == 0.0f) return 0.0f;
  int e = 0;
  const float m = std::frexp(v, &e);
  return std::ldexp(std::nearbyint(m * 2048.0f) / 2048.0f, e);
}

void print_store_and_blend(const gl::BlendSamples& samples, const RasterRules& measured,
                           const std::filesystem::path& dump_dir) {
  dump(dump_dir, "blend_source_rgba32f.bin", samples.source);
  dump(dump_dir, "blend_dst_rgba8.bin", samples.destination);
  dump(dump_dir, "blend_stored_rgba8.bin", samples.stored);
  dump(dump_dir, "blend_result_rgba8.bin", samples.blended);
  const std::size_t n = samples.stored.size();
  auto channel = [](std::uint32_t v, int c) { return int((v >> (8 * c)) & 0xffu); };

  std::printf("\n## Storing a float fragment in RGBA8 (%zu samples x 4 channels)\n\n", n);
  std::printf("| rule | channels equal | largest difference |\n|---|---:|---:|\n");
  using Store = std::function<std::uint32_t(float)>;
  const std::pair<const char*, Store> stores[] = {
      {"round half up", round_half_up},
      {"round half even (Unorm8Store::nearest_even)",
       [](float v) { return float_to_unorm8(v, Unorm8Store::nearest_even); }},
      {"truncate", truncate_unorm},
      {"via a 12-bit fraction (Unorm8Store::via_12_bit_fraction)",
       [](float v) { return float_to_unorm8(v, Unorm8Store::via_12_bit_fraction); }}};
  for (const auto& [name, rule] : stores) {
    std::size_t equal = 0;
    int worst = 0;
    for (std::size_t i = 0; i < n; ++i) {
      for (int c = 0; c < 4; ++c) {
        const int want = int(rule(samples.source[i * 4 + std::size_t(c)]));
        equal += want == channel(samples.stored[i], c);
        worst = std::max(worst, std::abs(want - channel(samples.stored[i], c)));
      }
    }
    std::printf("| %s | %.4f%% | %d |\n", name, 100.0 * double(equal) / (4.0 * double(n)), worst);
  }

  // One channel of a blend: destination byte d, the fragment's channel s and its alpha a.
  using Blend = std::function<std::uint32_t(std::uint32_t d, float s, float a)>;
  const Unorm8Store store = measured.store;
  auto fixed = [store](BlendProduct product) {
    return [store, product](std::uint32_t d, float s, float a) {
      const std::uint32_t src = float_to_unorm8(s, store) | float_to_unorm8(a, store) << 24;
      return blend_premultiplied_unorm8(d, src, product) & 0xffu;
    };
  };
  auto in_float = [](std::uint32_t d, float s, float a) {
    return s + float(d) / 255.0f * (1.0f - a);
  };
  const std::pair<const char*, Blend> blends[] = {
      {"8-bit, measured store, product as a shifted sum", fixed(BlendProduct::shifted_sum)},
      {"8-bit, measured store, product rounded", fixed(BlendProduct::rounded)},
      {"float, rounded once",
       [&](std::uint32_t d, float s, float a) { return round_half_up(in_float(d, s, a)); }},
      {"float, measured store once",
       [&](std::uint32_t d, float s, float a) {
         return float_to_unorm8(in_float(d, s, a), store);
       }},
      {"float, truncated",
       [&](std::uint32_t d, float s, float a) { return truncate_unorm(in_float(d, s, a)); }},
      {"half float", [](std::uint32_t d, float s, float a) {
         const float keep = half_precision(1.0f - half_precision(a));
         return round_half_up(half_precision(
             half_precision(s) + half_precision(half_precision(float(d) / 255.0f) * keep)));
       }}};
  std::printf(
      "\n## Blending (ONE, ONE_MINUS_SRC_ALPHA) over RGBA8 (%zu samples x 4 channels, "
      "half of the alphas below 0.05)\n\n",
      n);
  std::printf(
      "| rule | channels equal | faint (a < 0.05) equal | largest difference |\n"
      "|---|---:|---:|---:|\n");
  for (const auto& [name, rule] : blends) {
    std::size_t equal = 0, faint = 0, faint_equal = 0;
    int worst = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const float a = samples.source[i * 4 + 3];
      for (int c = 0; c < 4; ++c) {
        const int want = int(rule(std::uint32_t(channel(samples.destination[i], c)),
                                  samples.source[i * 4 + std::size_t(c)], a));
        const int got = channel(samples.blended[i], c);
        equal += want == got;
        faint += a < 0.05f;
        faint_equal += a < 0.05f && want == got;
        worst = std::max(worst, std::abs(want - got));
      }
    }
    std::printf("| %s | %.4f%% | %.4f%% | %d |\n", name, 100.0 * double(equal) / (4.0 * double(n)),
                100.0 * double(faint_equal) / double(faint), worst);
  }
}

void print_points(const RasterRules& measured, const std::filesystem::path& dump_dir) {
  const gl::PointSamples coord = gl::draw_point_samples(1024, 64, 4122026u);
  const gl::PointSamples shape =
      gl::draw_point_samples(1024, 64, 4122026u, "raster_rules_point_shape.frag");
  dump(dump_dir, "point_window_xys.bin", coord.window);
  dump(dump_dir, "point_coord_rgba32f.bin", coord.pixels);
  dump(dump_dir, "point_shape_rgba32f.bin", shape.pixels);
  RasterRules exact = measured, held = measured;
  exact.position_steps = exact.size_steps = 0.0f;
  held.position_steps = kNvidiaRules.position_steps;
  held.size_steps = kNvidiaRules.size_steps;
  // particle.frag's profile on GL's own gl_PointCoord, in the compositor's arithmetic.
  std::size_t differing = 0, fragments = 0;
  float worst = 0.0f;
  for (std::size_t o = 0; o < coord.pixels.size(); o += 4) {
    if (shape.pixels[o] < 0.0f) continue;  // no fragment, or discarded
    const float dx = coord.pixels[o] * 2.0f - 1.0f, dy = coord.pixels[o + 1] * 2.0f - 1.0f;
    const float r2 = dx * dx + dy * dy;
    if (r2 > 1.0f) continue;
    const float r = std::sqrt(r2);
    const float core = 1.0f - smoothstep_glsl(0.2f, 1.0f / (0.55f - 0.2f), r);
    const float halo = (1.0f - r2) * (1.0f - r2);
    const float mine = core + (1.0f - core) * 0.45f * halo;
    ++fragments;
    differing += mine != shape.pixels[o + 3];
    worst = std::max(worst, std::abs(mine - shape.pixels[o + 3]));
  }
  std::printf("\n## Points (%zu points, sizes 1-56 px, at random sub-pixel positions)\n\n",
              coord.window.size() / 3);
  std::printf(
      "| rule | fragments wrong (drawn or not, or gl_PointCoord off by > 1e-3) |\n"
      "|---|---:|\n");
  std::printf("| exact position and size | %zu |\n", gl::point_mismatches(coord, exact));
  std::printf("| position held at 1/256 px, size at 1/32 px (rounded down) | %zu |\n",
              gl::point_mismatches(coord, held));
  std::printf(
      "\nparticle.frag's profile on GL's gl_PointCoord: %zu of %zu fragments differ from "
      "the compositor's arithmetic, by at most %.3g (%.4f/255)\n",
      differing, fragments, double(worst), double(worst) * 255.0);
}

// --- frames of scenes ---------------------------------------------------------------------------

// Runs `scene` for 12 frames as tests/composite/scene_composite_test.cpp does (ReplayCamera, radix
// order) and saves the last one under dir/<file stem>_*.
void dump_scene_frame(const std::filesystem::path& dir, const std::filesystem::path& file,
                      std::uint32_t count, int width, int height) {
  const SceneDesc scene = load_scene(file);
  gl::ParticleBuffers buffers;
  gl::RenderTarget composite_target({width, height});
  gl::RenderTarget raster_target({width, height});
  gl::ParticleRenderer renderer;
  auto backend = make_cpu_backend();
  backend->reset(scene.params, std::min(count, scene.count), buffers);
  ReplayCamera replay(scene, {width, height});
  CompositeRequest request;
  for (int f = 0; f < 12; ++f) {
    const CameraMatrices camera = replay.at_frame(f);
    FrameSettings settings;
    settings.dt = scene.time_step;
    settings.view = depth_frame(camera);
    const gl::DrawParams draw = scene_draw_params(scene, camera, {width, height});
    request = composite_request(draw, renderer, composite_target);
    replay.frame_on(backend->run_frame(settings, &request));
    if (f == 11) renderer.draw(raster_target, buffers, draw);
  }
  const std::string stem = file.stem().string();
  const gl::Image raster = raster_target.read_pixels();
  dump(dir, stem + "_gl_rgba8_top_first.bin", raster.rgba);
  dump(dir, stem + "_vertices.bin", buffers.read_vertices());
  dump(dir, stem + "_order.bin", buffers.read_order());
  dump(dir, stem + "_sprite_scales.bin", buffers.read_sprite_scales());
  dump(dir, stem + "_camera.bin", std::vector<SpriteCamera>{request.camera});
  dump(dir, stem + "_background.bin", std::vector<std::uint32_t>{request.background});
  std::printf("saved %s: %u particles, %dx%d\n", stem.c_str(), std::min(count, scene.count), width,
              height);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::filesystem::path dump_dir = argc > 1 ? argv[1] : "";
    if (!dump_dir.empty()) std::filesystem::create_directories(dump_dir);
    const auto context = gl::make_headless_context(64, 64);
    const gl::MeasuredRasterRules measured = gl::measure_raster_rules();
    std::printf("# raster_rules_probe: %s\n\nmeasure_raster_rules(): %s\n",
                context->renderer_description().c_str(), measured.summary.c_str());
    print_store_and_blend(gl::draw_blend_samples(512, 20261204u), measured.rules, dump_dir);
    print_points(measured.rules, dump_dir);
    if (argc > 3) {
      const std::uint32_t count = static_cast<std::uint32_t>(std::stoul(argv[2]));
      const auto size = parse_size(argv[3]);
      if (!size) throw std::runtime_error("size must be WIDTHxHEIGHT");
      for (int i = 4; i < argc; ++i)
        dump_scene_frame(dump_dir, argv[i], count, size->first, size->second);
    }
    if (!dump_dir.empty()) {
      std::ofstream header(dump_dir / "header.txt");
      header << "blend_*: 512x512 samples, rows bottom first; source RGBA32F (premultiplied), dst "
                "RGBA8 before, stored (no blend), result (blended)\n"
                "point_window_xys: per point window x, y, size (float); 16x16 cells of 64 px in "
                "a 1024x1024 target, point i in cell (i % 16, i / 16)\n"
                "point_coord: gl_PointCoord.st, gl_FragCoord.xy; -1 where no fragment\n"
                "point_shape: r2, r, core, shape of particle.frag; -1 where none\n";
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "raster_rules_probe: %s\n", e.what());
    return 1;
  }
}
