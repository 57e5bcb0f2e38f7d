#include "app/gl/raster_rules.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <random>
#include <stdexcept>

#include "app/gl/gl_check.hpp"
#include "app/gl/gl_handle.hpp"
#include "app/gl/shader_program.hpp"

namespace particles::gl {
namespace {

ShaderProgram load_program(const char* vertex, const char* fragment) {
  const std::filesystem::path dir = find_shader_dir();
  const ShaderSource stages[] = {load_shader_file(GL_VERTEX_SHADER, dir / vertex),
                                 load_shader_file(GL_FRAGMENT_SHADER, dir / fragment)};
  return ShaderProgram(stages);
}

// A framebuffer with one colour texture of `format`, bound for drawing while it lives; the
// previous draw framebuffer, viewport, program and vertex array come back afterwards.
class ScratchTarget {
 public:
  ScratchTarget(GLenum format, int side)
      : fbo_(create_framebuffer()), color_(create_texture(GL_TEXTURE_2D)) {
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previous_fbo_);
    glGetIntegerv(GL_VIEWPORT, previous_viewport_);
    glGetIntegerv(GL_CURRENT_PROGRAM, &previous_program_);
    glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &previous_vao_);
    GL_CHECK(glTextureStorage2D(color_.get(), 1, format, side, side));
    GL_CHECK(glNamedFramebufferTexture(fbo_.get(), GL_COLOR_ATTACHMENT0, color_.get(), 0));
    if (glCheckNamedFramebufferStatus(fbo_.get(), GL_DRAW_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
      throw std::runtime_error("raster rules: scratch framebuffer incomplete");
    }
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo_.get());
    glViewport(0, 0, side, side);
  }
  ~ScratchTarget() {
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<Name>(previous_fbo_));
    glViewport(previous_viewport_[0], previous_viewport_[1], previous_viewport_[2],
               previous_viewport_[3]);
    glUseProgram(static_cast<Name>(previous_program_));
    glBindVertexArray(static_cast<Name>(previous_vao_));
  }
  ScratchTarget(const ScratchTarget&) = delete;
  ScratchTarget& operator=(const ScratchTarget&) = delete;

  Name fbo() const { return fbo_.get(); }
  Name color() const { return color_.get(); }

 private:
  Framebuffer fbo_;
  Texture color_;
  GLint previous_fbo_ = 0, previous_program_ = 0, previous_vao_ = 0;
  GLint previous_viewport_[4] = {0, 0, 1, 1};
};

std::uint32_t channel(std::uint32_t v, int c) {
  return (v >> (8 * c)) & 0xffu;
}

}  // namespace

BlendSamples draw_blend_samples(int side, std::uint32_t seed) {
  BlendSamples s;
  s.side = side;
  const std::size_t n = static_cast<std::size_t>(side) * static_cast<std::size_t>(side);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::uniform_int_distribution<std::uint32_t> byte(0, 255);
  s.source.resize(n * 4);
  s.destination.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const float a = (i & 1) != 0 ? unit(rng) : 0.05f * unit(rng);  // faint sprites matter most
    for (std::size_t c = 0; c < 3; ++c) s.source[i * 4 + c] = unit(rng) * a;
    s.source[i * 4 + 3] = a;
    for (int c = 0; c < 4; ++c) s.destination[i] |= byte(rng) << (8 * c);
  }
  Texture source = create_texture(GL_TEXTURE_2D);
  GL_CHECK(glTextureStorage2D(source.get(), 1, GL_RGBA32F, side, side));
  GL_CHECK(
      glTextureSubImage2D(source.get(), 0, 0, 0, side, side, GL_RGBA, GL_FLOAT, s.source.data()));
  ScratchTarget target(GL_RGBA8, side);
  const ShaderProgram program = load_program("fullscreen.vert", "raster_rules_texel.frag");
  const VertexArray vao = create_vertex_array();
  const GLboolean blend_was_on = glIsEnabled(GL_BLEND);
  auto pass = [&](bool blend) {
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    GL_CHECK(glTextureSubImage2D(target.color(), 0, 0, 0, side, side, GL_RGBA, GL_UNSIGNED_BYTE,
                                 s.destination.data()));
    if (blend) {
      glEnable(GL_BLEND);
      glBlendEquation(GL_FUNC_ADD);
      glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    } else {
      glDisable(GL_BLEND);
    }
    program.use();
    glBindTextureUnit(0, source.get());
    glBindVertexArray(vao.get());
    GL_CHECK(glDrawArrays(GL_TRIANGLES, 0, 3));
    std::vector<std::uint32_t> out(n);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    GL_CHECK(glGetTextureImage(target.color(), 0, GL_RGBA, GL_UNSIGNED_BYTE,
                               static_cast<GLsizei>(n * 4), out.data()));
    return out;
  };
  s.stored = pass(false);
  s.blended = pass(true);
  if (blend_was_on) {
    glEnable(GL_BLEND);
  } else {
    glDisable(GL_BLEND);
  }
  glBindTextureUnit(0, 0);
  return s;
}

PointSamples draw_point_samples(int side, int cell, std::uint32_t seed,
                                const char* fragment_shader) {
  PointSamples s;
  s.side = side;
  s.cell = cell;
  const int cells = side / cell;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  struct PointInput {
    float clip[4];
    float size;
  };
  const float max_size = static_cast<float>(cell) - 8.0f;
  std::vector<PointInput> points;
  const float half = 0.5f * static_cast<float>(side);
  for (int cy = 0; cy < cells; ++cy) {
    for (int cx = 0; cx < cells; ++cx) {
      const float x =
          static_cast<float>(cx * cell) + 0.5f * static_cast<float>(cell) + unit(rng) - 0.5f;
      const float y =
          static_cast<float>(cy * cell) + 0.5f * static_cast<float>(cell) + unit(rng) - 0.5f;
      const int kind = static_cast<int>(points.size()) % 4;  // a quarter small, a quarter middling
      const float size = kind == 0   ? 1.0f + 2.0f * unit(rng)
                         : kind == 1 ? 3.0f + 5.0f * unit(rng)
                                     : 8.0f + (max_size - 8.0f) * unit(rng);
      const PointInput p{{x / half - 1.0f, y / half - 1.0f, 0.0f, 1.0f}, size};
      points.push_back(p);
      s.window.push_back(p.clip[0] * half + half);  // as project_sprite maps clip to window
      s.window.push_back(p.clip[1] * half + half);
      s.window.push_back(size);
    }
  }
  const Buffer vbo = create_buffer();
  GL_CHECK(glNamedBufferStorage(
      vbo.get(), static_cast<GLsizeiptr>(points.size() * sizeof(PointInput)), points.data(), 0));
  const VertexArray vao = create_vertex_array();
  glVertexArrayVertexBuffer(vao.get(), 0, vbo.get(), 0, sizeof(PointInput));
  glEnableVertexArrayAttrib(vao.get(), 0);
  glVertexArrayAttribFormat(vao.get(), 0, 4, GL_FLOAT, GL_FALSE, 0);
  glVertexArrayAttribBinding(vao.get(), 0, 0);
  glEnableVertexArrayAttrib(vao.get(), 1);
  glVertexArrayAttribFormat(vao.get(), 1, 1, GL_FLOAT, GL_FALSE, offsetof(PointInput, size));
  GL_CHECK(glVertexArrayAttribBinding(vao.get(), 1, 0));

  ScratchTarget target(GL_RGBA32F, side);
  const ShaderProgram program = load_program("raster_rules_point.vert", fragment_shader);
  const GLboolean blend_was_on = glIsEnabled(GL_BLEND);
  const GLboolean point_size_was_on = glIsEnabled(GL_PROGRAM_POINT_SIZE);
  glDisable(GL_BLEND);
  glEnable(GL_PROGRAM_POINT_SIZE);
  const float none[4] = {-1.0f, -1.0f, -1.0f, -1.0f};
  GL_CHECK(glClearNamedFramebufferfv(target.fbo(), GL_COLOR, 0, none));
  program.use();
  glBindVertexArray(vao.get());
  GL_CHECK(glDrawArrays(GL_POINTS, 0, static_cast<GLsizei>(points.size())));
  s.pixels.resize(static_cast<std::size_t>(side) * static_cast<std::size_t>(side) * 4);
  GL_CHECK(glGetTextureImage(target.color(), 0, GL_RGBA, GL_FLOAT,
                             static_cast<GLsizei>(s.pixels.size() * sizeof(float)),
                             s.pixels.data()));
  if (blend_was_on) glEnable(GL_BLEND);
  if (!point_size_was_on) glDisable(GL_PROGRAM_POINT_SIZE);
  return s;
}

std::size_t store_mismatches(const BlendSamples& samples, Unorm8Store store) {
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < samples.stored.size(); ++i) {
    for (int c = 0; c < 4; ++c) {
      wrong += float_to_unorm8(samples.source[i * 4 + static_cast<std::size_t>(c)], store) !=
               channel(samples.stored[i], c);
    }
  }
  return wrong;
}

std::size_t blend_mismatches(const BlendSamples& samples, Unorm8Store store, BlendProduct product) {
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < samples.blended.size(); ++i) {
    std::uint32_t fragment = 0;
    for (int c = 0; c < 4; ++c) {
      fragment |= float_to_unorm8(samples.source[i * 4 + static_cast<std::size_t>(c)], store)
                  << (8 * c);
    }
    const std::uint32_t want =
        blend_premultiplied_unorm8(samples.destination[i], fragment, product);
    for (int c = 0; c < 4; ++c) wrong += channel(want, c) != channel(samples.blended[i], c);
  }
  return wrong;
}

std::size_t point_mismatches(const PointSamples& samples, const RasterRules& rules) {
  const int cells = samples.side / samples.cell;
  std::size_t wrong = 0;
  for (int i = 0; i < cells * cells; ++i) {
    const std::size_t at = static_cast<std::size_t>(i) * 3;
    const float x = held_point_position(samples.window[at], rules);
    const float y = held_point_position(samples.window[at + 1], rules);
    const float size = held_point_size(samples.window[at + 2], rules);
    const float half = 0.5f * size;
    const int cx = i % cells, cy = i / cells;
    for (int py = cy * samples.cell; py < (cy + 1) * samples.cell; ++py) {
      for (int px = cx * samples.cell; px < (cx + 1) * samples.cell; ++px) {
        const std::size_t o =
            (static_cast<std::size_t>(py) * static_cast<std::size_t>(samples.side) +
             static_cast<std::size_t>(px)) *
            4;
        const bool drawn = samples.pixels[o + 2] >= 0.0f;
        const float fx = static_cast<float>(px) + 0.5f, fy = static_cast<float>(py) + 0.5f;
        const bool inside = fx >= x - half && fx < x + half && fy >= y - half && fy < y + half;
        if (drawn != inside) {
          ++wrong;
          continue;
        }
        if (!drawn) continue;
        // gl_PointCoord's origin is the upper left corner: t runs against window y.
        const float s_coord = 0.5f + (fx - x) / size, t_coord = 0.5f - (fy - y) / size;
        wrong += std::abs(s_coord - samples.pixels[o]) > 1e-3f ||
                 std::abs(t_coord - samples.pixels[o + 1]) > 1e-3f;
      }
    }
  }
  return wrong;
}

MeasuredRasterRules measure_raster_rules() {
  MeasuredRasterRules m;
  const BlendSamples blend = draw_blend_samples(128, 20261204u);
  const std::size_t even = store_mismatches(blend, Unorm8Store::nearest_even);
  const std::size_t twelve = store_mismatches(blend, Unorm8Store::via_12_bit_fraction);
  m.rules.store = twelve < even ? Unorm8Store::via_12_bit_fraction : Unorm8Store::nearest_even;
  const std::size_t shifted = blend_mismatches(blend, m.rules.store, BlendProduct::shifted_sum);
  const std::size_t rounded = blend_mismatches(blend, m.rules.store, BlendProduct::rounded);
  m.rules.product = rounded < shifted ? BlendProduct::rounded : BlendProduct::shifted_sum;

  const PointSamples points = draw_point_samples(256, 32, 4122026u);
  RasterRules held = m.rules;
  held.position_steps = kNvidiaRules.position_steps;
  held.size_steps = kNvidiaRules.size_steps;
  RasterRules exact = m.rules;
  exact.position_steps = exact.size_steps = 0.0f;
  const std::size_t held_wrong = point_mismatches(points, held);
  const std::size_t exact_wrong = point_mismatches(points, exact);
  if (held_wrong < exact_wrong) m.rules = held;

  m.mismatches =
      std::min(even, twelve) + std::min(shifted, rounded) + std::min(held_wrong, exact_wrong);
  m.summary =
      std::string("stores ") +
      (m.rules.store == Unorm8Store::nearest_even ? "round to nearest even"
                                                  : "via a 12-bit fraction") +
      ", blends with the product " +
      (m.rules.product == BlendProduct::rounded ? "rounded" : "as a shifted sum") + ", points " +
      (m.rules.position_steps > 0.0f
           ? "held at 1/" + std::to_string(static_cast<int>(m.rules.position_steps)) +
                 " px, sizes at 1/" + std::to_string(static_cast<int>(m.rules.size_steps)) + " px"
           : std::string("exact")) +
      " (" + std::to_string(m.mismatches) + " samples unexplained)";
  return m;
}

}  // namespace particles::gl
