#include <cstdio>
#include <iostream>
#include <stdexcept>

#include "app/main/backend.hpp"

namespace particles {
namespace {

std::string gib(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GiB", static_cast<double>(bytes) / double(1u << 30));
  return text;
}

}  // namespace

DeviceMemoryError::DeviceMemoryError(std::uint32_t count, std::uint64_t needed_bytes,
                                     std::uint64_t free_bytes)
    : std::runtime_error("the CUDA backend cannot hold " + std::to_string(count) +
                         " particles: they need about " + gib(needed_bytes) +
                         " of device memory, " + gib(free_bytes) + " is free"),
      count_(count),
      needed_(needed_bytes),
      free_(free_bytes) {}

std::unique_ptr<Backend> make_backend(BackendChoice choice) {
  if (choice == BackendChoice::cpu) return make_cpu_backend();
  std::string why;
  if (auto cuda = make_cuda_backend(why)) return cuda;
  if (choice == BackendChoice::cuda) {
    throw std::runtime_error("--backend cuda: " + why +
                             "; --backend cpu runs without CUDA (auto picks it by itself)");
  }
  std::cerr << "note: using the CPU backend (" << why << ")\n";
  return make_cpu_backend();
}

void reset_backend(std::unique_ptr<Backend>& backend, BackendChoice choice,
                   const ModelParams& params, std::uint32_t count, gl::ParticleBuffers& buffers,
                   std::ostream& notes) {
  try {
    backend->reset(params, count, buffers);
  } catch (const DeviceMemoryError& e) {
    if (choice != BackendChoice::automatic) throw;
    notes << "note: " << e.what() << "; --backend auto falls back to the CPU backend\n";
    backend = make_cpu_backend();
    backend->reset(params, count, buffers);
  }
}

}  // namespace particles
