#pragma once
// toml++, header-only, with the settings every includer must share (one program, one set of
// inline definitions). Include this, never <toml++/toml.h> itself.
//
// Header-only so the binary does not depend on libtomlplusplus.so at run time (CMake adds only
// toml++'s include directory; see app/scene/CMakeLists.txt).
#define TOML_HEADER_ONLY 1
// toml++ 3.3.0's internal assertions fire on some malformed files (`[[[` asserts in parse_key)
// that its release build reports as parse errors; Debug builds must report them the same way.
#define TOML_ASSERT(expr) static_cast<void>(0)
#include <toml++/toml.h>
