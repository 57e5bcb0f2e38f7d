#pragma once
// Move-only owners of GL object names. A name is deleted exactly once, by whoever holds it last;
// copying is a compile error because two owners would delete it twice. Destroy these before
// the context that created them: with no current context the delete is silently dropped.
#include <glad/gl.h>

#include <utility>

namespace particles::gl {

template <class Deleter>
class GLHandle {
 public:
  GLHandle() noexcept = default;
  explicit GLHandle(GLuint id) noexcept : id_(id) {}
  ~GLHandle() { reset(); }

  GLHandle(const GLHandle&) = delete;
  GLHandle& operator=(const GLHandle&) = delete;
  GLHandle(GLHandle&& other) noexcept : id_(std::exchange(other.id_, 0)) {}
  GLHandle& operator=(GLHandle&& other) noexcept {
    if (this != &other) reset(std::exchange(other.id_, 0));
    return *this;
  }

  GLuint get() const noexcept { return id_; }
  explicit operator bool() const noexcept { return id_ != 0; }

  // Deletes the current name (if any) and takes ownership of `id`.
  void reset(GLuint id = 0) noexcept {
    if (id_ != 0) Deleter{}(id_);
    id_ = id;
  }
  // Gives up ownership without deleting.
  GLuint release() noexcept { return std::exchange(id_, 0); }

 private:
  GLuint id_ = 0;
};

// Deleters are noexcept: GL delete calls report through the error flag, never by throwing.
struct BufferDeleter {
  void operator()(GLuint id) const noexcept { glDeleteBuffers(1, &id); }
};
struct VertexArrayDeleter {
  void operator()(GLuint id) const noexcept { glDeleteVertexArrays(1, &id); }
};
struct ShaderDeleter {
  void operator()(GLuint id) const noexcept { glDeleteShader(id); }
};
struct ProgramDeleter {
  void operator()(GLuint id) const noexcept { glDeleteProgram(id); }
};
struct FramebufferDeleter {
  void operator()(GLuint id) const noexcept { glDeleteFramebuffers(1, &id); }
};
struct RenderbufferDeleter {
  void operator()(GLuint id) const noexcept { glDeleteRenderbuffers(1, &id); }
};
struct TextureDeleter {
  void operator()(GLuint id) const noexcept { glDeleteTextures(1, &id); }
};
struct QueryDeleter {
  void operator()(GLuint id) const noexcept { glDeleteQueries(1, &id); }
};

using Buffer = GLHandle<BufferDeleter>;
using VertexArray = GLHandle<VertexArrayDeleter>;
using Shader = GLHandle<ShaderDeleter>;
using Program = GLHandle<ProgramDeleter>;
using Framebuffer = GLHandle<FramebufferDeleter>;
using Renderbuffer = GLHandle<RenderbufferDeleter>;
using Texture = GLHandle<TextureDeleter>;
using Query = GLHandle<QueryDeleter>;

// Creation through the GL 4.5 direct-state-access entry points, so each object exists (and has
// its type) as soon as it is named; each throws if GL reports an error.
Buffer create_buffer();
VertexArray create_vertex_array();
Shader create_shader(GLenum stage);
Program create_program();
Framebuffer create_framebuffer();
Renderbuffer create_renderbuffer();
Texture create_texture(GLenum target);
Query create_query(GLenum target);

}  // namespace particles::gl
