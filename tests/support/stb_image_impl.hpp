#pragma once
// Compiles stb_image's PNG reader into the including file: include it in one file of a program
// (a test binary, a tool), before tests/support/read_png.hpp. Static, so this file's copy cannot
// clash with another library's (Debian's libstb exports one too), and its warnings are stb's own,
// not the project's.
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#define STBI_ONLY_PNG
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#endif
#include <stb/stb_image.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
