# The OpenGL 4.5 core loader (plus KHR_debug) is generated at build time by Debian's glad2
# (python3-glad); nothing generated is committed.
find_program(GLAD_EXECUTABLE glad REQUIRED)
set(_glad_dir ${CMAKE_CURRENT_BINARY_DIR}/glad)
add_custom_command(
  OUTPUT ${_glad_dir}/src/gl.c ${_glad_dir}/include/glad/gl.h
  COMMAND ${GLAD_EXECUTABLE} --quiet --reproducible --api gl:core=4.5 --extensions GL_KHR_debug
          --out-path ${_glad_dir} c
  COMMENT "Generating the OpenGL 4.5 core loader with glad2"
  VERBATIM)
add_library(glad_gl STATIC ${_glad_dir}/src/gl.c)
target_include_directories(glad_gl SYSTEM PUBLIC ${_glad_dir}/include)
set_target_properties(glad_gl PROPERTIES POSITION_INDEPENDENT_CODE ON)
