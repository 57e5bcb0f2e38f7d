// Issue 64: a pose whose view is not finite (a distance of 2e19 made the view NaN) drew an empty
// frame that the window, `bench --verify` and `soak` all passed with exit code 0. FrameRunner,
// the one frame function they share, now stops on it with a message naming the pose.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include "app/gl/gl_context.hpp"
#include "app/gl/gpu_timer.hpp"
#include "app/gl/particle_buffers.hpp"
#include "app/gl/particle_renderer.hpp"
#include "app/gl/render_target.hpp"
#include "app/main/backend.hpp"
#include "app/main/frame_runner.hpp"
#include "app/scene/scene_loader.hpp"
#include "tests/support/cpu_frame_fixture.hpp"

namespace particles {
namespace {

class FrameView : public test::CpuFrameTest {
 protected:
  void SetUp() override { set_up_frames(PARTICLES_SOURCE_DIR "/scenes/galaxy.toml", 1000); }

  // The message of the frame `pose` gives through a FrameRunner, "" when it runs.
  std::string frame_error(const CameraPose& pose, RendererKind renderer) {
    gl::ParticleRenderer particle_renderer;
    gl::RenderTarget target({64, 64});
    gl::GpuTimer timer;
    FrameRunner runner(*backend_, particle_renderer, *buffers_, target, timer);
    FrameRequest request;
    request.choices.renderer = renderer;
    try {
      runner.run(scene_, pose, {64, 64}, request);
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "";
  }
};

TEST_F(FrameView, ANonFiniteViewStopsTheFrameNamingThePose) {
  for (const RendererKind renderer : {RendererKind::raster, RendererKind::composite}) {
    EXPECT_EQ(frame_error(scene_.camera, renderer), "");
    CameraPose far = scene_.camera;
    far.distance = 2e19f;  // the eye's squared distance overflows: the view is NaN
    const std::string message = frame_error(far, renderer);
    EXPECT_EQ(message.rfind("the camera's view is not finite, so the frame would be empty: "
                            "target (0, 0, 0), distance 2e+19",
                            0),
              0u)
        << message;
    CameraPose on_target = scene_.camera;
    on_target.target = {1e6f, 1e6f, 1e6f};
    on_target.distance = 1e-3f;  // below a float's step at 1e6: the eye is the target
    EXPECT_NE(frame_error(on_target, renderer).find("the camera's view is not finite"),
              std::string::npos);
  }
}

TEST(FrameViewChecks, ExtentsThatLeftTheFloatsAreAnError) {
  Extents e;
  EXPECT_NO_THROW(check_finite_extents(e));  // empty: nothing to frame yet
  e.min = {-1, -1, -1};
  e.max = {1, 1, 1};
  e.depth_min = 0.0f;
  e.depth_max = 2.0f;
  EXPECT_NO_THROW(check_finite_extents(e));
  e.max.y = std::numeric_limits<float>::infinity();
  try {
    check_finite_extents(e);
    FAIL() << "accepted infinite extents";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("the particles' extents are not finite"),
              std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace particles
