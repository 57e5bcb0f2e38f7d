#pragma once
// The GL buffers a frame's data lands in, and the VAO that reads them: two vertex buffers of
// ParticleState (the simulation's state itself, so each particle is written once a frame) and an
// element buffer of uint32 draw order (far to near once sorted). The CUDA backend steps the state
// from one vertex buffer into the other, so it registers both with CUDA
// (cudaGraphicsGLRegisterBuffer) with the element buffer, writes them in place, and says which
// one the frame drew into (draw_from); the CPU backend uploads into the first. Re-registration is
// needed when generation() changes (resize() replaces the buffer objects).
#include <array>
#include <cstdint>
#include <span>

#include "app/gl/gl_handle.hpp"
#include "core/particle.hpp"

namespace particles::gl {

class ParticleBuffers {
 public:
  static constexpr int kStateBuffers = 2;

  // Creates the VAO and buffers for `count` particles. Needs a current GL 4.5 context.
  explicit ParticleBuffers(std::uint32_t count = 0);

  // Reallocates every buffer for `count` particles (contents undefined) when the count
  // changes; a no-op otherwise, so the buffer ids stay stable across frames.
  void resize(std::uint32_t count);

  // CPU backend path: copies a frame's states into the first state buffer and its draw order,
  // and draws from that buffer, resizing first when their size differs from count(). Throws
  // std::invalid_argument when the sizes differ from each other or an order entry is out of
  // range (GL does not promise to catch a bad index).
  void upload(std::span<const ParticleState> states, std::span<const std::uint32_t> order);

  // Makes the VAO read state buffer `which` (0 or 1): the one the newest frame wrote.
  void draw_from(int which);
  int drawn_state_buffer() const { return drawn_; }

  Name state_buffer(int which) const;
  Name index_buffer() const { return order_.get(); }
  Name vertex_array() const { return vao_.get(); }
  std::uint32_t count() const { return count_; }
  // Incremented each time the buffer objects are replaced.
  std::uint64_t generation() const { return generation_; }

 private:
  VertexArray vao_;
  std::array<Buffer, kStateBuffers> states_;
  Buffer order_;
  int drawn_ = 0;
  std::uint32_t count_ = 0;
  std::uint64_t generation_ = 0;
};

}  // namespace particles::gl
