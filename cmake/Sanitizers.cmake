# Instrumentation for CI's extra builds (scripts/ci-extra.sh): sanitizers on every host target,
# and libFuzzer's coverage hooks for the fuzz targets in fuzz/. Both are host-only: configure
# them with -DPARTICLES_WITH_CUDA=OFF.
set(PARTICLES_SANITIZE "" CACHE STRING
    "Sanitizers for every host target, as -fsanitize takes them (e.g. address,undefined)")
option(PARTICLES_FUZZ "Build the libFuzzer targets in fuzz/ (clang only)" OFF)

if((PARTICLES_SANITIZE OR PARTICLES_FUZZ) AND PARTICLES_HAVE_CUDA)
  message(FATAL_ERROR "PARTICLES_SANITIZE and PARTICLES_FUZZ instrument host code only: "
                      "configure with -DPARTICLES_WITH_CUDA=OFF")
endif()

if(PARTICLES_SANITIZE)
  # No recovery: the first report ends the process, so UB fails its test instead of being a
  # line in a log that passed.
  add_compile_options(-fsanitize=${PARTICLES_SANITIZE} -fno-sanitize-recover=all
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${PARTICLES_SANITIZE})
endif()

if(PARTICLES_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "PARTICLES_FUZZ needs clang (libFuzzer): CC=clang-16 CXX=clang++-16")
  endif()
  # Every library the targets link is instrumented for coverage; only the targets link the
  # fuzzer's main (fuzz/CMakeLists.txt).
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
