#include "app/gl/gl_handle.hpp"

#include <glad/gl.h>

#include <type_traits>

#include "app/gl/gl_check.hpp"

namespace particles::gl {

static_assert(std::is_same_v<Name, GLuint> && std::is_same_v<Enum, GLenum>);

void BufferDeleter::operator()(Name id) const noexcept {
  glDeleteBuffers(1, &id);
}
void VertexArrayDeleter::operator()(Name id) const noexcept {
  glDeleteVertexArrays(1, &id);
}
void ShaderDeleter::operator()(Name id) const noexcept {
  glDeleteShader(id);
}
void ProgramDeleter::operator()(Name id) const noexcept {
  glDeleteProgram(id);
}
void FramebufferDeleter::operator()(Name id) const noexcept {
  glDeleteFramebuffers(1, &id);
}
void RenderbufferDeleter::operator()(Name id) const noexcept {
  glDeleteRenderbuffers(1, &id);
}
void TextureDeleter::operator()(Name id) const noexcept {
  glDeleteTextures(1, &id);
}
void QueryDeleter::operator()(Name id) const noexcept {
  glDeleteQueries(1, &id);
}

Buffer create_buffer() {
  GLuint id = 0;
  GL_CHECK(glCreateBuffers(1, &id));
  return Buffer(id);
}

VertexArray create_vertex_array() {
  GLuint id = 0;
  GL_CHECK(glCreateVertexArrays(1, &id));
  return VertexArray(id);
}

Shader create_shader(Enum stage) {
  GLuint id = 0;
  GL_CHECK(id = glCreateShader(stage));
  return Shader(id);
}

Program create_program() {
  GLuint id = 0;
  GL_CHECK(id = glCreateProgram());
  return Program(id);
}

Framebuffer create_framebuffer() {
  GLuint id = 0;
  GL_CHECK(glCreateFramebuffers(1, &id));
  return Framebuffer(id);
}

Renderbuffer create_renderbuffer() {
  GLuint id = 0;
  GL_CHECK(glCreateRenderbuffers(1, &id));
  return Renderbuffer(id);
}

Texture create_texture(Enum target) {
  GLuint id = 0;
  GL_CHECK(glCreateTextures(target, 1, &id));
  return Texture(id);
}

Query create_query(Enum target) {
  GLuint id = 0;
  GL_CHECK(glCreateQueries(target, 1, &id));
  return Query(id);
}

}  // namespace particles::gl
