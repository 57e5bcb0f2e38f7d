// The CUDA backend on a device that is nearly full: a particle count that does not fit is
// refused with the count and the memory it needs, before anything is allocated, and --backend
// auto falls back to the CPU backend and says so. Another allocation takes all but 64 MiB of the
// device first. Skips without a CUDA device or a GL 4.5 context.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "app/gl/gl_context.hpp"
#include "app/gl/particle_buffers.hpp"
#include "app/main/backend.hpp"
#include "tests/gpu/pipeline_test_util.hpp"

namespace particles {
namespace {

constexpr std::size_t kLeaveFree = std::size_t{64} << 20;
constexpr std::uint32_t kCount = 1u << 20;  // about 276 MiB by the backend's estimate

// Holds all but about `leave` bytes of the device's free memory until destroyed.
class MemoryHog {
 public:
  explicit MemoryHog(std::size_t leave) {
    for (int i = 0; i < 64; ++i) {
      std::size_t free = 0, total = 0;
      if (cudaMemGetInfo(&free, &total) != cudaSuccess || free <= leave + (std::size_t{1} << 20))
        break;
      std::size_t bytes = free - leave;
      void* p = nullptr;
      while (bytes >= (std::size_t{1} << 20) && cudaMalloc(&p, bytes) != cudaSuccess) {
        cudaGetLastError();
        bytes /= 2;  // fragmented: take it in pieces
      }
      if (p == nullptr) break;
      blocks_.push_back(p);
    }
  }
  ~MemoryHog() {
    for (void* p : blocks_) cudaFree(p);
  }
  MemoryHog(const MemoryHog&) = delete;
  MemoryHog& operator=(const MemoryHog&) = delete;

  static std::size_t free_bytes() {
    std::size_t free = 0, total = 0;
    cudaMemGetInfo(&free, &total);
    return free;
  }

 private:
  std::vector<void*> blocks_;
};

class DeviceMemory : public ::testing::Test {
 protected:
  void SetUp() override {
    REQUIRE_CUDA_DEVICE();
    try {
      context_ = gl::make_headless_context(64, 64);
    } catch (const std::exception& e) {
      GTEST_SKIP() << "no OpenGL 4.5 core context: " << e.what();
    }
  }
  std::unique_ptr<gl::GlContext> context_;
};

TEST_F(DeviceMemory, ACountThatDoesNotFitIsRefusedWithTheCountAndTheMemoryItNeeds) {
  std::unique_ptr<Backend> backend = make_backend(BackendChoice::cuda);
  ASSERT_EQ(backend->name(), "cuda");
  gl::ParticleBuffers buffers;
  backend->reset(ModelParams{}, 4096, buffers);  // fine while the device is empty
  MemoryHog hog(kLeaveFree);
  ASSERT_LT(MemoryHog::free_bytes(), kLeaveFree + (std::size_t{16} << 20));
  try {
    backend->reset(ModelParams{}, kCount, buffers);
    FAIL() << "reset of " << kCount << " particles with " << MemoryHog::free_bytes()
           << " bytes free did not throw";
  } catch (const DeviceMemoryError& e) {
    const std::string message = e.what();
    EXPECT_EQ(e.count(), kCount);
    EXPECT_GT(e.needed_bytes(), e.free_bytes());
    EXPECT_EQ(message.rfind("the CUDA backend cannot hold 1048576 particles: they need about ", 0),
              0u)
        << message;
    EXPECT_NE(message.find(" GiB of device memory, 0.1 GiB is free"), std::string::npos) << message;
  }
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);  // nothing left for a later launch check to find
  // --backend cuda: reset_backend lets the error through (main prints it and exits 1).
  std::ostringstream notes;
  EXPECT_THROW(reset_backend(backend, BackendChoice::cuda, ModelParams{}, kCount, buffers, notes),
               DeviceMemoryError);
  EXPECT_EQ(backend->name(), "cuda");
}

TEST_F(DeviceMemory, AutoFallsBackToTheCpuBackendAndSaysSo) {
  std::unique_ptr<Backend> backend = make_backend(BackendChoice::automatic);
  ASSERT_EQ(backend->name(), "cuda");
  gl::ParticleBuffers buffers;
  MemoryHog hog(kLeaveFree);
  std::ostringstream notes;
  reset_backend(backend, BackendChoice::automatic, ModelParams{}, kCount, buffers, notes);
  EXPECT_EQ(backend->name(), "cpu");
  EXPECT_NE(notes.str().find("note: the CUDA backend cannot hold 1048576 particles"),
            std::string::npos)
      << notes.str();
  EXPECT_NE(notes.str().find("--backend auto falls back to the CPU backend"), std::string::npos)
      << notes.str();
  FrameSettings settings;
  settings.dt = 1.0f / 60.0f;
  EXPECT_NO_THROW(backend->run_frame(settings));  // and the CPU backend runs the count
}

}  // namespace
}  // namespace particles
