#pragma once
// Draws the particles as camera-facing round sprites, blended back to front in the order the
// element buffer gives. The renderer never sorts: that order is the backend's sort result (or
// the identity, to show what goes wrong without sorting).
#include <filesystem>
#include <glm/vec2.hpp>

#include "app/gl/particle_buffers.hpp"
#include "app/gl/render_target.hpp"
#include "app/gl/shader_program.hpp"
#include "core/camera.hpp"
#include "core/color.hpp"

namespace particles::gl {

struct DrawParams {
  CameraMatrices camera;
  glm::ivec2 viewport{1, 1};                 // pixels
  float sprite_size = 0.1f;                  // world-space diameter of a particle
  Color background{0.0f, 0.0f, 0.0f, 1.0f};  // straight alpha
};

class ParticleRenderer {
 public:
  // Builds the particle program from <shader_dir>/particle.vert and particle.frag.
  explicit ParticleRenderer(const std::filesystem::path& shader_dir = find_shader_dir());

  // Clears the bound draw framebuffer to the background and draws every particle in element
  // buffer order: premultiplied "over" blending, no depth test or depth writes.
  void draw(const ParticleBuffers& buffers, const DrawParams& params);
  // draw()'s two halves: the clear, then the particles over what the framebuffer holds.
  void clear(const DrawParams& params);
  void draw_particles(const ParticleBuffers& buffers, const DrawParams& params);
  // The same into `target` (bound here), with the viewport set to the target's size.
  void draw(const RenderTarget& target, const ParticleBuffers& buffers, DrawParams params);
  // The comparison view into the bound framebuffer: the left half drawn in the buffers' compare
  // order (the exact one), the right half in their draw order, the same particles, and a
  // divider line between. Needs buffers.has_compare_order().
  void draw_split(const ParticleBuffers& buffers, const DrawParams& params);

  // Smallest and largest point size the implementation draws, pixels.
  glm::vec2 point_size_range() const { return point_size_range_; }

 private:
  ShaderProgram program_;
  glm::vec2 point_size_range_{1.0f, 64.0f};
  // Uniform locations, looked up once.
  int u_view_ = -1;
  int u_projection_ = -1;
  int u_sprite_size_ = -1;
  int u_viewport_ = -1;
  int u_point_size_range_ = -1;
};

}  // namespace particles::gl
