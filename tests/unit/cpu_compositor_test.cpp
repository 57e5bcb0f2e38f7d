// The CPU compositor's input checks: a draw order naming a particle that does not exist, or an
// empty viewport, is refused with what was wrong, before any pixel is written.
#include "core/composite/cpu_compositor.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace particles {
namespace {

TEST(CpuCompositor, RefusesAnOrderNamingAMissingParticle) {
  const std::vector<ParticleVertex> vertices(3);
  const std::vector<std::uint32_t> order = {0, 3, 1};
  SpriteCamera camera;
  camera.width = 8;
  camera.height = 8;
  CpuCompositor compositor(1);
  CompositeImage image;
  try {
    compositor.composite(vertices, order, camera, 0xff000000u, image);
    FAIL() << "accepted particle 3 of 3";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("particle 3 of 3"), std::string::npos) << e.what();
  }
}

TEST(CpuCompositor, RefusesAnEmptyViewport) {
  SpriteCamera camera;
  camera.width = 0;
  camera.height = 720;
  CpuCompositor compositor(1);
  CompositeImage image;
  try {
    compositor.composite({}, {}, camera, 0xff000000u, image);
    FAIL() << "accepted a 0x720 viewport";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("0x720"), std::string::npos) << e.what();
  }
}

TEST(CpuCompositor, NoParticlesGiveTheBackground) {
  SpriteCamera camera;
  camera.width = 5;
  camera.height = 3;
  CpuCompositor compositor;
  CompositeImage image;
  compositor.composite({}, {}, camera, 0xff102030u, image);
  EXPECT_EQ(image.rgba8, std::vector<std::uint32_t>(15, 0xff102030u));
}

}  // namespace
}  // namespace particles
