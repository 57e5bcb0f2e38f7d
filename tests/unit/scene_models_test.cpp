// The scene models on the CPU: the exact-arithmetic helpers against the C library, and each
// model's own promise (what it keeps, where it respawns, what stays a pure function of the
// seed). The GPU tests (tests/gpu/stage_sim_test.cpp) check that the kernels agree with these.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/models/model_names.hpp"
#include "core/scene_models.hpp"
#include "tests/unit/test_points.hpp"

namespace particles {
namespace {

ModelParams params_of(Model model) {
  ModelParams m;
  m.model = model;
  m.seed = 11;
  return test::with_test_points(m);
}

TEST(ExactMath, SinCosAtan2MatchTheCLibrary) {
  for (int i = -4000; i <= 4000; ++i) {
    const float x = 0.0125f * static_cast<float>(i);  // [-50, 50]
    // The reduction's rounding of x / 2 pi costs accuracy in proportion to |x|.
    const float tolerance = 1e-6f + 1e-7f * std::fabs(x);
    ASSERT_NEAR(exact_sin(x), std::sin(x), tolerance) << x;
    ASSERT_NEAR(exact_cos(x), std::cos(x), tolerance) << x;
  }
  for (int i = 0; i < 720; ++i) {
    const float a = kTwoPi * static_cast<float>(i) / 720.0f;
    for (float r : {0.001f, 1.0f, 1000.0f}) {
      const float y = r * std::sin(a), x = r * std::cos(a);
      ASSERT_NEAR(exact_atan2(y, x), std::atan2(y, x), 2e-5f) << a << " r " << r;
    }
  }
  EXPECT_EQ(exact_atan2(0.0f, 0.0f), 0.0f);
}

TEST(ExactMath, SmallTurnsKeepLengthAndTurnAboutTheAngle) {
  for (float a : {-0.3f, -0.01f, 0.0f, 0.002f, 0.1f, 0.3f}) {
    const Turn t = small_turn(a);
    EXPECT_NEAR(t.c * t.c + t.s * t.s, 1.0f, 1e-6f);
    EXPECT_NEAR(std::atan2(t.s, t.c), a, 0.01f * std::fabs(a) + 1e-7f);
  }
  Vec3 v{1.0f, 2.0f, -0.5f};
  const Vec3 k = Vec3{0.0f, 0.8f, 0.6f};
  const float len = length(v), along = dot(v, k);
  for (int i = 0; i < 10000; ++i) v = turn_about(v, k, small_turn(0.01f));
  EXPECT_NEAR(length(v), len, 1e-3f);
  EXPECT_NEAR(dot(v, k), along, 1e-3f);
}

TEST(ExactMath, NoiseGradientIsTheDerivativeAndCurlIsDivergenceFree) {
  const float h = 1e-3f;
  for (int i = 0; i < 50; ++i) {
    const Vec3 p{0.37f * static_cast<float>(i), 1.3f - 0.11f * static_cast<float>(i),
                 0.05f * static_cast<float>(i * i % 17)};
    const NoiseSample n = value_noise(p, 7u);
    EXPECT_GE(n.value, -1.0f);
    EXPECT_LE(n.value, 1.0f);
    const float dx =
        (value_noise(p + Vec3{h, 0, 0}, 7u).value - value_noise(p - Vec3{h, 0, 0}, 7u).value) /
        (2.0f * h);
    const float dz =
        (value_noise(p + Vec3{0, 0, h}, 7u).value - value_noise(p - Vec3{0, 0, h}, 7u).value) /
        (2.0f * h);
    EXPECT_NEAR(n.gradient.x, dx, 0.02f) << i;
    EXPECT_NEAR(n.gradient.z, dz, 0.02f) << i;
    const float div = (curl_noise(p + Vec3{h, 0, 0}, 3u).x - curl_noise(p - Vec3{h, 0, 0}, 3u).x +
                       curl_noise(p + Vec3{0, h, 0}, 3u).y - curl_noise(p - Vec3{0, h, 0}, 3u).y +
                       curl_noise(p + Vec3{0, 0, h}, 3u).z - curl_noise(p - Vec3{0, 0, h}, 3u).z) /
                      (2.0f * h);
    EXPECT_NEAR(div, 0.0f, 0.05f) << i;
  }
}

TEST(ExactMath, RandomDirectionsAreUnitAndSpread) {
  RandomStream rs{5};
  Vec3 sum{};
  for (int i = 0; i < 4000; ++i) {
    const Vec3 d = random_direction(rs);
    ASSERT_NEAR(length(d), 1.0f, 1e-5f);
    sum = sum + d;
  }
  EXPECT_LT(length(sum) / 4000.0f, 0.05f);
}

class EveryModel : public ::testing::TestWithParam<Model> {};

// Ten simulated seconds of every model stay finite, keep or advance each seed by one hash a step
// at most (how the GPU tests tell particles apart), and sum the ages exactly.
TEST_P(EveryModel, StepsStayFiniteAndLivesAdvanceOneHashAtMost) {
  const ModelParams m = params_of(GetParam());
  for (std::uint32_t i = 0; i < 300; ++i) {
    ParticleState s = model_init(m, i);
    for (int step = 0; step < 600; ++step) {
      const std::uint32_t seed = s.seed;
      model_step(m, s, 1.0f / 60.0f);
      ASSERT_TRUE(s.seed == seed || s.seed == hash_u32(seed)) << i << " step " << step;
      for (float v : {s.px, s.py, s.pz, s.vx, s.vy, s.vz, s.age}) {
        ASSERT_TRUE(std::isfinite(v)) << i << " step " << step;
      }
      const ParticleVertex vertex = model_vertex(m, s);
      ASSERT_EQ(vertex.x, s.px);
    }
  }
}

TEST_P(EveryModel, InitIsAPureFunctionOfTheIndex) {
  const ModelParams m = params_of(GetParam());
  const ParticleState a = model_init(m, 42), b = model_init(m, 42), c = model_init(m, 43);
  EXPECT_EQ(0, std::memcmp(&a, &b, sizeof a));
  EXPECT_NE(0, std::memcmp(&a, &c, sizeof a));
}

TEST_P(EveryModel, ZeroStepsAndColoursAreInRange) {
  const ModelParams m = params_of(GetParam());
  for (std::uint32_t i = 0; i < 2000; ++i) {
    const Color c = model_color(m, model_init(m, i));
    for (float v : {c.r, c.g, c.b, c.a}) {
      ASSERT_TRUE(std::isfinite(v)) << i;
      ASSERT_GE(v, 0.0f) << i;
      ASSERT_LE(v, 1.0f + 1e-6f) << i;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Models, EveryModel, ::testing::ValuesIn(kAllModels),
                         [](const auto& p) { return std::string(to_string(p.param)); });

// A channel's byte: clamped to [0, 1], rounded to nearest, as GL stores a float in an 8-bit
// normalized channel; NaN gives 0. Every level's centre and both its edges, and beyond [0, 1].
TEST(PackRgba8, ChannelsRoundToNearestAndClamp) {
  for (int level = 0; level < 256; ++level) {
    const float centre = static_cast<float>(level) / 255.0f;
    EXPECT_EQ(unorm8_byte(centre), static_cast<std::uint32_t>(level)) << level;
    const float below = (static_cast<float>(level) - 0.49f) / 255.0f;
    const float above = (static_cast<float>(level) + 0.49f) / 255.0f;
    if (level > 0) {
      EXPECT_EQ(unorm8_byte(below), static_cast<std::uint32_t>(level)) << level;
    }
    if (level < 255) {
      EXPECT_EQ(unorm8_byte(above), static_cast<std::uint32_t>(level)) << level;
    }
  }
  EXPECT_EQ(unorm8_byte(-0.3f), 0u);
  EXPECT_EQ(unorm8_byte(-1e30f), 0u);
  EXPECT_EQ(unorm8_byte(1.7f), 255u);
  EXPECT_EQ(unorm8_byte(1e30f), 255u);
  EXPECT_EQ(unorm8_byte(std::numeric_limits<float>::infinity()), 255u);
  EXPECT_EQ(unorm8_byte(std::numeric_limits<float>::quiet_NaN()), 0u);
  EXPECT_EQ(pack_rgba8({1.0f, 0.0f, 0.5f, 2.0f}), 0xff8000ffu);
}

TEST(ModelNames, RoundTrip) {
  for (Model m : kAllModels) EXPECT_EQ(model_from_string(to_string(m)), m);
  EXPECT_FALSE(model_from_string("nebula").has_value());
}

TEST(SmokeModel, NewLivesStartAtTheVent) {
  const ModelParams m = params_of(Model::smoke);
  const SmokeParams& p = m.smoke;
  int respawns = 0;
  for (std::uint32_t i = 0; i < 200; ++i) {
    ParticleState s = model_init(m, i);
    for (int step = 0; step < 500; ++step) {
      const std::uint32_t seed = s.seed;
      model_step(m, s, 1.0f / 60.0f);
      if (s.seed != seed) {
        ++respawns;
        ASSERT_LT(s.age, 1.0f / 60.0f);
        const float r = std::hypot(s.px - p.source.x, s.pz - p.source.z);
        ASSERT_LT(r, p.source_radius + 0.1f);
        ASSERT_NEAR(s.py, p.source.y, 0.1f);
      }
    }
  }
  EXPECT_GT(respawns, 100);
}

// A puff's sprite swells with age: scale 1 at birth, `growth` at the end of its life, never
// shrinking within a life and back to 1 when a new one starts. Only the smoke sizes its sprites.
TEST(SmokeModel, PuffsGrowWithAgeAndStartSmallAgain) {
  ModelParams m = params_of(Model::smoke);
  m.smoke.growth = 3.5f;
  ASSERT_TRUE(model_scales_sprites(Model::smoke));
  ParticleState s = model_init(m, 3);
  float last = model_sprite_scale(m, s);
  int new_lives = 0;
  for (int step = 0; step < 1200; ++step) {
    const std::uint32_t seed = s.seed;
    model_step(m, s, 1.0f / 60.0f);
    const float scale = model_sprite_scale(m, s);
    ASSERT_GE(scale, 1.0f);
    ASSERT_LE(scale, 3.5f);
    if (s.seed != seed) {
      ++new_lives;
      ASSERT_LT(scale, 1.0f + 2.5f * (1.0f / 60.0f) / m.smoke.lifetime + 1e-6f);
    } else {
      ASSERT_GE(scale, last);
    }
    last = scale;
  }
  EXPECT_GE(new_lives, 2);
  s.age = m.smoke.lifetime;
  EXPECT_EQ(model_sprite_scale(m, s), 3.5f);
  for (Model other : kAllModels) {
    if (other == Model::smoke) continue;
    EXPECT_FALSE(model_scales_sprites(other)) << to_string(other);
    EXPECT_EQ(model_sprite_scale(params_of(other), model_init(params_of(other), 5)), 1.0f);
  }
}

// The base of the plume fades in: a newborn puff is invisible, its alpha rises steadily and
// reaches the scene's alpha once the fade-in is over; early in the fade it is still orders of
// magnitude below, so the dense puffs at the vent do not add up to a hard edge there.
TEST(SmokeModel, PuffsFadeInOverTheStartOfTheirLife) {
  EXPECT_EQ(smoke_fade_in(0.0f), 0.0f);
  EXPECT_EQ(smoke_fade_in(kSmokeFadeInLife), 1.0f);
  EXPECT_EQ(smoke_fade_in(1.0f), 1.0f);
  EXPECT_LT(smoke_fade_in(0.25f * kSmokeFadeInLife), 1e-4f);
  float last = 0.0f;
  for (int i = 1; i <= 100; ++i) {
    const float f = smoke_fade_in(kSmokeFadeInLife * static_cast<float>(i) / 100.0f);
    ASSERT_GT(f, last);
    last = f;
  }
}

TEST(SmokeModel, DarkAndLightLivesBothOccur) {
  const ModelParams m = params_of(Model::smoke);
  int dark = 0;
  for (std::uint32_t i = 0; i < 1000; ++i) dark += smoke_is_dark(m.smoke, model_init(m, i).seed);
  EXPECT_GT(dark, 350);
  EXPECT_LT(dark, 650);
}

TEST(VortexRingModel, ParticlesKeepTheirDistanceFromTheCore) {
  const ModelParams m = params_of(Model::vortex_ring);
  const VortexRingParams& p = m.vortex_ring;
  auto core_distance = [&](const ParticleState& s) {
    const float r = std::hypot(s.px - p.origin.x, s.pz - p.origin.z);
    return std::hypot(r - p.ring_radius, s.py - vortex_centre_y(p, s.age));
  };
  for (std::uint32_t i = 0; i < 100; ++i) {
    ParticleState s = model_init(m, i);
    const float d0 = core_distance(s);
    ASSERT_LE(d0, p.tube_radius * 1.0001f);
    for (int step = 0; step < 300; ++step) model_step(m, s, 1.0f / 60.0f);
    EXPECT_NEAR(core_distance(s), d0, 1e-3f) << i;
  }
}

TEST(VortexRingModel, TheRingRisesThenStartsAgain) {
  const ModelParams m = params_of(Model::vortex_ring);
  const VortexRingParams& p = m.vortex_ring;
  ParticleState s = model_init(m, 3);
  const float period = vortex_period(p);
  const int steps = static_cast<int>(period * 60.0f);
  for (int step = 0; step < steps - 1; ++step) model_step(m, s, 1.0f / 60.0f);
  EXPECT_GT(s.py, p.origin.y + 0.8f * p.travel - p.tube_radius);
  for (int step = 0; step < 3; ++step) model_step(m, s, 1.0f / 60.0f);
  EXPECT_LT(s.age, 0.1f);
  EXPECT_LT(s.py, p.origin.y + p.tube_radius + 0.2f);
}

TEST(FireworksModel, StateIsAPureFunctionOfSeedAndClock) {
  // Stepping agrees with placing the particle at the clock directly, and particles of one burst
  // share its centre: at the burst (tau = 0) they all sit on it.
  const ModelParams m = params_of(Model::fireworks);
  for (std::uint32_t i = 0; i < 50; ++i) {
    ParticleState s = model_init(m, i);
    for (int step = 0; step < 400; ++step) model_step(m, s, 1.0f / 60.0f);
    ParticleState t = s;
    fireworks_place(m, t);
    EXPECT_EQ(0, std::memcmp(&s, &t, sizeof s)) << i;
  }
  const FireworksParams& p = m.fireworks;
  int checked = 0;
  for (std::uint32_t i = 0; i < 2000 && checked < 2; ++i) {
    ParticleState a = model_init(m, i), b = model_init(m, i + 1);
    const FireworksLife la = fireworks_life(p, m.seed, a.seed, 0.0f);
    const FireworksLife lb = fireworks_life(p, m.seed, b.seed, 0.0f);
    if (la.burst != lb.burst) continue;
    FireworksLife at_burst_a = la, at_burst_b = lb;
    at_burst_a.tau = at_burst_b.tau = 0.0f;
    const Vec3 ca = fireworks_motion(p, at_burst_a).position;
    const Vec3 cb = fireworks_motion(p, at_burst_b).position;
    EXPECT_EQ(ca.x, cb.x);
    EXPECT_EQ(ca.y, cb.y);
    ++checked;
  }
  EXPECT_EQ(checked, 2);
}

TEST(AttractorModel, ParticlesStayOnTheAttractor) {
  const ModelParams m = params_of(Model::attractor);
  for (std::uint32_t i = 0; i < 100; ++i) {
    ParticleState s = model_init(m, i);
    for (int step = 0; step < 300; ++step) {
      model_step(m, s, 1.0f / 60.0f);
      const Vec3 q = attractor_from_world(m.attractor, {s.px, s.py, s.pz});
      ASSERT_LT(std::fabs(q.x), 25.0f) << i;
      ASSERT_LT(std::fabs(q.y), 35.0f) << i;
      ASSERT_GT(q.z, -1.0f) << i;
      ASSERT_LT(q.z, 55.0f) << i;
    }
  }
}

TEST(ShellsModel, ParticlesKeepTheirShellsRadius) {
  const ModelParams m = params_of(Model::shells);
  const ShellsParams& p = m.shells;
  for (std::uint32_t i = 0; i < 200; ++i) {
    ParticleState s = model_init(m, i);
    const float r = shell_radius(p, shell_of(p, s.seed));
    for (int step = 0; step < 600; ++step) model_step(m, s, 1.0f / 60.0f);
    EXPECT_NEAR(std::sqrt(s.px * s.px + s.py * s.py + s.pz * s.pz), r, 1e-3f * r) << i;
  }
}

TEST(ShellsModel, NeighbouringShellsTurnOppositeWays) {
  const ShellsParams p;
  for (int i = 0; i + 1 < p.shells; ++i) {
    EXPECT_LT(shell_spin(p, i) * shell_spin(p, i + 1), 0.0f);
  }
}

TEST(SnowModel, FlakesStayInTheBoxAndFall) {
  const ModelParams m = params_of(Model::snow);
  const SnowParams& p = m.snow;
  for (std::uint32_t i = 0; i < 300; ++i) {
    ParticleState s = model_init(m, i);
    for (int step = 0; step < 900; ++step) {
      model_step(m, s, 1.0f / 60.0f);
      ASSERT_GE(s.px, p.box_min.x);
      ASSERT_LT(s.px, p.box_max.x);
      ASSERT_GE(s.py, p.box_min.y);
      ASSERT_LT(s.py, p.box_max.y);
      ASSERT_GE(s.pz, p.box_min.z);
      ASSERT_LT(s.pz, p.box_max.z);
      ASSERT_LT(s.vy, 0.0f);
    }
  }
}

ModelParams points_of(PointMotion motion) {
  ModelParams m;
  m.model = Model::points;
  return test::with_test_points(m, motion);
}

TEST(PointsModel, ParticleIIsPointIAndKeepsItsColour) {
  const ModelParams m = points_of(PointMotion::still);
  const auto& points = test::test_points();
  for (std::uint32_t i = 0; i < 2 * points.size(); i += 7) {
    ParticleState s = model_init(m, i);
    const PointRecord& p = points[i % points.size()];
    EXPECT_EQ(s.seed, i % points.size());
    for (int step = 0; step < 3; ++step) {
      EXPECT_EQ(s.px, p.x);
      EXPECT_EQ(s.py, p.y);
      EXPECT_EQ(s.pz, p.z);
      EXPECT_EQ(speed_of(s), 0.0f);
      EXPECT_EQ(model_vertex(m, s).rgba8, p.rgba8);  // the file's colour, as it was packed
      EXPECT_EQ(pack_rgba8(model_color(m, s)), p.rgba8);
      model_step(m, s, 0.05f);
    }
  }
}

TEST(PointsModel, TheTurntableTurnsTheCloudWholeAboutItsCentre) {
  const ModelParams m = points_of(PointMotion::turntable);
  const PointsParams& p = m.points;
  const float period = kTwoPi / p.speed;
  for (std::uint32_t i = 0; i < 500; ++i) {
    ParticleState s = model_init(m, i);
    const PointRecord& rest = test::test_points()[i];
    const float dx = rest.x - p.centre.x, dz = rest.z - p.centre.z;
    double t = 0.0;
    for (int step = 0; step < 1200; ++step) {  // 20 s: more than one turn, the clock wraps
      model_step(m, s, 1.0f / 60.0f);
      t += 1.0 / 60.0;
      ASSERT_LT(s.age, period);
      ASSERT_EQ(s.py, rest.y);
      const double a = p.speed * std::fmod(t, static_cast<double>(period));
      const double x = p.centre.x + std::cos(a) * dx + std::sin(a) * dz;
      const double z = p.centre.z + std::cos(a) * dz - std::sin(a) * dx;
      ASSERT_NEAR(s.px, x, 1e-3) << i << " step " << step;
      ASSERT_NEAR(s.pz, z, 1e-3) << i << " step " << step;
      // The velocity is the turn's: perpendicular to the offset, speed times the radius.
      ASSERT_NEAR(speed_of(s), std::fabs(p.speed) * std::hypot(dx, dz), 1e-4);
    }
  }
}

TEST(PointsModel, BreathingSwellsAndShrinksAboutTheCentre) {
  const ModelParams m = points_of(PointMotion::breathing);
  const PointsParams& p = m.points;
  const float steps_per_period = p.period * 100.0f;  // dt = 0.01
  for (std::uint32_t i = 0; i < 100; ++i) {
    ParticleState s = model_init(m, i);
    const PointRecord& rest = test::test_points()[i];
    const Vec3 d = Vec3{rest.x, rest.y, rest.z} - p.centre;
    float lo = 1e9f, hi = 0.0f;
    for (int step = 0; step < static_cast<int>(steps_per_period) * 2; ++step) {
      model_step(m, s, 0.01f);
      ASSERT_LT(s.age, p.period);
      const float r = length(Vec3{s.px, s.py, s.pz} - p.centre);
      lo = std::min(lo, r);
      hi = std::max(hi, r);
    }
    EXPECT_NEAR(hi, length(d) * (1.0f + p.amplitude), 1e-3f * std::max(1.0f, length(d)));
    EXPECT_NEAR(lo, length(d) * (1.0f - p.amplitude), 1e-3f * std::max(1.0f, length(d)));
  }
}

}  // namespace
}  // namespace particles
