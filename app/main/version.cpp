#include "app/main/version.hpp"

#include "app/main/backend.hpp"

// Set for this file alone by app/main/CMakeLists.txt, at configure time.
#ifndef PARTICLES_VERSION
#define PARTICLES_VERSION "unknown"
#endif
#ifndef PARTICLES_COMMIT
#define PARTICLES_COMMIT "unknown"
#endif
#ifndef PARTICLES_BUILD_TYPE
#define PARTICLES_BUILD_TYPE "unknown"
#endif
#ifndef PARTICLES_CUDA_ARCHITECTURES
#define PARTICLES_CUDA_ARCHITECTURES ""
#endif

namespace particles {

std::string version_text() {
  const std::string architectures = PARTICLES_CUDA_ARCHITECTURES;
  std::string why;
  const bool cuda = cuda_backend_available(why);
  return std::string("particles ") + PARTICLES_VERSION + "\n" +
         // The commit is read when CMake configures: a later commit built without reconfiguring
         // still shows the earlier one, which the label says.
         "commit " + PARTICLES_COMMIT + " (when configured)\n" + "build type " +
         (std::string(PARTICLES_BUILD_TYPE).empty() ? "none" : PARTICLES_BUILD_TYPE) + "\n" +
         "CUDA architectures: " +
         (architectures.empty() ? std::string("none (built without CUDA)") : architectures) + "\n" +
         "backends: cpu available; cuda " + (cuda ? "available" : "unavailable: " + why);
}

}  // namespace particles
