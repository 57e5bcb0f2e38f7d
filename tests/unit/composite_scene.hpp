#pragma once
// Scenes for the CPU compositors' tests (cpu_compositor_test, weighted_blended_test,
// stochastic_test): a camera, two sprites that cover a whole small viewport at full profile weight
// (so every pixel's answer is known in closed form), random clouds, the exact compositor's
// far-to-near order and error measures against its image.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "core/color.hpp"
#include "core/composite/cpu_compositor.hpp"
#include "core/composite/sprite.hpp"
#include "core/composite/sprite_depth.hpp"

namespace particles::test {

// A perspective camera looking down -z from the origin (w = -z), its clip z inside the volume
// for the depths used.
inline SpriteCamera looking_down_z(int width, int height, float sprite_size,
                                   float point_size_max = 2048.0f) {
  SpriteCamera camera;
  camera.width = width;
  camera.height = height;
  camera.projection[0] = static_cast<float>(height) / static_cast<float>(width);
  camera.projection[11] = -1.0f;
  camera.projection[15] = 0.0f;
  camera.projection[10] = 0.5f;
  camera.sprite_size = sprite_size;
  camera.point_size_max = point_size_max;
  return camera;
}

// The closed-form scene: a 64x48 viewport and sprites on its axis so large (800 px and more at
// depths up to 6) that every pixel lies inside the core of their profile, weight exactly 1.
inline SpriteCamera covering_camera() {
  return looking_down_z(64, 48, 200.0f);
}

// Checks that sprite `v` covers every pixel of `camera` at profile weight 1 and returns its alpha
// there (the straight alpha of its colour).
inline float alpha_over_every_pixel(const SpriteCamera& camera, const ParticleVertex& v) {
  const ProjectedSprite s = project_sprite(camera, v);
  EXPECT_TRUE(s.visible);
  for (int y = 0; y < camera.height; ++y) {
    for (int x = 0; x < camera.width; ++x) {
      EXPECT_EQ(sprite_weight(s, x, y), 1.0f) << x << "," << y;
    }
  }
  return s.alpha;
}

// Random sprites of random colours, alphas (up to alpha_max) and depths (2 to 5) in view.
inline std::vector<ParticleVertex> cloud(std::size_t n, std::uint32_t seed, float alpha_max) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::vector<ParticleVertex> v(n);
  for (ParticleVertex& p : v) {
    const float z = -2.0f - 3.0f * unit(rng);
    p = {(unit(rng) - 0.5f) * 2.0f * -z * 0.5f, (unit(rng) - 0.5f) * 1.5f * -z * 0.5f, z,
         pack_rgba8({unit(rng), unit(rng), unit(rng), alpha_max * unit(rng)})};
  }
  return v;
}

inline std::vector<std::uint32_t> in_index_order(std::size_t n) {
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  return order;
}

// The exact renderers' order: farthest view depth first.
inline std::vector<std::uint32_t> far_to_near(const std::vector<ParticleVertex>& v,
                                              const SpriteCamera& camera) {
  std::vector<std::uint32_t> order = in_index_order(v.size());
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return sprite_view_depth(camera, v[a]) > sprite_view_depth(camera, v[b]);
  });
  return order;
}

inline std::vector<std::uint32_t> shuffled(std::vector<std::uint32_t> order, std::uint32_t seed) {
  std::shuffle(order.begin(), order.end(), std::mt19937(seed));
  return order;
}

// The exact front-to-back compositor's image of `v` sorted far to near.
inline CompositeImage exact_image(const std::vector<ParticleVertex>& v, const SpriteCamera& camera,
                                  const PixelF& background) {
  CompositeImage image;
  CpuCompositor(2).composite(v, far_to_near(v, camera), camera, background, image);
  return image;
}

// Runs f(p, q) over the pixels of two images of the same size, pixel by pixel.
template <class F>
void for_each_pixel_pair(const CompositeImage& a, const CompositeImage& b, const F& f) {
  EXPECT_EQ(a.pixels.size(), b.pixels.size());
  for (std::size_t i = 0; i < std::min(a.pixels.size(), b.pixels.size()); ++i) {
    f(a.pixels[i], b.pixels[i]);
  }
}

// The largest difference of any channel, alpha included, over every pixel.
inline float largest_difference(const CompositeImage& a, const CompositeImage& b) {
  float largest = 0.0f;
  for_each_pixel_pair(a, b, [&](const PixelF& p, const PixelF& q) {
    largest = std::max({largest, std::fabs(p.r - q.r), std::fabs(p.g - q.g), std::fabs(p.b - q.b),
                        std::fabs(p.a - q.a)});
  });
  return largest;
}

// The root mean square of the colour channels' differences over every pixel.
inline double rms_difference(const CompositeImage& a, const CompositeImage& b) {
  double sum = 0.0;
  for_each_pixel_pair(a, b, [&](const PixelF& p, const PixelF& q) {
    sum += double(p.r - q.r) * double(p.r - q.r) + double(p.g - q.g) * double(p.g - q.g) +
           double(p.b - q.b) * double(p.b - q.b);
  });
  return std::sqrt(sum / (3.0 * static_cast<double>(a.pixels.size())));
}

}  // namespace particles::test
