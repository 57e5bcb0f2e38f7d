#pragma once
// The comparison view's heat map on GL: a full-screen pass that reads the exact order's image and
// the drawn order's (two render targets of one size) and writes difference_heat of each pixel
// (core/composite/difference_heat.hpp) into a third, with shaders/difference_heat.frag.
#include <filesystem>

#include "app/gl/gl_handle.hpp"
#include "app/gl/render_target.hpp"
#include "app/gl/shader_program.hpp"

namespace particles::gl {

class DifferenceHeatPass {
 public:
  explicit DifferenceHeatPass(const std::filesystem::path& shader_dir);

  // Leaves `out` bound; throws std::invalid_argument when the three sizes differ.
  void draw(const RenderTarget& exact, const RenderTarget& drawn, const RenderTarget& out) const;

 private:
  ShaderProgram program_;
  VertexArray empty_;  // core profile draws need a bound vertex array, even one with no buffers
};

}  // namespace particles::gl
