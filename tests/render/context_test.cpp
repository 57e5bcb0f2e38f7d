// The contexts themselves: version and profile, error checks, RAII handles, and (only where a
// display exists, e.g. under xvfb-run) the GLFW window path.
#include <glad/gl.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <type_traits>

#include "app/gl/gl_check.hpp"
#include "app/gl/gl_handle.hpp"
#include "app/gl/particle_renderer.hpp"
#include "tests/support/gl_test_fixture.hpp"

namespace particles::gl::test {
namespace {

using ContextTest = GlTest;

TEST_F(ContextTest, HeadlessIsGl45Core) {
  GLint major = 0, minor = 0, profile = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  glGetIntegerv(GL_CONTEXT_PROFILE_MASK, &profile);
  EXPECT_GE(major * 10 + minor, 45) << context_->renderer_description();
  EXPECT_NE(profile & GL_CONTEXT_CORE_PROFILE_BIT, 0);
  EXPECT_TRUE(context_->headless());
  EXPECT_EQ(context_->framebuffer_size(), glm::ivec2(kSize, kSize));
  EXPECT_FALSE(context_->renderer_description().empty());
  EXPECT_EQ(context_->glfw_window(), nullptr);
  std::printf("headless context: %s\n", context_->renderer_description().c_str());
}

TEST_F(ContextTest, GlCheckThrowsWithCallAndLocation) {
  try {
    GL_CHECK(glEnable(GL_TEXTURE_BINDING_2D));  // not a capability: GL_INVALID_ENUM
    FAIL() << "GL_CHECK did not throw";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("glEnable"), std::string::npos) << what;
    EXPECT_NE(what.find("GL_INVALID_ENUM"), std::string::npos) << what;
    EXPECT_NE(what.find("context_test.cpp"), std::string::npos) << what;
  }
  EXPECT_NO_THROW(GL_CHECK(glEnable(GL_BLEND)));
}

TEST_F(ContextTest, HandlesAreMoveOnlyAndDeleteOnce) {
  static_assert(!std::is_copy_constructible_v<Buffer>);
  static_assert(!std::is_copy_assignable_v<Buffer>);
  static_assert(std::is_nothrow_move_constructible_v<Buffer>);
  Buffer a = create_buffer();
  const GLuint id = a.get();
  ASSERT_NE(id, 0u);
  EXPECT_TRUE(glIsBuffer(id));
  Buffer b = std::move(a);
  EXPECT_EQ(a.get(), 0u);
  EXPECT_EQ(b.get(), id);
  b.reset();
  EXPECT_FALSE(glIsBuffer(id));
}

// Needs a display: runs under `xvfb-run -a`, skips otherwise.
TEST(WindowContextTest, OpensGl45CoreWindowAndPresents) {
  if (!display_available())
    GTEST_SKIP() << "no display (DISPLAY/WAYLAND_DISPLAY unset or unusable)";
  auto window = make_window_context(96, 64, "render test", false);
  EXPECT_FALSE(window->headless());
  EXPECT_NE(window->glfw_window(), nullptr);
  GLint major = 0, minor = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  EXPECT_GE(major * 10 + minor, 45) << window->renderer_description();
  const glm::ivec2 size = window->framebuffer_size();
  EXPECT_GT(size.x, 0);
  RenderTarget target({48, 32});
  ParticleBuffers buffers;
  ParticleRenderer renderer;
  renderer.draw(target, buffers, DrawParams{});
  target.blit_to_default_framebuffer(size);
  window->swap_buffers();
  window->poll_events();
  EXPECT_FALSE(window->should_close());
  check_error("window frame", __FILE__, __LINE__);
}

}  // namespace
}  // namespace particles::gl::test
