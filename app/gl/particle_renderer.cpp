#include "app/gl/particle_renderer.hpp"

#include <glad/gl.h>

#include <glm/gtc/type_ptr.hpp>

#include <algorithm>

#include "app/gl/gl_check.hpp"
#include "shaders/layout.h"

namespace particles::gl {

ParticleRenderer::ParticleRenderer(const std::filesystem::path& shader_dir)
    : program_(shader_dir, "particle.vert", "particle.frag") {
  GLfloat range[2] = {1.0f, 1.0f};
  glGetFloatv(GL_POINT_SIZE_RANGE, range);
  check_error("glGetFloatv(GL_POINT_SIZE_RANGE)", __FILE__, __LINE__);
  point_size_range_ = {range[0], range[1]};
  u_view_ = program_.uniform("u_view");
  u_projection_ = program_.uniform("u_projection");
  u_sprite_size_ = program_.uniform("u_sprite_size");
  u_viewport_ = program_.uniform("u_viewport");
  u_point_size_range_ = program_.uniform("u_point_size_range");
}

void ParticleRenderer::draw(const ParticleBuffers& buffers, const DrawParams& params) {
  clear(params);
  draw_particles(buffers, params);
}

void ParticleRenderer::clear(const DrawParams& params) {
  // The framebuffer holds premultiplied colour, so the clear colour is premultiplied too.
  const Color& bg = params.background;
  glViewport(0, 0, params.viewport.x, params.viewport.y);
  glClearColor(bg.r * bg.a, bg.g * bg.a, bg.b * bg.a, bg.a);
  glClear(GL_COLOR_BUFFER_BIT);
}

void ParticleRenderer::draw_particles(const ParticleBuffers& buffers, const DrawParams& params) {
  if (buffers.count() == 0) return;
  glViewport(0, 0, params.viewport.x, params.viewport.y);

  // Order-dependent blending is the point of the whole program: each sprite goes "over" what
  // was drawn before it, and nothing is rejected by depth.
  glDisable(GL_DEPTH_TEST);
  glDepthMask(GL_FALSE);
  glDisable(GL_CULL_FACE);
  glEnable(GL_BLEND);
  glBlendEquation(GL_FUNC_ADD);
  glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  glEnable(GL_PROGRAM_POINT_SIZE);

  const Name prog = program_.id();
  glProgramUniformMatrix4fv(prog, u_view_, 1, GL_FALSE, glm::value_ptr(params.camera.view));
  glProgramUniformMatrix4fv(prog, u_projection_, 1, GL_FALSE,
                            glm::value_ptr(params.camera.projection));
  glProgramUniform1f(prog, u_sprite_size_, params.sprite_size);
  glProgramUniform2f(prog, u_viewport_, static_cast<float>(params.viewport.x),
                     static_cast<float>(params.viewport.y));
  glProgramUniform2f(prog, u_point_size_range_, point_size_range_.x, point_size_range_.y);

  // Without a scale buffer the attribute is disabled and every sprite reads this value.
  glVertexAttrib1f(PARTICLE_ATTRIB_SPRITE_SCALE, 1.0f);
  program_.use();
  glBindVertexArray(buffers.vertex_array());
  glDrawElements(GL_POINTS, static_cast<GLsizei>(buffers.count()), GL_UNSIGNED_INT, nullptr);
  glBindVertexArray(0);
  glUseProgram(0);
  glDisable(GL_BLEND);  // leave the common default for whoever draws next (the HUD sets its own)
}

void ParticleRenderer::draw_split(const ParticleBuffers& buffers, const DrawParams& params) {
  const int width = params.viewport.x, height = params.viewport.y;
  const int half = width / 2;
  glEnable(GL_SCISSOR_TEST);  // the clear and the draw keep to each half
  glScissor(0, 0, half, height);
  buffers.use_compare_order(true);
  draw(buffers, params);
  glScissor(half, 0, width - half, height);
  buffers.use_compare_order(false);
  draw(buffers, params);
  glScissor(std::max(half - 1, 0), 0, 2, height);
  glClearColor(1.0f, 1.0f, 1.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
}

void ParticleRenderer::draw(const RenderTarget& target, const ParticleBuffers& buffers,
                            DrawParams params) {
  target.bind();
  params.viewport = target.size();
  draw(buffers, params);
}

}  // namespace particles::gl
