#include "app/gl/particle_buffers.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "app/gl/gl_check.hpp"
#include "shaders/layout.h"

namespace particles::gl {

ParticleBuffers::ParticleBuffers(std::uint32_t count) : vao_(create_vertex_array()) {
  const Name vao = vao_.get();
  // Every attribute comes from one ParticleState stream; the offsets are the ones layout.h
  // static_asserts against ParticleState. The velocity is in the stride but read by nobody.
  glEnableVertexArrayAttrib(vao, PARTICLE_ATTRIB_POSITION);
  glVertexArrayAttribFormat(vao, PARTICLE_ATTRIB_POSITION, 3, GL_FLOAT, GL_FALSE,
                            PARTICLE_OFFSET_POSITION);
  glVertexArrayAttribBinding(vao, PARTICLE_ATTRIB_POSITION, PARTICLE_VERTEX_BINDING);
  glEnableVertexArrayAttrib(vao, PARTICLE_ATTRIB_AGE);
  glVertexArrayAttribFormat(vao, PARTICLE_ATTRIB_AGE, 1, GL_FLOAT, GL_FALSE, PARTICLE_OFFSET_AGE);
  glVertexArrayAttribBinding(vao, PARTICLE_ATTRIB_AGE, PARTICLE_VERTEX_BINDING);
  glEnableVertexArrayAttrib(vao, PARTICLE_ATTRIB_SEED);
  glVertexArrayAttribIFormat(vao, PARTICLE_ATTRIB_SEED, 1, GL_UNSIGNED_INT, PARTICLE_OFFSET_SEED);
  glVertexArrayAttribBinding(vao, PARTICLE_ATTRIB_SEED, PARTICLE_VERTEX_BINDING);
  check_error("particle vertex array setup", __FILE__, __LINE__);
  resize(count);
}

void ParticleBuffers::resize(std::uint32_t count) {
  if (count == count_ && order_) return;  // the constructor comes here with no buffers
  // Immutable storage cannot be resized, so we make new buffers. At least one element each:
  // zero-sized storage is an error, and a valid id keeps interop registration simple.
  const std::size_t n = std::max<std::size_t>(count, 1);
  std::array<Buffer, kStateBuffers> states;
  for (Buffer& b : states) {
    b = create_buffer();
    GL_CHECK(glNamedBufferStorage(b.get(), static_cast<GLsizeiptr>(n * sizeof(ParticleState)),
                                  nullptr, GL_DYNAMIC_STORAGE_BIT));
  }
  Buffer order = create_buffer();
  GL_CHECK(glNamedBufferStorage(order.get(), static_cast<GLsizeiptr>(n * sizeof(std::uint32_t)),
                                nullptr, GL_DYNAMIC_STORAGE_BIT));
  glVertexArrayElementBuffer(vao_.get(), order.get());
  check_error("particle buffer binding", __FILE__, __LINE__);
  states_ = std::move(states);
  order_ = std::move(order);
  count_ = count;
  ++generation_;
  draw_from(0);
}

void ParticleBuffers::draw_from(int which) {
  if (which < 0 || which >= kStateBuffers) {
    throw std::invalid_argument("ParticleBuffers::draw_from: no state buffer " +
                                std::to_string(which));
  }
  glVertexArrayVertexBuffer(vao_.get(), PARTICLE_VERTEX_BINDING, states_[which].get(), 0,
                            PARTICLE_VERTEX_STRIDE);
  check_error("glVertexArrayVertexBuffer", __FILE__, __LINE__);
  drawn_ = which;
}

Name ParticleBuffers::state_buffer(int which) const {
  if (which < 0 || which >= kStateBuffers) {
    throw std::invalid_argument("ParticleBuffers::state_buffer: no state buffer " +
                                std::to_string(which));
  }
  return states_[which].get();
}

void ParticleBuffers::upload(std::span<const ParticleState> states,
                             std::span<const std::uint32_t> order) {
  if (states.size() != order.size()) {
    throw std::invalid_argument("ParticleBuffers::upload: " + std::to_string(states.size()) +
                                " states but " + std::to_string(order.size()) + " indices");
  }
  const auto n = static_cast<std::uint32_t>(states.size());
  if (std::any_of(order.begin(), order.end(), [n](std::uint32_t i) { return i >= n; })) {
    throw std::invalid_argument("ParticleBuffers::upload: draw order index out of range");
  }
  resize(n);
  draw_from(0);
  if (n == 0) return;
  glNamedBufferSubData(states_[0].get(), 0, static_cast<GLsizeiptr>(states.size_bytes()),
                       states.data());
  glNamedBufferSubData(order_.get(), 0, static_cast<GLsizeiptr>(order.size_bytes()), order.data());
}

}  // namespace particles::gl
