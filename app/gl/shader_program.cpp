#include "app/gl/shader_program.hpp"

#include <glad/gl.h>

#include <array>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "app/gl/gl_check.hpp"
#include "core/file_bytes.hpp"

#ifndef PARTICLES_SOURCE_SHADER_DIR
#error "PARTICLES_SOURCE_SHADER_DIR must name the source tree's shaders/ folder"
#endif

namespace particles::gl {
namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& file) {
  std::optional<std::string> text = file_bytes(file);
  if (!text) throw std::runtime_error("cannot read shader file " + file.string());
  return std::move(*text);
}

// The info log of a shader or program whose status (GL_COMPILE_STATUS, GL_LINK_STATUS) is not
// GL_TRUE, std::nullopt where it is: GL reports both kinds of object through twin calls
// (glGetShaderiv and glGetShaderInfoLog, glGetProgramiv and glGetProgramInfoLog).
template <class GetStatus, class GetLog>
std::optional<std::string> failure_log(GLuint object, GLenum status, GetStatus get_status,
                                       GetLog get_log) {
  GLint ok = GL_FALSE;
  get_status(object, status, &ok);
  if (ok == GL_TRUE) return std::nullopt;
  std::array<char, 4096> log{};
  get_log(object, static_cast<GLsizei>(log.size()), nullptr, log.data());
  return std::string(log.data());
}

bool has_shaders(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / "particle.vert", ec);
}

const char* stage_name(Enum stage) {
  switch (stage) {
    case GL_VERTEX_SHADER:
      return "vertex";
    case GL_FRAGMENT_SHADER:
      return "fragment";
    case GL_GEOMETRY_SHADER:
      return "geometry";
    case GL_COMPUTE_SHADER:
      return "compute";
    default:
      return "shader";
  }
}

}  // namespace

fs::path find_shader_dir() {
  if (const char* env = std::getenv("PARTICLES_SHADER_DIR"); env != nullptr && *env != '\0') {
    // An explicit choice that is wrong should fail loudly, not fall back to another copy.
    if (!has_shaders(env)) {
      throw std::runtime_error(std::string("PARTICLES_SHADER_DIR=") + env +
                               " has no particle.vert");
    }
    return env;
  }
  std::vector<fs::path> tried;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    tried.push_back(exe.parent_path() / "shaders");
    tried.push_back(exe.parent_path().parent_path() / "shaders");
  }
  tried.emplace_back(PARTICLES_SOURCE_SHADER_DIR);
  std::string list;
  for (const fs::path& dir : tried) {
    if (has_shaders(dir)) return dir;
    list += "\n  " + dir.string();
  }
  throw std::runtime_error("shader folder not found; set PARTICLES_SHADER_DIR. Looked in:" + list);
}

ShaderSource load_shader_file(Enum stage, const fs::path& file) {
  std::istringstream in(read_text(file));
  std::string out = "#version 450 core\n#line 1 0\n";
  int line_no = 0;
  int next_string = 1;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    constexpr std::string_view directive = "#include \"";
    if (line.starts_with(directive) && line.size() > directive.size() + 1 && line.back() == '"') {
      const std::string name = line.substr(directive.size(), line.size() - directive.size() - 1);
      // #line keeps compiler messages pointing at the right file and line.
      out += "#line 1 " + std::to_string(next_string++) + "\n";
      out += read_text(file.parent_path() / name);
      out += "\n#line " + std::to_string(line_no + 1) + " 0\n";
    } else {
      out += line + "\n";
    }
  }
  return {stage, file.string(), std::move(out)};
}

ShaderProgram::ShaderProgram(std::span<const ShaderSource> stages) : program_(create_program()) {
  std::vector<Shader> shaders;
  for (const ShaderSource& s : stages) {
    Shader shader = create_shader(s.stage);
    const char* text = s.text.c_str();
    glShaderSource(shader.get(), 1, &text, nullptr);
    glCompileShader(shader.get());
    if (const std::optional<std::string> log =
            failure_log(shader.get(), GL_COMPILE_STATUS, glGetShaderiv, glGetShaderInfoLog)) {
      throw std::runtime_error(std::string("compiling ") + stage_name(s.stage) + " shader " +
                               s.name + " failed:\n" + *log);
    }
    glAttachShader(program_.get(), shader.get());
    shaders.push_back(std::move(shader));
  }
  glLinkProgram(program_.get());
  if (const std::optional<std::string> log =
          failure_log(program_.get(), GL_LINK_STATUS, glGetProgramiv, glGetProgramInfoLog)) {
    std::string names;
    for (const ShaderSource& s : stages) names += " " + s.name;
    throw std::runtime_error("linking program (" + names + " ) failed:\n" + *log);
  }
  // The program keeps the compiled code; the shader objects can go (the Shader handles delete
  // them on return, after detaching so the driver can free them now).
  for (const Shader& shader : shaders) glDetachShader(program_.get(), shader.get());
  check_error("building shader program", __FILE__, __LINE__);
  cache_uniforms();
}

ShaderProgram::ShaderProgram(const fs::path& dir, std::string_view vertex,
                             std::string_view fragment)
    : ShaderProgram(std::array{load_shader_file(GL_VERTEX_SHADER, dir / vertex),
                               load_shader_file(GL_FRAGMENT_SHADER, dir / fragment)}) {}

void ShaderProgram::cache_uniforms() {
  GLint count = 0;
  glGetProgramInterfaceiv(program_.get(), GL_UNIFORM, GL_ACTIVE_RESOURCES, &count);
  for (GLint i = 0; i < count; ++i) {
    std::array<char, 256> name{};
    glGetProgramResourceName(program_.get(), GL_UNIFORM, static_cast<GLuint>(i),
                             static_cast<GLsizei>(name.size()), nullptr, name.data());
    const GLint location = glGetProgramResourceLocation(program_.get(), GL_UNIFORM, name.data());
    // Block members have no location; they are set through buffers, not by name.
    if (location >= 0) uniforms_.emplace(name.data(), location);
  }
}

void ShaderProgram::use() const {
  glUseProgram(program_.get());
}

int ShaderProgram::uniform(std::string_view name) const {
  const auto it = uniforms_.find(std::string(name));
  return it == uniforms_.end() ? -1 : it->second;
}

}  // namespace particles::gl
