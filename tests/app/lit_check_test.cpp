// Issue 64: a frame left all background (a NaN view, a shader that draws nothing) passed
// `bench --verify` and the soak, which checked only the draw order. check_lit_frame fails such a
// frame when particles should have lit it, and only then: particles out of view, transparent or
// the background's own colour make an empty frame that is right.
#include <gtest/gtest.h>

#include <glm/gtc/type_ptr.hpp>
#include <limits>
#include <memory>
#include <vector>

#include "app/gl/gl_context.hpp"
#include "app/gl/gpu_timer.hpp"
#include "app/gl/particle_buffers.hpp"
#include "app/gl/particle_renderer.hpp"
#include "app/gl/render_target.hpp"
#include "app/main/backend.hpp"
#include "app/main/frame_runner.hpp"
#include "app/main/lit_check.hpp"
#include "app/scene/scene_loader.hpp"
#include "core/camera.hpp"
#include "core/color.hpp"

namespace particles {
namespace {

constexpr int kSize = 64;

// Looking at the origin from 10 units along +z (yaw 0, pitch 0), 45 degrees of view.
SpriteCamera test_camera(float sprite_size) {
  CameraPose pose;
  pose.distance = 10.0f;
  pose.yaw_deg = 0.0f;
  pose.pitch_deg = 0.0f;
  pose.fov_deg = 45.0f;
  const CameraMatrices m = camera_matrices(pose, 1.0f, 0.1f, 100.0f);
  SpriteCamera c;
  for (int i = 0; i < 16; ++i) {
    c.view[i] = glm::value_ptr(m.view)[i];
    c.projection[i] = glm::value_ptr(m.projection)[i];
  }
  c.width = c.height = kSize;
  c.sprite_size = sprite_size;  // 1.0: about 7.7 pixels across at the origin
  return c;
}

const PixelF kBlack = premultiplied(0.0f, 0.0f, 0.0f, 1.0f);

std::vector<PixelF> blank_image(PixelF background = kBlack) {
  return std::vector<PixelF>(kSize * kSize, background);
}

ParticleVertex particle(float x, float y, float z, Color c) {
  return {x, y, z, pack_rgba8(c)};
}

TEST(LitCheck, AnAllBackgroundFrameFailsWhenAParticleShouldShow) {
  const std::vector<ParticleVertex> vertices = {particle(0, 0, 0, {1, 1, 1, 1}),
                                                particle(0, 0, 50, {1, 0, 0, 1})};  // behind
  const LitCheck check = check_lit_frame(blank_image(), kBlack, vertices, {}, test_camera(1.0f));
  EXPECT_FALSE(check.ok);
  EXPECT_FALSE(check.lit);
  EXPECT_EQ(check.must_light, 1u);
  EXPECT_EQ(check.in_view, 1u);
  EXPECT_NE(check.problem.find("no lit pixel: the image is all background although 1 of 2 "
                               "particles should light it (1 in view; particle 0 alone would "
                               "change pixel (32, 31) by 255/255)"),
            std::string::npos)
      << check.problem;
}

TEST(LitCheck, OneLitPixelIsEnough) {
  std::vector<PixelF> image = blank_image();
  image[5] = {0.01f, 0.0f, 0.0f, 1.0f};  // a few 8-bit steps
  const LitCheck check =
      check_lit_frame(image, kBlack, {{particle(0, 0, 0, {1, 1, 1, 1})}}, {}, test_camera(1.0f));
  EXPECT_TRUE(check.ok);
  EXPECT_TRUE(check.lit);
  // A NaN pixel is not the background either (the order check and the finite view say more).
  image[5] = {std::numeric_limits<float>::quiet_NaN(), 0.0f, 0.0f, 1.0f};
  EXPECT_TRUE(check_lit_frame(image, kBlack, {}, {}, test_camera(1.0f)).lit);
}

TEST(LitCheck, AnEmptyFrameThatTheParticlesExplainPasses) {
  const PixelF grey = premultiplied(0.5f, 0.5f, 0.5f, 1.0f);
  const struct {
    const char* why;
    ParticleVertex vertex;
    PixelF background;
    float sprite_size;
    float scale;
  } cases[] = {
      {"behind the camera", particle(0, 0, 20, {1, 1, 1, 1}), kBlack, 1.0f, 1.0f},
      {"outside the view", particle(100, 0, 0, {1, 1, 1, 1}), kBlack, 1.0f, 1.0f},
      {"transparent", particle(0, 0, 0, {1, 1, 1, 0}), kBlack, 1.0f, 1.0f},
      {"faint", particle(0, 0, 0, {1, 1, 1, 1.0f / 255.0f}), kBlack, 1.0f, 1.0f},
      {"the background's colour", particle(0, 0, 0, {0.5f, 0.5f, 0.5f, 1}), grey, 1.0f, 1.0f},
      {"far smaller than a pixel", particle(0, 0, 0, {1, 1, 1, 1}), kBlack, 1e-4f, 1.0f},
      {"scaled to nothing", particle(0, 0, 0, {1, 1, 1, 1}), kBlack, 1.0f, 1e-4f},
  };
  for (const auto& c : cases) {
    const std::vector<float> scales = {c.scale};
    const LitCheck check = check_lit_frame(blank_image(c.background), c.background, {{c.vertex}},
                                           scales, test_camera(c.sprite_size));
    EXPECT_TRUE(check.ok) << c.why << ": " << check.problem;
    EXPECT_FALSE(check.lit) << c.why;
    EXPECT_EQ(check.must_light, 0u) << c.why;
  }
}

// The check on real frames: a frame FrameRunner draws of a shipped scene passes under both
// renderers; the same frame cleared to the background afterwards (what a shader that draws
// nothing leaves) fails.
TEST(LitCheck, ARealFramePassesAndTheSameFrameBlankedFails) {
  std::unique_ptr<gl::GlContext> context;
  try {
    context = gl::make_headless_context(kSize, kSize);
  } catch (const std::exception& e) {
    GTEST_SKIP() << "no OpenGL 4.5 core context on this machine: " << e.what();
  }
  const std::unique_ptr<Backend> backend = make_cpu_backend();
  gl::ParticleBuffers buffers;
  const SceneDesc scene = load_scene(PARTICLES_SOURCE_DIR "/scenes/galaxy.toml");
  backend->reset(scene.params, 2000, buffers);
  gl::ParticleRenderer renderer;
  gl::RenderTarget target({kSize, kSize});
  gl::GpuTimer timer;
  FrameRunner runner(*backend, renderer, buffers, target, timer);
  for (const RendererKind kind : {RendererKind::raster, RendererKind::composite}) {
    FrameRequest request;
    request.choices.renderer = kind;
    request.read_back = true;
    const FrameOutcome out = runner.run(scene, scene.camera, {kSize, kSize}, request);
    const auto vertices = buffers.read_vertices();
    const LitCheck drawn =
        check_drawn_frame_lit(scene, out.camera, renderer, target, buffers, vertices);
    EXPECT_TRUE(drawn.ok) << drawn.problem;
    EXPECT_TRUE(drawn.lit) << to_string(kind);

    const Color& bg = scene.background;
    const std::vector<PixelF> background(kSize * kSize, premultiplied(bg.r, bg.g, bg.b, bg.a));
    target.upload(kSize, kSize, background);
    const LitCheck blank =
        check_drawn_frame_lit(scene, out.camera, renderer, target, buffers, vertices);
    EXPECT_FALSE(blank.ok) << to_string(kind);
    EXPECT_GT(blank.must_light, 100u);
    EXPECT_NE(blank.problem.find("no lit pixel"), std::string::npos) << blank.problem;
  }
}

}  // namespace
}  // namespace particles
