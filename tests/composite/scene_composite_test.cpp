// Every shipped scene, every algorithm and the unsorted order, on each backend present: the
// frame's float image from the composite renderer against GL's rasterization of the same frame
// into the float render target (the backend's buffers, drawn after it), and on the CUDA backend
// the kernels' image against the CPU twin's of the same vertices and order: equal bit for bit
// where a tile's list is one blend chunk, and within 1/1024 (the transmittance floor) where the
// chunks' sums are added in another order.
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "app/gl/gl_context.hpp"
#include "app/gl/particle_buffers.hpp"
#include "app/gl/particle_renderer.hpp"
#include "app/gl/render_target.hpp"
#include "app/main/backend.hpp"
#include "app/main/scene_draw.hpp"
#include "app/scene/scene_loader.hpp"
#include "core/camera.hpp"
#include "core/composite/cpu_compositor.hpp"
#include "image_compare.hpp"
#include "tests/support/gl_test_fixture.hpp"

namespace particles::test {
namespace {

std::vector<std::filesystem::path> shipped_scenes() {
  std::vector<std::filesystem::path> scenes;
  for (const auto& entry : std::filesystem::directory_iterator(PARTICLES_SCENES_DIR)) {
    if (entry.path().extension() == ".toml") scenes.push_back(entry.path());
  }
  std::sort(scenes.begin(), scenes.end());
  return scenes;
}

struct Case {
  std::string backend;
  int width, height;
};

class SceneComposite : public gl::test::GlTest, public ::testing::WithParamInterface<Case> {
 protected:
  void SetUp() override {
    GlTest::SetUp();
    if (IsSkipped()) return;
    if (GetParam().backend == "cuda") {
      std::string why;
      backend_ = make_cuda_backend(why);
      if (!backend_) GTEST_SKIP() << why;
    } else {
      backend_ = make_cpu_backend();
    }
  }

  std::unique_ptr<Backend> backend_;
};

TEST_P(SceneComposite, MatchesRasterOnEveryScene) {
  const Case c = GetParam();
  const bool on_cuda = c.backend == "cuda";
  gl::ParticleBuffers buffers;
  gl::RenderTarget composite_target({c.width, c.height});
  gl::RenderTarget raster_target({c.width, c.height});
  gl::ParticleRenderer renderer;
  CpuCompositor twin;
  std::cout << "  " << context_->renderer_description() << '\n';
  const std::vector<std::filesystem::path> scenes = shipped_scenes();
  ASSERT_GE(scenes.size(), 3u);
  for (const auto& path : scenes) {
    const SceneDesc scene = load_scene(path);
    // Enough particles for the scene's look and its piles of faint sprites, few enough for CI.
    const std::uint32_t count = on_cuda ? std::min<std::uint32_t>(scene.count, 1u << 20) : 40000u;
    struct Order {
      Algorithm algorithm;
      bool sort;
    };
    std::vector<Order> orders;
    for (Algorithm a : kAllAlgorithms) orders.push_back({a, true});
    orders.push_back({Algorithm::radix, false});
    for (const Order& order : orders) {
      backend_->reset(scene.params, count, buffers);
      ReplayCamera replay(scene, {c.width, c.height});
      const int frames = 12;
      for (int f = 0; f < frames; ++f) {
        const CameraMatrices camera = replay.at_frame(f);
        FrameSettings settings;
        settings.dt = scene.time_step;
        settings.view = depth_frame(camera);
        settings.algorithm = order.algorithm;
        settings.order = order.sort ? DrawOrder::exact : DrawOrder::unsorted;
        const gl::DrawParams draw = scene_draw_params(scene, count, camera, {c.width, c.height});
        CompositeRequest request = composite_request(draw, renderer, composite_target);
        request.read_back = f + 1 == frames;
        replay.frame_on(backend_->run_frame(settings, &request));
        if (f + 1 < frames) continue;
        renderer.draw(raster_target, buffers, draw);
        const std::vector<PixelF> raster = raster_target.read_float_pixels();
        const std::vector<PixelF> composite = composite_target.read_float_pixels();
        const ImageDifference d = compare(raster, composite, request.background);
        const std::string what = scene.name + ", " + std::string(to_string(order.algorithm)) +
                                 (order.sort ? "" : " unsorted") + ", " + c.backend + " " +
                                 std::to_string(c.width) + "x" + std::to_string(c.height);
        std::cout << "  " << what << ": " << d << '\n';
        EXPECT_TRUE(d.same_image()) << what << ": " << d;
        EXPECT_GT(d.lit, std::size_t(c.width * c.height / 50)) << what << ": too little drawn";
        if (on_cuda) {
          // The kernels against their CPU twin on the very vertices and order they read.
          const auto vertices = buffers.read_vertices();
          const auto draw_order = buffers.read_order();
          const auto sprite_scales = buffers.read_sprite_scales();
          CompositeImage expected;
          twin.composite(vertices, draw_order, request.camera, request.background, expected,
                         sprite_scales);
          const ImageDifference twins = compare(composite, expected.pixels, request.background);
          std::cout << "  " << what << ", CUDA against the CPU twin: " << twins << '\n';
          EXPECT_LE(twins.max, 255.0f * kTransmittanceFloor) << what << ": " << twins;
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, SceneComposite,
                         ::testing::Values(Case{"cpu", 320, 180}, Case{"cpu", 1280, 720},
                                           Case{"cuda", 320, 180}, Case{"cuda", 1280, 720},
                                           Case{"cuda", 3840, 2160}),
                         [](const ::testing::TestParamInfo<Case>& p) {
                           return p.param.backend + "_" + std::to_string(p.param.width) + "x" +
                                  std::to_string(p.param.height);
                         });

}  // namespace
}  // namespace particles::test
