// Linked instead of cuda_backend.cpp when the build has no CUDA compiler.
#include "app/main/backend.hpp"

namespace particles {

std::unique_ptr<Backend> make_cuda_backend(std::string& why) {
  why = "this build has no CUDA support (nvcc was not found at configure time)";
  return nullptr;
}

}  // namespace particles
