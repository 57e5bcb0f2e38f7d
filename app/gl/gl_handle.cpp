#include "app/gl/gl_handle.hpp"

#include "app/gl/gl_check.hpp"

namespace particles::gl {

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

Shader create_shader(GLenum stage) {
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

Texture create_texture(GLenum target) {
  GLuint id = 0;
  GL_CHECK(glCreateTextures(target, 1, &id));
  return Texture(id);
}

Query create_query(GLenum target) {
  GLuint id = 0;
  GL_CHECK(glCreateQueries(target, 1, &id));
  return Query(id);
}

}  // namespace particles::gl
