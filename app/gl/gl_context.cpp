#include "app/gl/gl_context.hpp"

#include <glad/gl.h>

#include <stdexcept>

#include "app/gl/gl_check.hpp"

namespace particles::gl {

GlContext::~GlContext() = default;

std::string GlContext::renderer_description() const {
  auto str = [](GLenum name) {
    const auto* s = reinterpret_cast<const char*>(glGetString(name));
    return std::string(s != nullptr ? s : "?");
  };
  return str(GL_RENDERER) + ", " + str(GL_VERSION);
}

void finish_context_setup(const std::string& who) {
  GLint major = 0, minor = 0, profile = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  glGetIntegerv(GL_CONTEXT_PROFILE_MASK, &profile);
  if (major * 10 + minor < 45 || (profile & GL_CONTEXT_CORE_PROFILE_BIT) == 0) {
    throw std::runtime_error(who + ": got GL " + std::to_string(major) + "." +
                             std::to_string(minor) + ", need 4.5 core");
  }
  enable_debug_output();
  check_error("context setup", __FILE__, __LINE__);
}

}  // namespace particles::gl
