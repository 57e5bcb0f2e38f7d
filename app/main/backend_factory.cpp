#include <iostream>
#include <stdexcept>

#include "app/main/backend.hpp"

namespace particles {

std::unique_ptr<Backend> make_backend(BackendChoice choice) {
  if (choice == BackendChoice::cpu) return make_cpu_backend();
  std::string why;
  if (auto cuda = make_cuda_backend(why)) return cuda;
  if (choice == BackendChoice::cuda) {
    throw std::runtime_error("--backend cuda: " + why);
  }
  std::cerr << "note: using the CPU backend (" << why << ")\n";
  return make_cpu_backend();
}

}  // namespace particles
