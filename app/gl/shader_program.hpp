#pragma once
// GLSL programs built from files in shaders/. Each file gets "#version 450 core" prepended and
// its #include "name" lines replaced by that file from the same folder (one level deep), so the
// shaders see the same shaders/layout.h numbers the C++ side compiles against.
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>

#include "app/gl/gl_handle.hpp"

namespace particles::gl {

// The folder holding the shader files, the first of: $PARTICLES_SHADER_DIR (an error if set but
// wrong), <executable dir>/shaders, <executable dir>/../shaders, the source tree's shaders/.
// Throws listing every place it looked when none has particle.vert.
std::filesystem::path find_shader_dir();

// One stage's complete GLSL text; `name` is what error messages call it (usually the file).
struct ShaderSource {
  Enum stage = 0;  // GL_VERTEX_SHADER, GL_FRAGMENT_SHADER, ...
  std::string name;
  std::string text;
};

// Reads `file`, prepends the #version line and resolves its #include lines. In compiler logs,
// source string 0 is the file itself (with its own line numbers) and 1.. are included files.
ShaderSource load_shader_file(Enum stage, const std::filesystem::path& file);

class ShaderProgram {
 public:
  // Compiles and links; throws std::runtime_error with the stage's name and the info log.
  explicit ShaderProgram(std::span<const ShaderSource> stages);
  // Loads <dir>/<vertex> and <dir>/<fragment>.
  ShaderProgram(const std::filesystem::path& dir, std::string_view vertex,
                std::string_view fragment);

  Name id() const { return program_.get(); }
  void use() const;  // glUseProgram

  // Location of an active uniform, looked up once at link time; -1 when the linker removed it
  // (GL ignores uniform writes to -1, so an unused uniform is not an error).
  int uniform(std::string_view name) const;

 private:
  void cache_uniforms();

  Program program_;
  std::unordered_map<std::string, int> uniforms_;
};

}  // namespace particles::gl
