// blend_probe: how this machine's GL rounds when it blends into an RGBA8 framebuffer. It draws
// frames of the shipped scenes with the raster renderer (CPU backend, so any GL will do) and
// composites the same vertices and order on the CPU under several rounding models, printing how
// far each is from GL's image. The compositor blends the way the closest model says
// (core/composite/sprite.hpp); run this on a new GL implementation to see whether it agrees.
// Usage: blend_probe [count] [WxH]
#include <glad/gl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <iterator>
#include "app/gl/gl_context.hpp"
#include "app/gl/particle_buffers.hpp"
#include "app/gl/particle_renderer.hpp"
#include "app/gl/render_target.hpp"
#include "app/main/backend.hpp"
#include "app/main/scene_draw.hpp"
#include "app/scene/options.hpp"
#include "app/scene/paths.hpp"
#include "app/scene/scene_loader.hpp"
#include "core/camera.hpp"
#include "core/composite/sprite.hpp"

using namespace particles;

namespace {

// One channel: destination byte d, the fragment's straight colour byte c and alpha a.
using ChannelBlend = std::uint32_t (*)(std::uint32_t d, float c, float a);

std::uint32_t round_unorm(float v) {
  return float_to_unorm8(v);
}
// 8-bit fixed point: source and 1 - a stored to bytes, d * (255 - a) / 255 rounded (llvmpipe).
std::uint32_t fixed_point(std::uint32_t d, float c, float a) {
  const std::uint32_t a8 = round_unorm(a), src = round_unorm(c * a);
  const std::uint32_t t = d * (255u - a8) + 128u;
  return std::min(255u, src + ((t + (t >> 8)) >> 8));
}
// Float blend of the unrounded source, the result rounded once.
std::uint32_t float_blend(std::uint32_t d, float c, float a) {
  return round_unorm(c * a + float(d) / 255.0f * (1.0f - a));
}
// Float blend of a source rounded to 8 bits first.
std::uint32_t float_blend_rounded_source(std::uint32_t d, float c, float a) {
  return round_unorm(float(round_unorm(c * a)) / 255.0f + float(d) / 255.0f * (1.0f - a));
}
// Float blend with the result truncated, not rounded.
std::uint32_t float_blend_truncated(std::uint32_t d, float c, float a) {
  const float v = std::clamp(c * a + float(d) / 255.0f * (1.0f - a), 0.0f, 1.0f);
  return static_cast<std::uint32_t>(v * 255.0f);
}
// Half-float arithmetic, as some blend units use: every value rounded to 11 significant bits.
float half(float v) {
  if (v == 0.0f) return 0.0f;
  int e = 0;
  const float m = std::frexp(v, &e);
  return std::ldexp(std::nearbyint(m * 2048.0f) / 2048.0f, e);
}
std::uint32_t half_blend(std::uint32_t d, float c, float a) {
  const float src = half(c * a), keep = half(1.0f - half(a));
  return round_unorm(half(src + half(half(float(d) / 255.0f) * keep)));
}

struct BlendModel {
  const char* name;
  ChannelBlend blend;
};
const BlendModel kModels[] = {{"8-bit fixed point (llvmpipe)", fixed_point},
                              {"float, rounded once", float_blend},
                              {"float, 8-bit source", float_blend_rounded_source},
                              {"float, truncated", float_blend_truncated},
                              {"half float", half_blend}};

std::vector<std::uint32_t> composite(const BlendModel& model, const std::vector<ParticleVertex>& v,
                                     const std::vector<std::uint32_t>& order,
                                     const SpriteCamera& cam, std::uint32_t background) {
  std::vector<std::uint32_t> image(std::size_t(cam.width) * cam.height, background);
  for (std::uint32_t i : order) {
    const ProjectedSprite s = project_sprite(cam, v[i]);
    const PixelBounds b = sprite_pixel_bounds(s, cam.width, cam.height);
    for (int y = b.y0; y < b.y1; ++y) {
      for (int x = b.x0; x < b.x1; ++x) {
        const float w = sprite_weight(s, x, y);
        if (w < 0.0f) continue;
        const float a = s.alpha * w;
        std::uint32_t& p = image[std::size_t(y) * cam.width + x];
        std::uint32_t out = 0;
        for (int c = 0; c < 4; ++c) {
          const float colour = c < 3 ? unorm8_to_float(s.rgba8 >> (8 * c)) : 1.0f;
          out |= model.blend((p >> (8 * c)) & 0xffu, colour, a) << (8 * c);
        }
        p = out;
      }
    }
  }
  return image;
}

// Float throughout, front to back ("under"), stopping once the transmittance left is below
// `stop`; rounded to 8 bits once at the end.
std::vector<std::uint32_t> composite_float(const std::vector<ParticleVertex>& v,
                                           const std::vector<std::uint32_t>& order,
                                           const SpriteCamera& cam, std::uint32_t background,
                                           float stop) {
  const std::size_t n = std::size_t(cam.width) * cam.height;
  std::vector<float> rgb(n * 3, 0.0f), t(n, 1.0f);
  for (std::size_t k = order.size(); k-- > 0;) {
    const ProjectedSprite s = project_sprite(cam, v[order[k]]);
    const PixelBounds b = sprite_pixel_bounds(s, cam.width, cam.height);
    for (int y = b.y0; y < b.y1; ++y) {
      for (int x = b.x0; x < b.x1; ++x) {
        const std::size_t p = std::size_t(y) * cam.width + x;
        if (t[p] < stop) continue;
        const float w = sprite_weight(s, x, y);
        if (w < 0.0f) continue;
        const float a = s.alpha * w;
        for (int c = 0; c < 3; ++c)
          rgb[p * 3 + c] += t[p] * a * unorm8_to_float(s.rgba8 >> (8 * c));
        t[p] *= 1.0f - a;
      }
    }
  }
  std::vector<std::uint32_t> image(n);
  for (std::size_t p = 0; p < n; ++p) {
    std::uint32_t out = background & 0xff000000u;
    for (int c = 0; c < 3; ++c) {
      out |= float_to_unorm8(rgb[p * 3 + c] + t[p] * unorm8_to_float(background >> (8 * c)))
             << (8 * c);
    }
    image[p] = out;
  }
  return image;
}

// How GL places and sizes a point: single opaque white sprites over black, where every pixel is
// round(weight * 255) whatever the blending, against the sprite math with its position snapped
// to a sub-pixel grid and its size rounded, to find what the rasterizer quantizes.
void probe_sprites(gl::ParticleRenderer& renderer) {
  struct Variant {
    const char* name;
    float position_step;  // 0: exact
    float size_step;
  };
  const Variant variants[] = {{"exact", 0, 0},
                              {"position 1/256 px", 1.0f / 256, 0},
                              {"position 1/16 px", 1.0f / 16, 0},
                              {"size 1/16 px", 0, 1.0f / 16},
                              {"size 1/8 px", 0, 1.0f / 8},
                              {"size 1/4 px", 0, 1.0f / 4},
                              {"size whole px", 0, 1.0f}};
  const int w = 64, h = 64;
  gl::RenderTarget target({w, h});
  gl::ParticleBuffers buffers;
  std::printf("\n| sprite model | pixels differing | max |\n|---|---:|---:|\n");
  std::vector<std::size_t> differing(std::size(variants), 0);
  std::vector<int> worst(std::size(variants), 0);
  for (float pixels : {1.3f, 1.83f, 2.6f, 3.37f, 4.9f, 7.21f, 12.7f, 23.3f}) {
    for (auto [ox, oy] : {std::pair{0.13f, 0.71f}, {0.37f, 0.29f}, {0.5f, 0.5f}, {0.02f, 0.9f}}) {
      CameraMatrices cam;
      cam.projection = glm::perspective(glm::radians(60.0f), 1.0f, 0.1f, 100.0f);
      const float depth = 5.0f;
      const float size = pixels * depth / (cam.projection[1][1] * 0.5f * float(h));
      const float x = (ox * 2.0f / float(w)) * depth / cam.projection[0][0];
      const float y = (oy * 2.0f / float(h)) * depth / cam.projection[1][1];
      const std::vector<ParticleVertex> v = {{x, y, -depth, pack_rgba8({1, 1, 1, 1})}};
      const std::vector<std::uint32_t> order = {0};
      buffers.upload(v, order);
      gl::DrawParams draw;
      draw.camera = cam;
      draw.viewport = {w, h};
      draw.sprite_size = size;
      draw.background = {0, 0, 0, 1};
      renderer.draw(target, buffers, draw);
      const gl::Image image = target.read_pixels();
      const CompositeRequest request = composite_request(draw, renderer, target);
      const ProjectedSprite exact = project_sprite(request.camera, v[0]);
      for (std::size_t m = 0; m < std::size(variants); ++m) {
        ProjectedSprite s = exact;
        auto snap = [](float value, float step) {
          return step > 0 ? std::nearbyint(value / step) * step : value;
        };
        s.x = snap(s.x, variants[m].position_step);
        s.y = snap(s.y, variants[m].position_step);
        s.size = std::max(1.0f, snap(s.size, variants[m].size_step));
        s.inv_half = 2.0f / s.size;
        for (int py = 0; py < h; ++py) {
          for (int px = 0; px < w; ++px) {
            const float weight = sprite_weight(s, px, py);
            const int want = weight < 0.0f ? 0 : int(float_to_unorm8(weight));
            const int got = image.pixel(px, h - 1 - py)[0];
            differing[m] += want != got;
            worst[m] = std::max(worst[m], std::abs(want - got));
          }
        }
      }
    }
  }
  for (std::size_t m = 0; m < std::size(variants); ++m) {
    std::printf("| %s | %zu | %d |\n", variants[m].name, differing[m], worst[m]);
  }
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::uint32_t count = argc > 1 ? static_cast<std::uint32_t>(std::stoul(argv[1])) : 60000;
    const auto size = parse_size(argc > 2 ? argv[2] : "640x360");
    if (!size) throw std::runtime_error("size must be WIDTHxHEIGHT");
    const auto [w, h] = *size;
    const auto context = gl::make_headless_context(64, 64);
    std::printf("# blend_probe: %s, %u particles, %dx%d\n\n",
                context->renderer_description().c_str(), count, w, h);
    std::printf(
        "| scene | model | lit pixels | within 3/255 | above 8/255 | above 16/255 | max |\n");
    std::printf("|---|---|---:|---:|---:|---:|---:|\n");
    gl::ParticleBuffers buffers;
    gl::RenderTarget target({w, h});
    gl::ParticleRenderer renderer;
    for (const char* name :
         {"scenes/galaxy.toml", "scenes/fountain.toml", "scenes/galaxy_dense.toml"}) {
      const SceneDesc scene = load_scene(find_resource(name));
      auto backend = make_cpu_backend();
      backend->reset(scene.params, count, buffers);
      CameraPose pose = scene.camera;
      CameraMatrices camera;
      for (int f = 0; f < 10; ++f) {
        camera = camera_matrices(pose, float(w) / float(h), 0.05f, 2000.0f);
        FrameSettings settings;
        settings.dt = scene.time_step;
        settings.view = depth_frame(camera);
        const FrameInfo info = backend->run_frame(settings);
        if (f == 0 && scene.camera_auto_frame && !info.extents.empty()) {
          pose = frame_extents(pose, info.extents);
        }
      }
      const gl::DrawParams draw = scene_draw_params(scene, camera, {w, h});
      renderer.draw(target, buffers, draw);
      const gl::Image raster = target.read_pixels();
      const std::vector<ParticleVertex> v = buffers.read_vertices();
      const std::vector<std::uint32_t> order = buffers.read_order();
      const CompositeRequest request = composite_request(draw, renderer, target);
      struct Named {
        const char* name;
        std::vector<std::uint32_t> image;
      };
      std::vector<Named> images;
      for (const BlendModel& model : kModels) {
        images.push_back(
            {model.name, composite(model, v, order, request.camera, request.background)});
      }
      images.push_back({"float front to back",
                        composite_float(v, order, request.camera, request.background, 0.0f)});
      images.push_back({"float front to back, stop 1/255",
                        composite_float(v, order, request.camera, request.background, 1.0f / 255)});
      for (const auto& [model_name, image] : images) {
        std::size_t lit = 0, within3 = 0, above8 = 0, above16 = 0;
        int max = 0;
        for (int y = 0; y < h; ++y) {
          for (int x = 0; x < w; ++x) {
            const std::uint8_t* g = raster.pixel(x, h - 1 - y);
            const std::uint32_t c = image[std::size_t(y) * w + x];
            const std::uint32_t gp =
                g[0] | (g[1] << 8) | (g[2] << 16) | (std::uint32_t{g[3]} << 24);
            int worst = 0;
            for (int k = 0; k < 4; ++k) {
              worst = std::max(worst, std::abs(int((c >> (8 * k)) & 0xffu) - int(g[k])));
            }
            if (c != request.background || gp != request.background) {
              ++lit;
              within3 += worst <= 3;
            }
            above8 += worst > 8;
            above16 += worst > 16;
            max = std::max(max, worst);
          }
        }
        std::printf("| %s | %s | %zu | %.3f%% | %zu | %zu | %d |\n", scene.name.c_str(), model_name,
                    lit, lit ? 100.0 * double(within3) / double(lit) : 100.0, above8, above16, max);
      }
    }
    probe_sprites(renderer);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "blend_probe: %s\n", e.what());
    return 1;
  }
}
