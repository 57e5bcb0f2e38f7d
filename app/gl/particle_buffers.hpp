#pragma once
// The GL buffers a frame's data lands in, and the VAO that reads them: a vertex buffer of
// ParticleVertex, an element buffer of uint32 draw order (far to near once sorted) and, for a
// model that sizes its sprites (model_scales_sprites), a float sprite scale per particle. The
// CPU backend uploads into them; the CUDA backend registers vertex_buffer(), index_buffer() and
// scale_buffer() with cudaGraphicsGLRegisterBuffer and writes them in place, re-registering when
// generation() changes (resize() replaces the buffer objects).
#include <cstdint>
#include <span>
#include <vector>

#include "app/gl/gl_handle.hpp"
#include "core/particle.hpp"

namespace particles::gl {

class ParticleBuffers {
 public:
  // Creates the VAO and buffers for `count` particles. Needs a current GL 4.5 context.
  explicit ParticleBuffers(std::uint32_t count = 0);

  // Reallocates the buffers for `count` particles (contents undefined), with a sprite scale
  // buffer or without one, when either changes; a no-op otherwise, so the buffer ids stay stable
  // across frames. Without a scale buffer every sprite reads the scale 1.
  void resize(std::uint32_t count, bool sprite_scales = false);

  // CPU backend path: copies a frame's vertices, draw order and sprite scales (empty: none),
  // resizing first when they differ from what the buffers hold. Throws std::invalid_argument when
  // the sizes differ from each other or an order entry is out of range (GL does not promise to
  // catch a bad index).
  void upload(std::span<const ParticleVertex> vertices, std::span<const std::uint32_t> order,
              std::span<const float> sprite_scales = {});

  // The buffers' contents read back (the first count() of each). Stalls until GL is done with
  // them: for verification and tests, not per frame.
  // The comparison view's second draw order (the exact one, drawn beside the approximate one in
  // the element buffer): uploaded into a buffer of its own, made on first use; the same checks
  // as upload(). use_compare_order picks which one the vertex array draws.
  void upload_compare_order(std::span<const std::uint32_t> order);
  // The comparison order's buffer (count() uint32), made on first use, contents undefined: the
  // CUDA backend writes it in place, as it writes index_buffer().
  Name ensure_compare_order();
  bool has_compare_order() const { return static_cast<bool>(compare_order_); }
  void use_compare_order(bool compare) const;

  std::vector<ParticleVertex> read_vertices() const;
  std::vector<std::uint32_t> read_order() const;
  std::vector<float> read_sprite_scales() const;  // empty without a scale buffer

  Name vertex_buffer() const { return vertices_.get(); }
  Name index_buffer() const { return order_.get(); }
  Name scale_buffer() const { return scales_ ? scales_.get() : 0u; }  // 0: none
  Name vertex_array() const { return vao_.get(); }
  std::uint32_t count() const { return count_; }
  // Incremented each time the buffer objects are replaced.
  std::uint64_t generation() const { return generation_; }

 private:
  VertexArray vao_;
  Buffer vertices_;
  Buffer order_;
  Buffer scales_;         // empty for a model whose sprites all have the scene's size
  Buffer compare_order_;  // empty until upload_compare_order; dropped by resize()
  std::uint32_t count_ = 0;
  std::uint64_t generation_ = 0;
};

}  // namespace particles::gl
