// The renderer table (core/renderer_kind.hpp): every renderer has one row, its names read back,
// the R key's cycle visits each renderer a backend implements once, the help texts list every
// renderer, and each composited renderer's CPU twin is reached through the Compositor interface
// (core/composite/compositor.hpp) as the CPU backend reaches it, drawing what the twin draws.
#include "core/renderer_kind.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "core/composite/compositor.hpp"
#include "core/composite/cpu_compositor.hpp"
#include "core/composite/cpu_stochastic.hpp"
#include "core/composite/cpu_weighted_blended.hpp"

namespace particles {
namespace {

TEST(RendererTable, EveryRendererHasOneRowAndItsNameReadsBack) {
  std::set<RendererKind> kinds;
  std::set<std::string_view> names;
  for (std::size_t i = 0; i < kRendererCount; ++i) {
    const RendererInfo& r = kRenderers[i];
    EXPECT_TRUE(kinds.insert(r.kind).second) << r.name << " has two rows";
    EXPECT_TRUE(names.insert(r.name).second) << r.name << " named twice";
    EXPECT_EQ(renderer_index(r.kind), i) << r.name;
    EXPECT_EQ(&renderer_info(r.kind), &kRenderers[i]) << r.name;
    EXPECT_EQ(to_string(r.kind), r.name);
    EXPECT_EQ(renderer_from_string(r.name), r.kind);
    EXPECT_EQ(kAllRenderers[i], r.kind);
    EXPECT_FALSE(r.description.empty()) << r.name;
    EXPECT_FALSE(r.timed_as.empty()) << r.name;
    EXPECT_TRUE(r.on_cpu || r.on_cuda) << r.name << " runs nowhere";
  }
  EXPECT_FALSE(renderer_from_string("gl").has_value());
  EXPECT_FALSE(renderer_from_string("").has_value());
  // The renderer every measure of pixels off composites with must be one that composites.
  EXPECT_TRUE(is_composited(kPixelsOffRenderer));
  EXPECT_TRUE(renderer_runs_on(kPixelsOffRenderer, "cpu"));
  EXPECT_TRUE(renderer_runs_on(kPixelsOffRenderer, "cuda"));
}

TEST(RendererTable, TheListsAndHelpTextsNameEveryRenderer) {
  std::vector<std::string> expected;
  for (const RendererInfo& r : kRenderers) expected.emplace_back(r.name);
  EXPECT_EQ(renderer_names(), expected);
  const std::string joined = renderer_names_text("|");
  const std::string described = renderer_descriptions();
  for (const RendererInfo& r : kRenderers) {
    EXPECT_NE(joined.find(r.name), std::string::npos) << r.name;
    EXPECT_NE(described.find(std::string(r.name) + " (" + std::string(r.description) + ")"),
              std::string::npos)
        << r.name;
  }
  EXPECT_EQ(renderer_names_text("|"), "raster|composite|wboit|stochastic");
  EXPECT_EQ(renderers_on("nowhere"), std::vector<RendererKind>{});
}

// What R does: from any renderer, stepping visits every renderer the backend implements exactly
// once and comes back, never one it does not implement.
TEST(RendererTable, TheCycleVisitsEveryRendererOfTheBackendOnce) {
  for (const char* backend : {"cpu", "cuda"}) {
    const std::vector<RendererKind> offered = renderers_on(backend);
    ASSERT_FALSE(offered.empty()) << backend;
    for (const RendererKind start : offered) {
      std::set<RendererKind> seen;
      RendererKind r = start;
      for (std::size_t step = 0; step < offered.size(); ++step) {
        EXPECT_TRUE(seen.insert(r).second) << backend << ": " << to_string(r) << " twice";
        EXPECT_TRUE(renderer_runs_on(r, backend)) << backend << ": " << to_string(r);
        r = next_renderer(r, backend);
      }
      EXPECT_EQ(r, start) << backend;
      EXPECT_EQ(seen.size(), offered.size()) << backend;
    }
  }
  // The CPU backend cycles through all four; the CUDA backend, which has no sort-free kernels
  // yet, flips between the sorted two.
  EXPECT_EQ(next_renderer(RendererKind::raster, "cpu"), RendererKind::composite);
  EXPECT_EQ(next_renderer(RendererKind::composite, "cpu"), RendererKind::weighted_blended);
  EXPECT_EQ(next_renderer(RendererKind::stochastic, "cpu"), RendererKind::raster);
  EXPECT_EQ(next_renderer(RendererKind::composite, "cuda"), RendererKind::raster);
  EXPECT_FALSE(renderer_runs_on(RendererKind::weighted_blended, "cuda"));
  EXPECT_EQ(next_renderer(RendererKind::raster, "nowhere"), RendererKind::raster);
}

// The CPU backend makes a composited renderer's image through make_cpu_compositor; every
// composited renderer that runs on the CPU has a twin there, and a GL-drawn one has none.
TEST(RendererTable, EveryCompositedCpuRendererHasACompositor) {
  for (const RendererInfo& r : kRenderers) {
    const bool composited_on_cpu = r.path == RendererPath::composited && r.on_cpu;
    EXPECT_EQ(make_cpu_compositor(r.kind) != nullptr, composited_on_cpu) << r.name;
  }
}

SpriteCamera looking_down_z() {
  SpriteCamera camera;
  camera.width = 40;
  camera.height = 30;
  camera.projection[11] = -1.0f;  // w = -z: a perspective divide
  camera.projection[15] = 0.0f;
  camera.projection[10] = 0.5f;
  camera.sprite_size = 2.0f;  // several pixels wide at these depths
  camera.point_size_max = 256.0f;
  return camera;
}

// Three overlapping sprites of different sizes and colours, an order and its reverse: what the
// renderers are drawn through the interface with.
struct ThreeSprites {
  std::vector<ParticleVertex> vertices = {{0.0f, 0.0f, -4.0f, 0xc0ff8020u},
                                          {0.1f, 0.05f, -3.0f, 0x8020a0ffu},
                                          {-0.1f, 0.0f, -5.0f, 0xa040ff40u}};
  std::vector<float> scales = {1.0f, 1.5f, 0.8f};
  std::vector<std::uint32_t> order = {2, 0, 1}, reversed = {1, 0, 2};
  SpriteCamera camera = looking_down_z();
  PixelF background = premultiplied(0.1f, 0.1f, 0.2f, 1.0f);
};

// The composite renderer through the interface is the tile compositor's twin, order and sprite
// scales passed through: the same pixels, and a different order gives a different image.
TEST(RendererTable, TheCompositeRendersTwinThroughTheInterfaceDrawsTheTwinsImage) {
  const ThreeSprites scene;
  const auto& [vertices, scales, order, reversed, camera, background] = scene;
  const std::unique_ptr<Compositor> renderer = make_cpu_compositor(RendererKind::composite);
  ASSERT_NE(renderer, nullptr);
  CompositeImage through, twin, other;
  renderer->composite({vertices, scales, order}, camera, background, through);
  CpuCompositor().composite(vertices, order, camera, background, twin, scales);
  EXPECT_EQ(through.width, 40);
  EXPECT_EQ(through.height, 30);
  EXPECT_EQ(through.pixels, twin.pixels);
  std::size_t lit = 0;
  for (const PixelF& p : through.pixels) lit += !(p == background);
  EXPECT_GT(lit, 20u) << "the sprites should show";
  renderer->composite({vertices, scales, reversed}, camera, background, other);
  EXPECT_NE(other.pixels, through.pixels);
}

// The sort-free renderers through the interface are their twins (weighted blended OIT, and
// stochastic transparency at its default settings), and need no order: a reversed one gives the
// same image within float rounding. Both differ from the sorted composite where sprites overlap.
TEST(RendererTable, TheSortFreeRenderersDrawTheirTwinsImagesInAnyOrder) {
  const ThreeSprites scene;
  const auto& [vertices, scales, order, reversed, camera, background] = scene;
  CompositeImage exact;
  CpuCompositor().composite(vertices, order, camera, background, exact, scales);
  for (const RendererKind kind : {RendererKind::weighted_blended, RendererKind::stochastic}) {
    const std::unique_ptr<Compositor> renderer = make_cpu_compositor(kind);
    ASSERT_NE(renderer, nullptr) << to_string(kind);
    CompositeImage through, twin, other;
    renderer->composite({vertices, scales, order}, camera, background, through);
    if (kind == RendererKind::weighted_blended) {
      CpuWeightedBlended().composite(vertices, order, camera, background, twin, scales);
    } else {
      CpuStochastic().composite(vertices, order, camera, background, StochasticSettings{}, twin,
                                scales);
    }
    EXPECT_EQ(through.pixels, twin.pixels) << to_string(kind);
    renderer->composite({vertices, scales, reversed}, camera, background, other);
    ASSERT_EQ(other.pixels.size(), through.pixels.size());
    float largest = 0.0f, from_exact = 0.0f;
    for (std::size_t i = 0; i < through.pixels.size(); ++i) {
      const PixelF& t = through.pixels[i];
      const PixelF& o = other.pixels[i];
      const PixelF& e = exact.pixels[i];
      for (const float d : {o.r - t.r, o.g - t.g, o.b - t.b, o.a - t.a})
        largest = std::max(largest, std::fabs(d));
      for (const float d : {e.r - t.r, e.g - t.g, e.b - t.b, e.a - t.a})
        from_exact = std::max(from_exact, std::fabs(d));
    }
    EXPECT_LE(largest, 1e-5f) << to_string(kind) << ": the order changed the image";
    EXPECT_GT(from_exact, 1.0f / 255.0f) << to_string(kind) << ": no different from the sorted one";
  }
}

}  // namespace
}  // namespace particles
