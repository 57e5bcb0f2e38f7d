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
  // Both attributes come from one interleaved stream; the offsets are the ones layout.h
  // static_asserts against ParticleVertex.
  glEnableVertexArrayAttrib(vao, PARTICLE_ATTRIB_POSITION);
  glVertexArrayAttribFormat(vao, PARTICLE_ATTRIB_POSITION, 3, GL_FLOAT, GL_FALSE,
                            PARTICLE_OFFSET_POSITION);
  glVertexArrayAttribBinding(vao, PARTICLE_ATTRIB_POSITION, PARTICLE_VERTEX_BINDING);
  glEnableVertexArrayAttrib(vao, PARTICLE_ATTRIB_COLOR);
  glVertexArrayAttribFormat(vao, PARTICLE_ATTRIB_COLOR, 4, GL_UNSIGNED_BYTE, GL_TRUE,
                            PARTICLE_OFFSET_COLOR);
  glVertexArrayAttribBinding(vao, PARTICLE_ATTRIB_COLOR, PARTICLE_VERTEX_BINDING);
  // Enabled only while a scale buffer is bound (resize); disabled, the attribute reads the
  // context's current value, which is 1 unless someone changes it (particle_renderer sets it).
  glVertexArrayAttribFormat(vao, PARTICLE_ATTRIB_SPRITE_SCALE, 1, GL_FLOAT, GL_FALSE, 0);
  glVertexArrayAttribBinding(vao, PARTICLE_ATTRIB_SPRITE_SCALE, PARTICLE_SCALE_BINDING);
  check_error("particle vertex array setup", __FILE__, __LINE__);
  resize(count);
}

void ParticleBuffers::resize(std::uint32_t count, bool sprite_scales) {
  // The constructor comes here with no buffers.
  if (count == count_ && vertices_ && sprite_scales == static_cast<bool>(scales_)) return;
  // Immutable storage cannot be resized, so we make new buffers. At least one element each:
  // zero-sized storage is an error, and a valid id keeps interop registration simple.
  const std::size_t n = std::max<std::size_t>(count, 1);
  Buffer vertices = create_buffer();
  Buffer order = create_buffer();
  GL_CHECK(glNamedBufferStorage(vertices.get(), static_cast<GLsizeiptr>(n * sizeof(ParticleVertex)),
                                nullptr, GL_DYNAMIC_STORAGE_BIT));
  GL_CHECK(glNamedBufferStorage(order.get(), static_cast<GLsizeiptr>(n * sizeof(std::uint32_t)),
                                nullptr, GL_DYNAMIC_STORAGE_BIT));
  glVertexArrayVertexBuffer(vao_.get(), PARTICLE_VERTEX_BINDING, vertices.get(), 0,
                            PARTICLE_VERTEX_STRIDE);
  glVertexArrayElementBuffer(vao_.get(), order.get());
  Buffer scales;
  if (sprite_scales) {
    scales = create_buffer();
    GL_CHECK(glNamedBufferStorage(scales.get(), static_cast<GLsizeiptr>(n * sizeof(float)), nullptr,
                                  GL_DYNAMIC_STORAGE_BIT));
    glVertexArrayVertexBuffer(vao_.get(), PARTICLE_SCALE_BINDING, scales.get(), 0, sizeof(float));
    glEnableVertexArrayAttrib(vao_.get(), PARTICLE_ATTRIB_SPRITE_SCALE);
  } else {
    glDisableVertexArrayAttrib(vao_.get(), PARTICLE_ATTRIB_SPRITE_SCALE);
  }
  check_error("particle buffer binding", __FILE__, __LINE__);
  vertices_ = std::move(vertices);
  order_ = std::move(order);
  scales_ = std::move(scales);
  compare_order_ = Buffer();
  count_ = count;
  ++generation_;
}

void ParticleBuffers::upload(std::span<const ParticleVertex> vertices,
                             std::span<const std::uint32_t> order,
                             std::span<const float> sprite_scales) {
  if (vertices.size() != order.size()) {
    throw std::invalid_argument("ParticleBuffers::upload: " + std::to_string(vertices.size()) +
                                " vertices but " + std::to_string(order.size()) + " indices");
  }
  if (!sprite_scales.empty() && sprite_scales.size() != vertices.size()) {
    throw std::invalid_argument("ParticleBuffers::upload: " + std::to_string(vertices.size()) +
                                " vertices but " + std::to_string(sprite_scales.size()) +
                                " sprite scales");
  }
  const auto n = static_cast<std::uint32_t>(vertices.size());
  if (std::any_of(order.begin(), order.end(), [n](std::uint32_t i) { return i >= n; })) {
    throw std::invalid_argument("ParticleBuffers::upload: draw order index out of range");
  }
  resize(n, !sprite_scales.empty());
  if (n == 0) return;
  if (!sprite_scales.empty()) {
    glNamedBufferSubData(scales_.get(), 0, static_cast<GLsizeiptr>(sprite_scales.size_bytes()),
                         sprite_scales.data());
  }
  glNamedBufferSubData(vertices_.get(), 0, static_cast<GLsizeiptr>(vertices.size_bytes()),
                       vertices.data());
  glNamedBufferSubData(order_.get(), 0, static_cast<GLsizeiptr>(order.size_bytes()), order.data());
}

void ParticleBuffers::upload_compare_order(std::span<const std::uint32_t> order) {
  if (order.size() != count_) {
    throw std::invalid_argument(
        "ParticleBuffers::upload_compare_order: " + std::to_string(order.size()) + " indices for " +
        std::to_string(count_) + " particles");
  }
  const std::uint32_t n = count_;
  if (std::any_of(order.begin(), order.end(), [n](std::uint32_t i) { return i >= n; })) {
    throw std::invalid_argument("ParticleBuffers::upload_compare_order: index out of range");
  }
  ensure_compare_order();
  if (n == 0) return;
  glNamedBufferSubData(compare_order_.get(), 0, static_cast<GLsizeiptr>(order.size_bytes()),
                       order.data());
}

Name ParticleBuffers::ensure_compare_order() {
  if (!compare_order_) {
    Buffer buffer = create_buffer();
    GL_CHECK(glNamedBufferStorage(
        buffer.get(),
        static_cast<GLsizeiptr>(std::max<std::size_t>(count_, 1) * sizeof(std::uint32_t)), nullptr,
        GL_DYNAMIC_STORAGE_BIT));
    compare_order_ = std::move(buffer);
  }
  return compare_order_.get();
}

void ParticleBuffers::use_compare_order(bool compare) const {
  glVertexArrayElementBuffer(vao_.get(),
                             compare && compare_order_ ? compare_order_.get() : order_.get());
}

std::vector<ParticleVertex> ParticleBuffers::read_vertices() const {
  std::vector<ParticleVertex> out(count_);
  GL_CHECK(glGetNamedBufferSubData(vertices_.get(), 0,
                                   static_cast<GLsizeiptr>(out.size() * sizeof(ParticleVertex)),
                                   out.data()));
  return out;
}

std::vector<float> ParticleBuffers::read_sprite_scales() const {
  if (!scales_) return {};
  std::vector<float> out(count_);
  GL_CHECK(glGetNamedBufferSubData(
      scales_.get(), 0, static_cast<GLsizeiptr>(out.size() * sizeof(float)), out.data()));
  return out;
}

std::vector<std::uint32_t> ParticleBuffers::read_order() const {
  std::vector<std::uint32_t> out(count_);
  GL_CHECK(glGetNamedBufferSubData(
      order_.get(), 0, static_cast<GLsizeiptr>(out.size() * sizeof(std::uint32_t)), out.data()));
  return out;
}

}  // namespace particles::gl
