#include "app/gl/difference_heat_pass.hpp"

#include <glad/gl.h>

#include <stdexcept>

#include "app/gl/gl_check.hpp"

namespace particles::gl {

DifferenceHeatPass::DifferenceHeatPass(const std::filesystem::path& shader_dir)
    : program_(shader_dir, "fullscreen.vert", "difference_heat.frag"),
      empty_(create_vertex_array()) {}

void DifferenceHeatPass::draw(const RenderTarget& exact, const RenderTarget& drawn,
                              const RenderTarget& out) const {
  if (exact.size() != out.size() || drawn.size() != out.size()) {
    throw std::invalid_argument("DifferenceHeatPass: the images differ in size");
  }
  out.bind();
  glDisable(GL_BLEND);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_SCISSOR_TEST);
  glBindTextureUnit(0, exact.color_texture());
  glBindTextureUnit(1, drawn.color_texture());
  program_.use();
  glBindVertexArray(empty_.get());
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
  glUseProgram(0);
  glBindTextureUnit(0, 0);
  glBindTextureUnit(1, 0);
  check_error("DifferenceHeatPass::draw", __FILE__, __LINE__);
}

}  // namespace particles::gl
