// Linked instead of cuda_backend.cpp when the build has no CUDA compiler.
#include "app/main/backend.hpp"

namespace particles {

bool cuda_backend_available(std::string& why) {
  why = "this build has no CUDA support (nvcc was not found at configure time)";
  return false;
}

std::unique_ptr<Backend> make_cuda_backend(std::string& why) {
  cuda_backend_available(why);
  return nullptr;
}

}  // namespace particles
