#include "app/gl/gl_check.hpp"

#include <glad/gl.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace particles::gl {

std::string_view error_name(unsigned int error) {
  switch (error) {
    case GL_NO_ERROR:
      return "GL_NO_ERROR";
    case GL_INVALID_ENUM:
      return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE:
      return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION:
      return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION:
      return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY:
      return "GL_OUT_OF_MEMORY";
    case GL_STACK_UNDERFLOW:
      return "GL_STACK_UNDERFLOW";
    case GL_STACK_OVERFLOW:
      return "GL_STACK_OVERFLOW";
    default:
      return "unknown GL error";
  }
}

void check_error(std::string_view what, const char* file, int line) {
  std::string names;
  // Several flags can be set at once; reading them all leaves a clean state for the next check.
  // The bound guards against a lost context, where glGetError may keep returning an error.
  for (int i = 0; i < 16; ++i) {
    const GLenum e = glGetError();
    if (e == GL_NO_ERROR) break;
    if (!names.empty()) names += ", ";
    names += error_name(e);
  }
  if (names.empty()) return;
  throw std::runtime_error(std::string(what) + " failed with " + names + " at " + file + ":" +
                           std::to_string(line));
}

namespace {

const char* severity_name(GLenum severity) {
  switch (severity) {
    case GL_DEBUG_SEVERITY_HIGH:
      return "high";
    case GL_DEBUG_SEVERITY_MEDIUM:
      return "medium";
    case GL_DEBUG_SEVERITY_LOW:
      return "low";
    default:
      return "note";
  }
}

void GLAPIENTRY log_debug_message(GLenum /*source*/, GLenum type, GLuint id, GLenum severity,
                                  GLsizei /*length*/, const GLchar* message, const void* /*user*/) {
  // Notifications are chatty (buffer placement hints, shader recompiles); keep the log useful.
  if (severity == GL_DEBUG_SEVERITY_NOTIFICATION) return;
  std::fprintf(stderr, "[gl %s%s #%u] %s\n", severity_name(severity),
               type == GL_DEBUG_TYPE_ERROR ? " error" : "", id, message);
}

}  // namespace

bool enable_debug_output() {
#ifdef NDEBUG
  const bool wanted = std::getenv("PARTICLES_GL_DEBUG") != nullptr;
#else
  const bool wanted = true;
#endif
  if (!wanted || glDebugMessageCallback == nullptr) return false;
  glEnable(GL_DEBUG_OUTPUT);
  // Synchronous so that a breakpoint in the callback shows the offending call on the stack.
  glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
  glDebugMessageCallback(log_debug_message, nullptr);
  return true;
}

}  // namespace particles::gl
