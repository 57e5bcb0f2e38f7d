#pragma once
// CUDA_CHECK_LAUNCH synchronises the device in debug builds, which is illegal while a stream is
// being captured into a graph (it would invalidate the capture). The pipeline's stages launch
// both eagerly (tests, reset) and under capture (every frame), so they check with this instead:
// the same throw-with-file-and-line, and the debug sync only where it is allowed.
#include <cuda_runtime.h>

#include "cuda/check.hpp"

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

#define PARTICLES_CHECK_LAUNCH(name, stream) \
  ::particles::cuda::check_launch((name), (stream), __FILE__, __LINE__)
