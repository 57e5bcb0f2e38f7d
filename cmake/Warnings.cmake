# Warning flags live on one INTERFACE target that every project target links.
add_library(particles_warnings INTERFACE)
target_compile_options(particles_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra --expt-relaxed-constexpr -Werror=all-warnings>)
if(PARTICLES_WERROR)
  target_compile_options(particles_warnings INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
endif()
