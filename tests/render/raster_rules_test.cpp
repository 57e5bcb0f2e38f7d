// measure_raster_rules() on this machine's GL (Mesa on CI, NVIDIA's driver on the H200): the rules
// it picks reproduce every sample it drew, known GLs get their known rule set, and measuring
// leaves the GL state the renderer relies on as it was.
#include <glad/gl.h>
#include <gtest/gtest.h>

#include <cstdio>

#include "app/gl/gl_handle.hpp"
#include "app/gl/raster_rules.hpp"
#include "gl_test_fixture.hpp"

namespace particles::gl::test {
namespace {

using RasterRulesTest = GlTest;

bool same_rules(const RasterRules& a, const RasterRules& b) {
  return a.position_steps == b.position_steps && a.size_steps == b.size_steps &&
         a.store == b.store && a.product == b.product;
}

TEST_F(RasterRulesTest, MeasuredRulesReproduceEverySample) {
  const MeasuredRasterRules m = measure_raster_rules();
  std::printf("%s: %s\n", context_->renderer_description().c_str(), m.summary.c_str());
  EXPECT_EQ(m.mismatches, 0u) << m.summary;
  const std::string gl = context_->renderer_description();
  if (gl.find("llvmpipe") != std::string::npos) {
    EXPECT_TRUE(same_rules(m.rules, kLlvmpipeRules));
  }
  if (gl.find("NVIDIA") != std::string::npos) {
    EXPECT_TRUE(same_rules(m.rules, kNvidiaRules));
  }
}

TEST_F(RasterRulesTest, MeasuringLeavesTheStateAsFound) {
  Framebuffer fbo = create_framebuffer();
  Texture color = create_texture(GL_TEXTURE_2D);
  glTextureStorage2D(color.get(), 1, GL_RGBA8, 8, 8);
  glNamedFramebufferTexture(fbo.get(), GL_COLOR_ATTACHMENT0, color.get(), 0);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo.get());
  glViewport(1, 2, 5, 6);
  glEnable(GL_BLEND);
  glDisable(GL_PROGRAM_POINT_SIZE);
  (void)measure_raster_rules();
  GLint bound = 0, viewport[4] = {0, 0, 0, 0};
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &bound);
  glGetIntegerv(GL_VIEWPORT, viewport);
  EXPECT_EQ(static_cast<Name>(bound), fbo.get());
  EXPECT_EQ(viewport[0], 1);
  EXPECT_EQ(viewport[1], 2);
  EXPECT_EQ(viewport[2], 5);
  EXPECT_EQ(viewport[3], 6);
  EXPECT_TRUE(glIsEnabled(GL_BLEND));
  EXPECT_FALSE(glIsEnabled(GL_PROGRAM_POINT_SIZE));
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

}  // namespace
}  // namespace particles::gl::test
