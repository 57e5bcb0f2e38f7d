#pragma once
// GL error handling. GL reports errors through a sticky flag rather than return values, so we
// read it after setup calls (creation, allocation, linking) and throw with the call's text and
// location. Per-frame draw calls are not wrapped: glGetError can force a pipeline sync on some
// drivers, and the debug callback (debug builds) reports those calls instead.
#include <string>
#include <string_view>

namespace particles::gl {

// Name of a glGetError code ("GL_INVALID_ENUM", ...).
std::string_view error_name(unsigned int error);

// Drains the GL error flags; throws std::runtime_error naming `what`, the file and line if any
// was set. Never compiled out: setup failures must not go unnoticed in release builds.
void check_error(std::string_view what, const char* file, int line);

// Installs a KHR_debug message callback that logs to stderr. Enabled in debug builds, or in any
// build when the environment variable PARTICLES_GL_DEBUG is set. Returns whether it was enabled.
bool enable_debug_output();

}  // namespace particles::gl

// Runs a GL call (a statement) and throws if it raised a GL error.
#define GL_CHECK(call)                                       \
  do {                                                       \
    call;                                                    \
    ::particles::gl::check_error(#call, __FILE__, __LINE__); \
  } while (false)
