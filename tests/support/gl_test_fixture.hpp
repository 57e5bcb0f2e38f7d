#pragma once
// Every GL test runs in its own headless GL 4.5 core context (Mesa's surfaceless EGL platform on
// CI, no display needed). A machine with no GL 4.5 at all skips, saying why; anything else that
// fails is a failure. A fixture that needs more (a backend, buffers) derives from GlTest and
// calls GlTest::SetUp first, returning when it skipped.
#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>
#include <memory>
#include <string>

#include "app/gl/gl_context.hpp"
#include "core/camera.hpp"

namespace particles::gl::test {

class GlTest : public ::testing::Test {
 public:
  static constexpr int kSize = 64;

  void SetUp() override {
    try {
      context_ = make_headless_context(kSize, kSize);
    } catch (const std::exception& e) {
      GTEST_SKIP() << "no OpenGL 4.5 core context on this machine: " << e.what();
    }
  }

  // A camera at the origin looking down -z with a 60 degree vertical field of view, so view
  // depth is simply -z.
  static CameraMatrices test_camera() {
    CameraMatrices m;
    m.view = glm::mat4(1.0f);
    m.projection = glm::perspective(glm::radians(60.0f), 1.0f, 0.1f, 100.0f);
    m.eye = glm::vec3(0.0f);
    m.forward = glm::vec3(0.0f, 0.0f, -1.0f);
    return m;
  }

 protected:
  // Destroyed with the fixture, after a derived fixture's own GL objects (its members go first).
  std::unique_ptr<GlContext> context_;
};

}  // namespace particles::gl::test
