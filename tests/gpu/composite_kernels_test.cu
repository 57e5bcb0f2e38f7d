// The tile compositor's kernels against their CPU twin (core/composite/cpu_compositor.hpp): the
// same vertices and draw order must give the same RGBA8 image, bit for bit, for every kind of
// sprite (sub-pixel, tile-sized, larger than many tiles, clipped, behind the eye, NaN), every
// image shape, long tile lists, and frames split into several passes. GL-free: the kernels write
// linear device memory here; through GL interop they are tested in tests/composite.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "core/color.hpp"
#include "core/composite/cpu_compositor.hpp"
#include "core/composite/difference_heat.hpp"
#include "core/composite/split_view.hpp"
#include "cuda/common/cuda_handles.hpp"
#include "cuda/composite/compare_view.hpp"
#include "cuda/composite/tile_compositor.hpp"
#include "tests/gpu/device_copies.hpp"
#include "tests/gpu/pipeline_test_util.hpp"

namespace particles::cuda {
namespace {

class CompositeKernels : public ::testing::Test {
 protected:
  void SetUp() override { REQUIRE_CUDA_DEVICE(); }

  static SpriteCamera camera(int width, int height, float sprite_size,
                             float point_size_max = 2047.0f) {
    SpriteCamera c;
    const glm::mat4 view =
        glm::lookAt(glm::vec3(0.3f, 0.2f, 6.0f), glm::vec3(0.0f), glm::vec3(0.0f, 1.0f, 0.0f));
    const glm::mat4 projection =
        glm::perspective(glm::radians(55.0f), float(width) / float(height), 0.1f, 60.0f);
    for (int i = 0; i < 16; ++i) {
      c.view[i] = glm::value_ptr(view)[i];
      c.projection[i] = glm::value_ptr(projection)[i];
    }
    c.width = width;
    c.height = height;
    c.sprite_size = sprite_size;
    c.point_size_min = 1.0f;
    c.point_size_max = point_size_max;
    return c;
  }

  // Every kind of particle: a cloud around the origin, some behind the eye or past the far
  // plane, a few near the eye (huge sprites), NaN and infinite ones.
  static std::vector<ParticleVertex> particles(std::size_t n, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> cloud(0.0f, 1.3f);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    std::vector<ParticleVertex> v(n);
    for (std::size_t i = 0; i < n; ++i) {
      v[i] = {cloud(rng), cloud(rng), cloud(rng),
              pack_rgba8({u(rng), u(rng), u(rng), 0.1f + 0.9f * u(rng)})};
      const float r = u(rng);
      if (r < 0.01f)
        v[i].z = 7.0f + 3.0f * u(rng);  // behind the eye
      else if (r < 0.015f)
        v[i].z = 5.5f + 0.4f * u(rng);  // close: sprites of many tiles
      else if (r < 0.02f)
        v[i].z = -80.0f;  // beyond the far plane
      else if (r < 0.022f)
        v[i].x = std::numeric_limits<float>::quiet_NaN();
      else if (r < 0.024f)
        v[i].y = std::numeric_limits<float>::infinity();
    }
    return v;
  }

  static std::vector<std::uint32_t> shuffled(std::size_t n, std::uint32_t seed) {
    std::vector<std::uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::shuffle(order.begin(), order.end(), std::mt19937(seed));
    return order;
  }

  // The kernels' image and the twin's, and the first pixel where they differ.
  void expect_equal(TileCompositor& compositor, const std::vector<ParticleVertex>& vertices,
                    const std::vector<std::uint32_t>& order, const SpriteCamera& cam,
                    const std::string& what, const std::vector<float>& sprite_scales = {}) {
    const std::uint32_t background = premultiplied_background(0.02f, 0.03f, 0.08f, 1.0f);
    DeviceBuffer<ParticleVertex> d_vertices(std::max<std::size_t>(vertices.size(), 1));
    DeviceBuffer<std::uint32_t> d_order(std::max<std::size_t>(order.size(), 1));
    DeviceBuffer<std::uint32_t> d_pixels(static_cast<std::size_t>(cam.width) * cam.height);
    test::upload(d_vertices.data(), vertices);
    test::upload(d_order.data(), order);
    DeviceBuffer<float> d_scales(std::max<std::size_t>(sprite_scales.size(), 1));
    if (!sprite_scales.empty()) test::upload(d_scales.data(), sprite_scales);
    CUDA_CHECK(cudaMemset(d_pixels.data(), 0xab, d_pixels.size_bytes()));  // no stale zeros
    Stream stream = Stream::create();
    compositor.composite(stream.get(), d_vertices.data(),
                         sprite_scales.empty() ? nullptr : d_scales.data(), d_order.data(),
                         static_cast<std::uint32_t>(order.size()), cam, background,
                         CompositeOutput{0, d_pixels.data()});
    CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    const std::vector<std::uint32_t> got = test::to_host(d_pixels.data(), d_pixels.size());
    CpuCompositor twin;
    CompositeImage want;
    twin.composite(vertices, order, cam, background, want, sprite_scales);
    std::size_t differing = 0, lit = 0;
    std::size_t first = got.size();
    for (std::size_t i = 0; i < got.size(); ++i) {
      lit += want.rgba8[i] != background ? 1 : 0;
      if (got[i] != want.rgba8[i]) {
        if (differing++ == 0) first = i;
      }
    }
    EXPECT_EQ(differing, 0u) << what << ": " << differing << " of " << got.size()
                             << " pixels differ, first at (" << first % cam.width << ", "
                             << first / cam.width << ")";
    if (!vertices.empty() && cam.width * cam.height > 64) {
      EXPECT_GT(lit, 0u) << what << ": nothing drawn, the comparison proves little";
    }
  }
};

TEST_F(CompositeKernels, EqualTheCpuTwinOnEveryImageShape) {
  TileCompositor compositor;
  const auto v = particles(20000, 1);
  const auto order = shuffled(v.size(), 2);
  for (auto [w, h] : {std::pair{1, 1}, {13, 7}, {8, 8}, {9, 17}, {320, 180}, {1280, 720}}) {
    expect_equal(compositor, v, order, camera(w, h, 0.05f),
                 std::to_string(w) + "x" + std::to_string(h));
  }
}

TEST_F(CompositeKernels, EqualTheCpuTwinForEverySpriteSize) {
  TileCompositor compositor;
  const auto v = particles(5000, 3);
  const auto order = shuffled(v.size(), 4);
  for (float size : {0.001f, 0.01f, 0.05f, 0.2f, 1.0f, 5.0f}) {
    expect_equal(compositor, v, order, camera(400, 300, size),
                 "sprite size " + std::to_string(size));
  }
  // The point-size clamp at a small maximum, as some GL implementations have.
  expect_equal(compositor, v, order, camera(400, 300, 1.0f, 63.0f), "clamped at 63 px");
}

TEST_F(CompositeKernels, EqualTheCpuTwinWithPerParticleSpriteScales) {
  // A model that sizes its sprites: each particle's scale (a tenth to twelve times the camera's
  // size, some sprites over many tiles) read through the draw order, as GL reads the attribute.
  TileCompositor compositor;
  const auto v = particles(8000, 12);
  const auto order = shuffled(v.size(), 13);
  std::mt19937 rng(14);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::vector<float> scales(v.size());
  for (float& s : scales) s = 0.1f + 11.9f * unit(rng) * unit(rng) * unit(rng);
  expect_equal(compositor, v, order, camera(640, 360, 0.1f), "per-particle scales", scales);
}

TEST_F(CompositeKernels, EqualTheCpuTwinWhenTileListsAreLong) {
  // A hundred thousand sprites on a few tiles: lists far longer than a block's batch.
  TileCompositor compositor;
  std::mt19937 rng(5);
  std::normal_distribution<float> pile(0.0f, 0.05f);
  std::vector<ParticleVertex> v(100000);
  for (std::size_t i = 0; i < v.size(); ++i) {
    v[i] = {pile(rng), pile(rng), pile(rng),
            pack_rgba8({float(i % 7) / 7.0f, float(i % 5) / 5.0f, 0.5f, 0.3f})};
  }
  std::vector<std::uint32_t> order(v.size());
  std::iota(order.begin(), order.end(), 0u);
  expect_equal(compositor, v, order, camera(640, 360, 0.02f), "a pile");
  EXPECT_GT(compositor.longest_tile_list(cudaStream_t{}), 2048u) << "no tile is heavy";
  // Sprites of every size on the long lists, so that each band's list holds sprites that reach
  // one band, several and the whole tile; and the same frame in passes whose tiles stay long.
  std::vector<float> scales(v.size());
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  for (float& s : scales) s = 0.05f + 20.0f * unit(rng) * unit(rng) * unit(rng);
  expect_equal(compositor, v, order, camera(640, 360, 0.02f), "a pile, sizes", scales);
  TileCompositor in_passes(60000);
  expect_equal(in_passes, v, order, camera(640, 360, 0.02f), "a pile, sizes, passes", scales);
  EXPECT_GT(in_passes.last_passes(), 1u);
  EXPECT_GT(in_passes.longest_tile_list(cudaStream_t{}), 2048u) << "no band lists were made";
}

TEST_F(CompositeKernels, FramesSplitIntoPassesEqualOnePass) {
  // A pass limit far below the frame's entries: consecutive draw positions pass by pass, each
  // blending over the last; one sprite over the limit takes a pass of its own.
  TileCompositor small(2000);
  const auto v = particles(30000, 6);
  const auto order = shuffled(v.size(), 7);
  expect_equal(small, v, order, camera(640, 360, 0.1f), "passes of 2000 entries");
  EXPECT_GT(small.last_passes(), 10u);
  TileCompositor tiny(10);
  expect_equal(tiny, particles(300, 8), shuffled(300, 9), camera(200, 100, 0.8f),
               "passes of 10 entries");
  EXPECT_GT(tiny.last_passes(), 30u);
}

TEST_F(CompositeKernels, SpritesLargerThanTheScreen) {
  // A few particles just in front of the eye, on its line of sight to the origin: each sprite
  // covers every tile of a 4K image.
  TileCompositor compositor;
  std::vector<ParticleVertex> v;
  for (int i = 0; i < 6; ++i) {
    const float t = 0.97f - 0.002f * float(i);  // from the origin (0) to the eye (1)
    v.push_back({0.3f * t + 0.001f * float(i), 0.2f * t, 6.0f * t,
                 pack_rgba8({1.0f, 0.2f * float(i), 0.1f, 0.3f})});
  }
  std::vector<std::uint32_t> order(v.size());
  std::iota(order.begin(), order.end(), 0u);
  expect_equal(compositor, v, order, camera(3840, 2160, 0.5f), "full-screen sprites");
  EXPECT_GE(compositor.last_entries(), 6u * 480u * 270u / 2u);
}

TEST_F(CompositeKernels, EmptyFramesAndChangingCounts) {
  // Nothing to draw gives the background; buffers sized for one count serve smaller and larger
  // ones after it.
  TileCompositor compositor;
  expect_equal(compositor, {}, {}, camera(64, 48, 0.1f), "no particles");
  for (std::size_t n : {10000u, 100u, 50000u, 1u, 20000u}) {
    expect_equal(compositor, particles(n, static_cast<std::uint32_t>(n)), shuffled(n, 11),
                 camera(300, 200, 0.08f), std::to_string(n) + " particles");
  }
}

// The comparison view's kernel against compose_split_view and compose_heat_view: random images
// of odd and even widths (the divider's place), written to linear pixels and in place over the
// drawn image.
TEST_F(CompositeKernels, CompareViewEqualsItsCpuTwins) {
  std::mt19937 rng(5);
  for (const auto& [width, height] : {std::pair{1, 1}, {2, 3}, {37, 11}, {320, 181}}) {
    const std::size_t pixels = static_cast<std::size_t>(width) * height;
    CompositeImage exact{width, height, std::vector<std::uint32_t>(pixels)};
    CompositeImage drawn{width, height, std::vector<std::uint32_t>(pixels)};
    for (std::size_t i = 0; i < pixels; ++i) {
      exact.rgba8[i] = rng();
      // Mostly small differences, some equal pixels, a few far apart.
      drawn.rgba8[i] =
          i % 5 == 0 ? exact.rgba8[i] : (i % 7 == 0 ? rng() : exact.rgba8[i] ^ (rng() & 0x070707u));
    }
    for (const CompareMode mode : kAllCompareModes) {
      CompositeImage want = drawn;
      if (mode == CompareMode::split) {
        compose_split_view(exact, want);
      } else {
        compose_heat_view(exact, want);
      }
      const auto d_exact = test::to_device(exact.rgba8);
      auto d_drawn = test::to_device(drawn.rgba8);
      DeviceBuffer<std::uint32_t> out(pixels);
      compose_compare_view(mode, d_exact.data(), d_drawn.data(), width, height,
                           CompositeOutput{0, out.data()}, nullptr);
      const std::string what =
          std::string(to_string(mode)) + " " + std::to_string(width) + "x" + std::to_string(height);
      EXPECT_EQ(test::to_host(out.data(), pixels), want.rgba8) << what;
      compose_compare_view(mode, d_exact.data(), d_drawn.data(), width, height,
                           CompositeOutput{0, d_drawn.data()}, nullptr);
      EXPECT_EQ(test::to_host(d_drawn.data(), pixels), want.rgba8) << what << ", in place";
    }
  }
}

}  // namespace
}  // namespace particles::cuda
