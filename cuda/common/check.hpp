#pragma once
// Error handling for the CUDA runtime: every failing call throws with the expression, file and
// line. Checks are never compiled out; a debug build additionally synchronises after launches so
// an asynchronous fault is reported at the launch that caused it.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace particles::cuda {

class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const char* expression, const char* file, int line)
      : std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + expression +
                           " failed: " + cudaGetErrorName(code) + " (" + cudaGetErrorString(code) +
                           ")"),
        code_(code) {}
  cudaError_t code() const noexcept { return code_; }

 private:
  cudaError_t code_;
};

inline void check(cudaError_t code, const char* expression, const char* file, int line) {
  if (code != cudaSuccess) throw CudaError(code, expression, file, line);
}

}  // namespace particles::cuda

#define CUDA_CHECK(expr) ::particles::cuda::check((expr), #expr, __FILE__, __LINE__)

// After a kernel launch on `stream`: reports launch-configuration errors at once, and in debug
// builds (PARTICLES_SYNC_LAUNCHES) also faults raised while the kernel ran, by waiting for the
// stream, unless it is being captured into a graph, where waiting is illegal and would end the
// capture with an error.
namespace particles::cuda {
inline void check_launch(const char* name, cudaStream_t stream, const char* file, int line) {
  check(cudaGetLastError(), name, file, line);
#ifdef PARTICLES_SYNC_LAUNCHES
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  check(cudaStreamIsCapturing(stream, &status), name, file, line);
  if (status == cudaStreamCaptureStatusNone) check(cudaStreamSynchronize(stream), name, file, line);
#else
  (void)stream;
#endif
}
}  // namespace particles::cuda

#define CUDA_CHECK_LAUNCH(name, stream) \
  ::particles::cuda::check_launch((name), (stream), __FILE__, __LINE__)
