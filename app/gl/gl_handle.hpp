#pragma once
// Move-only owners of GL object names. A name is deleted exactly once, by whoever holds it last;
// copying is a compile error because two owners would delete it twice. Destroy these before
// the context that created them: with no current context the delete is silently dropped.
//
// No GL header is included by this or any other app/gl header: glad's gl.h must come before
// GLFW's and ImGui's, and keeping it out of our headers leaves users free of that ordering.
#include <utility>

namespace particles::gl {

// GL object names and enums (GLuint and GLenum; gl_handle.cpp asserts they are the same types).
using Name = unsigned int;
using Enum = unsigned int;

template <class Deleter>
class GLHandle {
 public:
  GLHandle() noexcept = default;
  explicit GLHandle(Name id) noexcept : id_(id) {}
  ~GLHandle() { reset(); }

  GLHandle(const GLHandle&) = delete;
  GLHandle& operator=(const GLHandle&) = delete;
  GLHandle(GLHandle&& other) noexcept : id_(std::exchange(other.id_, 0)) {}
  GLHandle& operator=(GLHandle&& other) noexcept {
    if (this != &other) reset(std::exchange(other.id_, 0));
    return *this;
  }

  Name get() const noexcept { return id_; }
  explicit operator bool() const noexcept { return id_ != 0; }

  // Deletes the current name (if any) and takes ownership of `id`.
  void reset(Name id = 0) noexcept {
    if (id_ != 0) Deleter{}(id_);
    id_ = id;
  }
  // Gives up ownership without deleting.
  Name release() noexcept { return std::exchange(id_, 0); }

 private:
  Name id_ = 0;
};

// Deleters are noexcept: GL delete calls report through the error flag, never by throwing.
struct BufferDeleter {
  void operator()(Name id) const noexcept;
};
struct VertexArrayDeleter {
  void operator()(Name id) const noexcept;
};
struct ShaderDeleter {
  void operator()(Name id) const noexcept;
};
struct ProgramDeleter {
  void operator()(Name id) const noexcept;
};
struct FramebufferDeleter {
  void operator()(Name id) const noexcept;
};
struct RenderbufferDeleter {
  void operator()(Name id) const noexcept;
};
struct TextureDeleter {
  void operator()(Name id) const noexcept;
};
struct QueryDeleter {
  void operator()(Name id) const noexcept;
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
Shader create_shader(Enum stage);
Program create_program();
Framebuffer create_framebuffer();
Renderbuffer create_renderbuffer();
Texture create_texture(Enum target);
Query create_query(Enum target);

}  // namespace particles::gl
