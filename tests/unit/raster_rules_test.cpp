// The compositor's raster rules (core/composite/sprite.hpp) against samples that two real GLs
// produced (tests/data/raster/*.txt, cut from bench/raster_rules_probe dumps by
// scripts/raster_fixture.py): each known rule set reproduces every sample of its own GL, and gets
// some of the other GL's wrong, so the samples tell the rules apart.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/composite/sprite.hpp"

namespace particles {
namespace {

struct StoreSample {
  float value;
  std::uint32_t byte;
};
struct BlendSample {
  std::uint32_t destination;
  float channel, alpha;
  std::uint32_t byte;
};
struct PointSample {
  float x, y, size;                        // window position and size given to GL
  int first_x, last_x, first_y, last_y;    // the pixels GL drew
  float first_s, first_t, last_s, last_t;  // gl_PointCoord at the first and last of them
};
struct Samples {
  std::vector<StoreSample> stores;
  std::vector<BlendSample> blends;
  std::vector<PointSample> points;
};

float hex_float(const std::string& text) {
  return std::strtof(text.c_str(), nullptr);
}

Samples load(const std::string& name) {
  std::ifstream in(std::string(PARTICLES_TEST_DATA_DIR) + "/raster/" + name);
  EXPECT_TRUE(in) << name;
  Samples s;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string kind, a, b, c, d;
    words >> kind;
    if (kind == "store") {
      words >> a >> b;
      s.stores.push_back({hex_float(a), static_cast<std::uint32_t>(std::stoul(b))});
    } else if (kind == "blend") {
      words >> a >> b >> c >> d;
      s.blends.push_back({static_cast<std::uint32_t>(std::stoul(a)), hex_float(b), hex_float(c),
                          static_cast<std::uint32_t>(std::stoul(d))});
    } else if (kind == "point") {
      PointSample p{};
      std::string x, y, size, fs, ft, ls, lt;
      words >> x >> y >> size >> p.first_x >> p.last_x >> p.first_y >> p.last_y >> fs >> ft >> ls >>
          lt;
      p.x = hex_float(x);
      p.y = hex_float(y);
      p.size = hex_float(size);
      p.first_s = hex_float(fs);
      p.first_t = hex_float(ft);
      p.last_s = hex_float(ls);
      p.last_t = hex_float(lt);
      s.points.push_back(p);
    }
  }
  return s;
}

std::size_t store_mismatches(const Samples& s, Unorm8Store store) {
  std::size_t wrong = 0;
  for (const StoreSample& x : s.stores) wrong += float_to_unorm8(x.value, store) != x.byte;
  return wrong;
}

std::size_t blend_mismatches(const Samples& s, const RasterRules& rules) {
  std::size_t wrong = 0;
  for (const BlendSample& x : s.blends) {
    const std::uint32_t fragment =
        float_to_unorm8(x.channel, rules.store) | float_to_unorm8(x.alpha, rules.store) << 24;
    const std::uint32_t out =
        blend_premultiplied_unorm8(x.destination | 0xff000000u, fragment, rules.product);
    wrong += (out & 0xffu) != x.byte;
  }
  return wrong;
}

// Each point through project_sprite, as the compositor places a particle: a 1024 x 1024 viewport,
// identity matrices, the particle at view depth 1 with the diameter that makes GL's point size.
std::size_t point_mismatches(const Samples& s, const RasterRules& rules) {
  SpriteCamera camera;
  camera.width = camera.height = 1024;
  camera.point_size_min = 1.0f;
  camera.point_size_max = 2047.0f;
  camera.rules = rules;
  std::size_t wrong = 0;
  for (const PointSample& p : s.points) {
    camera.sprite_size = p.size / 512.0f;
    const ParticleVertex v{(p.x - 512.0f) / 512.0f, (p.y - 512.0f) / 512.0f, -1.0f, 0xffffffffu};
    const ProjectedSprite sprite = project_sprite(camera, v);
    EXPECT_TRUE(sprite.visible);
    const float half = 0.5f * sprite.size;
    // Pixels whose centres lie in [x - half, x + half).
    const int first_x = static_cast<int>(std::ceil(sprite.x - half - 0.5f));
    const int last_x = static_cast<int>(std::ceil(sprite.x + half - 0.5f)) - 1;
    const int first_y = static_cast<int>(std::ceil(sprite.y - half - 0.5f));
    const int last_y = static_cast<int>(std::ceil(sprite.y + half - 0.5f)) - 1;
    auto coord = [&](int px, int py, float gl_s, float gl_t) {
      const float s_coord = 0.5f + (static_cast<float>(px) + 0.5f - sprite.x) / sprite.size;
      const float t_coord = 0.5f - (static_cast<float>(py) + 0.5f - sprite.y) / sprite.size;
      // llvmpipe's gl_PointCoord strays up to 7.5e-4 from the exact value; NVIDIA's is exact.
      return std::abs(s_coord - gl_s) <= 1e-3f && std::abs(t_coord - gl_t) <= 1e-3f;
    };
    wrong += first_x != p.first_x || last_x != p.last_x || first_y != p.first_y ||
             last_y != p.last_y || !coord(p.first_x, p.first_y, p.first_s, p.first_t) ||
             !coord(p.last_x, p.last_y, p.last_s, p.last_t);
  }
  return wrong;
}

struct Gl {
  const char* file;
  RasterRules rules, other;
  // llvmpipe snaps the corners of a point's square to its sub-pixel grid, which the compositor does
  // not model: one point of the 256 gains a column of fragments whose centres lie 7e-4 px outside
  // its square (a corner of the square, outside the disc the shader keeps, for all but tiny
  // points).
  std::size_t points_allowed_wrong;
};

class RasterRulesOfGl : public ::testing::TestWithParam<Gl> {};

TEST_P(RasterRulesOfGl, StoreEveryFragmentByteAsThatGlDoes) {
  const Samples s = load(GetParam().file);
  ASSERT_GE(s.stores.size(), 300u);
  EXPECT_EQ(store_mismatches(s, GetParam().rules.store), 0u);
  EXPECT_GT(store_mismatches(s, GetParam().other.store), 100u);
}

TEST_P(RasterRulesOfGl, BlendEveryByteAsThatGlDoes) {
  const Samples s = load(GetParam().file);
  ASSERT_GE(s.blends.size(), 300u);
  EXPECT_EQ(blend_mismatches(s, GetParam().rules), 0u);
  RasterRules other_product = GetParam().rules;
  other_product.product = GetParam().other.product;
  EXPECT_GT(blend_mismatches(s, other_product), 50u);  // the fixture's ties
}

TEST_P(RasterRulesOfGl, PlacePointsAsThatGlDoes) {
  const Samples s = load(GetParam().file);
  ASSERT_EQ(s.points.size(), 256u);
  EXPECT_LE(point_mismatches(s, GetParam().rules), GetParam().points_allowed_wrong);
  EXPECT_GT(point_mismatches(s, GetParam().other), 50u);
}

INSTANTIATE_TEST_SUITE_P(
    Samples, RasterRulesOfGl,
    ::testing::Values(Gl{"nvidia_h200.txt", kNvidiaRules, kLlvmpipeRules, 0},
                      Gl{"llvmpipe.txt", kLlvmpipeRules, kNvidiaRules, 1}),
    [](const ::testing::TestParamInfo<Gl>& p) {
      return std::string(p.param.file).substr(0, std::string(p.param.file).find('.'));
    });

TEST(RasterRules, StoreRulesAtTheirEdges) {
  // Exact values: 0 and 1 map to 0 and 255 under both rules.
  for (Unorm8Store rule : {Unorm8Store::nearest_even, Unorm8Store::via_12_bit_fraction}) {
    EXPECT_EQ(float_to_unorm8(0.0f, rule), 0u);
    EXPECT_EQ(float_to_unorm8(1.0f, rule), 255u);
    EXPECT_EQ(float_to_unorm8(-1.0f, rule), 0u);
    EXPECT_EQ(float_to_unorm8(2.0f, rule), 255u);
    EXPECT_EQ(float_to_unorm8(std::nanf(""), rule), 0u);
  }
  // 8.508/255 lies past the half: nearest gives 9, a 12-bit fraction (8.508/255 * 4096 = 136.7,
  // kept 136, (136 - 0 + 7) / 16 = 8) gives 8.
  EXPECT_EQ(float_to_unorm8(8.508f / 255.0f, Unorm8Store::nearest_even), 9u);
  EXPECT_EQ(float_to_unorm8(8.508f / 255.0f, Unorm8Store::via_12_bit_fraction), 8u);
}

TEST(RasterRules, BlendProductsPartOnlyAtTies) {
  // 241 * 173 = 41693 = 163.5 * 255: rounded ties go up, the shifted sum lands below.
  const std::uint32_t dst = 241u, src = 82u << 24;  // keep = 255 - 82 = 173
  EXPECT_EQ(blend_premultiplied_unorm8(dst, src, BlendProduct::rounded) & 0xffu, 164u);
  EXPECT_EQ(blend_premultiplied_unorm8(dst, src, BlendProduct::shifted_sum) & 0xffu, 163u);
  std::size_t parted = 0;
  for (std::uint32_t d = 0; d < 256; ++d) {
    for (std::uint32_t a = 0; a < 256; ++a) {
      const std::uint32_t r = blend_premultiplied_unorm8(d, a << 24, BlendProduct::rounded) & 0xffu;
      const std::uint32_t s =
          blend_premultiplied_unorm8(d, a << 24, BlendProduct::shifted_sum) & 0xffu;
      const double exact = double(d) * double(255 - a) / 255.0;
      EXPECT_LE(std::abs(double(r) - exact), 0.5) << d << " " << a;
      // The shifted sum approximates the division: a few products land 1/510 past the half.
      EXPECT_LE(std::abs(double(s) - exact), 0.5 + 1.0 / 255.0) << d << " " << a;
      parted += r != s;
    }
  }
  EXPECT_GT(parted, 0u);
}

}  // namespace
}  // namespace particles
