// Buffers, shader loading, timer queries and PNG output.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#include <glad/gl.h>
#include <stb/stb_image.h>

#include "app/gl/gl_check.hpp"
#include "app/gl/gpu_timer.hpp"
#include "app/gl/image.hpp"
#include "app/gl/particle_renderer.hpp"
#include "app/gl/render_target.hpp"
#include "core/composite/pixel.hpp"
#include "shaders/layout.h"
#include "tests/support/gl_test_fixture.hpp"

namespace particles::gl::test {
namespace {

namespace fs = std::filesystem;
using ResourceTest = GlTest;

TEST_F(ResourceTest, BuffersKeepIdsUntilTheCountChanges) {
  ParticleBuffers buffers(8);
  EXPECT_EQ(buffers.count(), 8u);
  const GLuint vbo = buffers.vertex_buffer();
  const std::uint64_t gen = buffers.generation();
  buffers.resize(8);
  EXPECT_EQ(buffers.vertex_buffer(), vbo);
  EXPECT_EQ(buffers.generation(), gen);
  buffers.resize(16);
  EXPECT_EQ(buffers.count(), 16u);
  EXPECT_GT(buffers.generation(), gen);
  GLint64 bytes = 0;
  glGetNamedBufferParameteri64v(buffers.vertex_buffer(), GL_BUFFER_SIZE, &bytes);
  EXPECT_EQ(bytes, 16 * 16);
  glGetNamedBufferParameteri64v(buffers.index_buffer(), GL_BUFFER_SIZE, &bytes);
  EXPECT_EQ(bytes, 16 * 4);
}

TEST_F(ResourceTest, UploadRejectsMismatchedOrBadOrder) {
  ParticleBuffers buffers;
  const std::vector<ParticleVertex> v(3);
  const std::vector<std::uint32_t> short_order = {0, 1};
  const std::vector<std::uint32_t> bad_order = {0, 1, 3};
  EXPECT_THROW(buffers.upload(v, short_order), std::invalid_argument);
  EXPECT_THROW(buffers.upload(v, bad_order), std::invalid_argument);
  const std::vector<std::uint32_t> good = {2, 1, 0};
  // Sprite scales, when given, are one per vertex.
  EXPECT_THROW(buffers.upload(v, good, std::vector<float>(2, 1.0f)), std::invalid_argument);
  buffers.upload(v, good, std::vector<float>{1.0f, 2.0f, 3.0f});
  EXPECT_NE(buffers.scale_buffer(), 0u);
  EXPECT_EQ(buffers.read_sprite_scales(), (std::vector<float>{1.0f, 2.0f, 3.0f}));
  buffers.upload(v, good);
  EXPECT_EQ(buffers.count(), 3u);
  std::uint32_t back[3] = {};
  glGetNamedBufferSubData(buffers.index_buffer(), 0, sizeof back, back);
  EXPECT_EQ(back[0], 2u);
  EXPECT_EQ(back[2], 0u);
}

TEST_F(ResourceTest, TargetUploadRejectsAnImageOfAnotherSizeAndKeepsARightOne) {
  // The CPU backend's composite goes into the render target this way.
  RenderTarget target({4, 2});
  const std::vector<PixelF> wrong(4 * 3, PixelF{1, 1, 1, 1});
  EXPECT_THROW(target.upload(4, 3, wrong), std::invalid_argument);
  EXPECT_THROW(target.upload(4, 2, std::vector<PixelF>(7)), std::invalid_argument);
  std::vector<PixelF> rows(8, PixelF{0, 0, 0, 1});
  rows[0] = {1, 0, 0, 1};  // bottom-left red (rows bottom first, as GL stores them)
  target.upload(4, 2, rows);
  const Image image = target.read_pixels();  // rows top first
  EXPECT_EQ(image.pixel(0, 1)[0], 255);
  EXPECT_EQ(image.pixel(0, 0)[0], 0);
  const std::uint64_t before = target.generation();
  target.resize({4, 2});
  EXPECT_EQ(target.generation(), before) << "same size: the texture stays";
  target.resize({5, 2});
  EXPECT_EQ(target.generation(), before + 1) << "a new texture, which CUDA must register again";
}

TEST_F(ResourceTest, TargetKeepsFloatsAndReadsBytesAsUnorm8Of) {
  // The float image comes back as it was stored, and the 8-bit read (screenshots, recordings)
  // is rgba8_of of each pixel, rows top first: ties to even, clamped, NaN to 0.
  RenderTarget target({3, 2});
  const std::vector<PixelF> rows = {
      {0.1234567f, 1e-6f, 0.999f, 1.0f},  // bottom row
      {0.5f / 255.0f, 1.5f / 255.0f, 2.5f / 255.0f, 0.5f},
      {-0.25f, 1.75f, std::nanf(""), 0.0f},
      {0.75f, 0.0f, 0.25f, 1.0f},  // top row
      {1.0f / 3.0f, 2.0f / 3.0f, 254.5f / 255.0f, 0.25f},
      {0.0f, 0.0f, 0.0f, 0.0f},
  };
  target.upload(3, 2, rows);
  const std::vector<PixelF> back = target.read_float_pixels();
  ASSERT_EQ(back.size(), rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(std::memcmp(&back[i], &rows[i], sizeof(PixelF)), 0) << "pixel " << i;
  }
  const Image image = target.read_pixels();
  for (int y = 0; y < 2; ++y) {
    for (int x = 0; x < 3; ++x) {
      const std::uint32_t want = rgba8_of(rows[static_cast<std::size_t>((1 - y) * 3 + x)]);
      for (int c = 0; c < 4; ++c) {
        EXPECT_EQ(image.pixel(x, y)[c], (want >> (8 * c)) & 0xffu) << x << "," << y << " " << c;
      }
    }
  }
  EXPECT_EQ(image.pixel(1, 1)[0], 0) << "0.5/255 ties to even: 0";
  EXPECT_EQ(image.pixel(1, 1)[1], 2) << "1.5/255 ties to even: 2";
  EXPECT_EQ(image.pixel(1, 1)[2], 2) << "2.5/255 ties to even: 2";
  EXPECT_EQ(image.pixel(2, 1)[2], 0) << "NaN reads as 0";
}

TEST_F(ResourceTest, PresentCopiesACoveringImageAndClearsOnlyTheBars) {
  // The present's blit: an image of the window's size replaces every pixel (no clear needed);
  // one of another aspect is centred, with the bars it leaves cleared to black whatever was there.
  RenderTarget image({4, 2});
  std::vector<PixelF> rows(8);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    rows[i] = {0.08f * static_cast<float>(i + 1), 0.0f, 0.0f, 1.0f};  // distinct reds
  }
  image.upload(4, 2, rows);
  const Image source = image.read_pixels();

  RenderTarget same({4, 2}, TargetFormat::window_rgba8);  // as a window holds it
  same.upload(4, 2, std::vector<PixelF>(8, PixelF{0, 1, 0, 1}));
  image.blit_to(same.framebuffer(), same.size());
  EXPECT_EQ(same.read_pixels().rgba, source.rgba);

  RenderTarget tall({4, 4}, TargetFormat::window_rgba8);  // the image fills rows 1-2, bars around
  tall.upload(4, 4, std::vector<PixelF>(16, PixelF{0, 1, 0, 1}));
  image.blit_to(tall.framebuffer(), tall.size());
  const Image out = tall.read_pixels();
  for (int x = 0; x < 4; ++x) {
    for (int y : {0, 3}) {
      const auto* p = out.pixel(x, y);
      EXPECT_EQ(p[0] + p[1] + p[2], 0) << "bar pixel " << x << "," << y << " not cleared";
    }
    for (int y : {1, 2}) {
      EXPECT_EQ(out.pixel(x, y)[0], source.pixel(x, y - 1)[0]) << x << "," << y;
      EXPECT_EQ(out.pixel(x, y)[1], 0) << x << "," << y;
    }
  }
}

TEST_F(ResourceTest, ShaderDirHasTheSharedLayoutHeader) {
  const fs::path dir = find_shader_dir();
  EXPECT_TRUE(fs::exists(dir / "layout.h"));
  const ShaderSource src = load_shader_file(GL_VERTEX_SHADER, dir / "particle.vert");
  EXPECT_TRUE(src.text.starts_with("#version 450 core\n"));
  EXPECT_NE(src.text.find("#define PARTICLE_ATTRIB_POSITION 0"), std::string::npos);
  EXPECT_EQ(src.text.find("\n#include \"layout.h\""), std::string::npos);  // resolved
}

TEST_F(ResourceTest, ShaderDirFromEnvironmentMustBeRight) {
  ::setenv("PARTICLES_SHADER_DIR", "/nonexistent/shaders", 1);
  EXPECT_THROW(find_shader_dir(), std::runtime_error);
  ::unsetenv("PARTICLES_SHADER_DIR");
}

TEST_F(ResourceTest, CompileErrorNamesTheFileAndHasTheLog) {
  const std::array<ShaderSource, 1> broken = {
      ShaderSource{GL_FRAGMENT_SHADER, "broken.frag",
                   "#version 450 core\nout vec4 c;\nvoid main() { c = undefined_thing; }\n"}};
  try {
    ShaderProgram program(broken);
    FAIL() << "a broken shader compiled";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("broken.frag"), std::string::npos) << what;
    EXPECT_NE(what.find("undefined_thing"), std::string::npos) << what;
  }
}

TEST_F(ResourceTest, ParticleProgramCachesItsUniforms) {
  const ShaderProgram program(find_shader_dir(), "particle.vert", "particle.frag");
  EXPECT_GE(program.uniform("u_view"), 0);
  EXPECT_GE(program.uniform("u_sprite_size"), 0);
  EXPECT_EQ(program.uniform("no_such_uniform"), -1);
  GLint position = glGetAttribLocation(program.id(), "a_position");
  GLint color = glGetAttribLocation(program.id(), "a_color");
  EXPECT_EQ(position, PARTICLE_ATTRIB_POSITION);
  EXPECT_EQ(color, PARTICLE_ATTRIB_COLOR);
}

TEST_F(ResourceTest, GpuTimerReportsWithoutStalling) {
  ParticleBuffers buffers;
  const std::vector<ParticleVertex> v = {{0.0f, 0.0f, -4.0f, 0xff00ffffu}};
  const std::vector<std::uint32_t> order = {0};
  buffers.upload(v, order);
  ParticleRenderer renderer;
  RenderTarget target({kSize, kSize});
  DrawParams params;
  params.camera = test_camera();
  GpuTimer timer(3);
  EXPECT_FALSE(timer.latest_ms().has_value());
  for (int frame = 0; frame < 5; ++frame) {
    GpuTimer::Scope scope(timer);
    renderer.draw(target, buffers, params);
  }
  glFinish();  // only so the test can expect a result now; the app never waits
  const auto timing = timer.poll();
  ASSERT_TRUE(timing.has_value());
  EXPECT_GE(timing->milliseconds, 0.0);
  EXPECT_LT(timing->frames_ago, 5u);
  // Every measured frame is reported once, oldest first: at least the ring's three (a frame is
  // skipped when every query is still in flight), at most the five frames.
  std::vector<std::uint64_t> drained{timing->frames_ago};
  while (auto t = timer.poll()) drained.push_back(t->frames_ago);
  EXPECT_GE(drained.size(), 3u);
  EXPECT_LE(drained.size(), 5u);
  EXPECT_EQ(std::adjacent_find(drained.begin(), drained.end(),
                               [](std::uint64_t a, std::uint64_t b) { return a <= b; }),
            drained.end())
      << "results come out oldest first, none twice";
  EXPECT_FALSE(timer.poll().has_value()) << "each result is reported once";

  // Results that arrive while the next frame begins are kept for poll(), not dropped: with the
  // GPU idle before every frame, every frame is measured and reported, oldest first.
  std::vector<std::uint64_t> frames_ago;
  for (int frame = 0; frame < 6; ++frame) {
    {
      GpuTimer::Scope scope(timer);
      renderer.draw(target, buffers, params);
    }
    glFinish();
  }
  while (auto t = timer.poll()) frames_ago.push_back(t->frames_ago);
  EXPECT_EQ(frames_ago, (std::vector<std::uint64_t>{5, 4, 3, 2, 1, 0}));
  check_error("timer queries", __FILE__, __LINE__);
}

TEST_F(ResourceTest, PngRoundTrips) {
  ParticleBuffers buffers;
  const std::vector<ParticleVertex> v = {{0.0f, 0.0f, -4.0f, pack_rgba8({0.2f, 0.9f, 0.4f, 1})}};
  const std::vector<std::uint32_t> order = {0};
  buffers.upload(v, order);
  ParticleRenderer renderer;
  RenderTarget target({kSize, kSize / 2});
  DrawParams params;
  params.camera = test_camera();
  params.sprite_size = 1.0f;
  params.background = {0.1f, 0.1f, 0.3f, 1.0f};
  renderer.draw(target, buffers, params);
  const Image image = target.read_pixels();

  const fs::path path = fs::path(::testing::TempDir()) / "particles_render_test.png";
  write_png(path, image);
  int w = 0, h = 0, channels = 0;
  stbi_uc* data = stbi_load(path.c_str(), &w, &h, &channels, 4);
  ASSERT_NE(data, nullptr) << stbi_failure_reason();
  EXPECT_EQ(w, kSize);
  EXPECT_EQ(h, kSize / 2);
  EXPECT_TRUE(std::equal(image.rgba.begin(), image.rgba.end(), data));
  stbi_image_free(data);
  // A missing folder is made (core/output_file.hpp); one that cannot be, under a plain file, is
  // an error whatever the user's rights.
  write_png(path, image);
  EXPECT_THROW(write_png(path / "dir" / "x.png", image), std::runtime_error);
  fs::remove(path);
}

}  // namespace
}  // namespace particles::gl::test
