// The CUDA backend: CudaPipeline over the renderer's GL buffers, chosen only when a CUDA device
// is present at run time.
#include <cuda_runtime.h>

#include <optional>

#include "app/gl/particle_buffers.hpp"
#include "app/gl/render_target.hpp"
#include "app/main/backend.hpp"
#include "core/scene_models.hpp"
#include "cuda/common/check.hpp"
#include "cuda/pipeline/cuda_pipeline.hpp"

namespace particles {

// Device memory a particle takes, estimated from the buffers sized by the count: two state
// arrays (2 x 32 B), keys and order (8 B), GL's vertex and element buffers (20 B), the points
// model's resampled cloud (16 B), every sorter's scratch (radix, CUB, odd-even, quicksort and the
// splitter partition: about 64 B) and the compositor's per-sprite arrays and tile entries (about
// 40 B). `estimated_device_bytes` adds a fixed 64 MiB for graphs, look-back words and the rest.
inline constexpr std::uint64_t kDeviceBytesPerParticle = 212;
inline constexpr std::uint64_t kDeviceFixedBytes = std::uint64_t{64} << 20;

std::uint64_t estimated_device_bytes(std::uint32_t count) {
  return kDeviceFixedBytes + kDeviceBytesPerParticle * count;
}

namespace {

class CudaBackend final : public Backend {
 public:
  std::string name() const override { return "cuda"; }

  // Refuses a count the device cannot hold before touching anything (DeviceMemoryError), and
  // turns an allocation that fails all the same into that error too.
  void reset(const ModelParams& params, std::uint32_t count,
             gl::ParticleBuffers& buffers) override {
    const std::uint64_t needed = estimated_device_bytes(count);
    std::size_t free = 0, total = 0;
    if (cudaMemGetInfo(&free, &total) != cudaSuccess) {
      cudaGetLastError();
      free = 0;  // unknown: let the allocations say
    } else if (needed > free) {
      throw DeviceMemoryError(count, needed, free);
    }
    try {
      buffers.resize(count, model_scales_sprites(params.model));
      buffers_ = &buffers;
      pipeline_.reset(params, count, buffers.vertex_buffer(), buffers.index_buffer(),
                      buffers.scale_buffer());
    } catch (const cuda::CudaError& e) {
      if (e.code() != cudaErrorMemoryAllocation) throw;
      cudaGetLastError();  // not sticky, but later launch checks would read it
      throw DeviceMemoryError(count, needed, free);
    }
  }

  FrameInfo run_frame(const FrameSettings& settings, const CompositeRequest* composite,
                      const PixelsOffRequest* pixels_off) override {
    std::optional<cuda::PixelsOffJob> measure;
    if (pixels_off != nullptr) {
      measure = cuda::PixelsOffJob{pixels_off->camera, pixels_off->background, pixels_off->wait};
    }
    const cuda::PixelsOffJob* job_of_measure = measure ? &*measure : nullptr;
    if (composite == nullptr) {
      // The raster comparison view draws the exact order from a GL buffer of its own.
      const GLuint compare =
          settings.compare_order && buffers_ != nullptr ? buffers_->ensure_compare_order() : 0;
      return pipeline_.run_frame(settings, nullptr, compare, job_of_measure);
    }
    cuda::CompositeJob job;
    job.renderer = composite->renderer;
    job.camera = composite->camera;
    job.background = composite->background;
    job.texture = composite->target->color_texture();
    job.texture_generation = composite->target->generation();
    job.read_back = composite->read_back;
    return pipeline_.run_frame(settings, &job, 0, job_of_measure);
  }

  // Counted on the GPU from the images the frame's PixelsOffRequest had composited (the
  // arguments are that request's).
  std::optional<PixelsOff> pixels_off(const SpriteCamera& /*camera*/,
                                      const PixelF& /*background*/) override {
    return pipeline_.pixels_off();
  }

  std::optional<std::uint64_t> device_memory_used() const override {
    std::size_t free = 0, total = 0;
    if (cudaMemGetInfo(&free, &total) != cudaSuccess) {
      cudaGetLastError();  // a failed query is no frame's error
      return std::nullopt;
    }
    return static_cast<std::uint64_t>(total - free);
  }

  std::vector<StageTimes> drain_stage_times() override {
    const StageTimes last = pipeline_.drain_stage_times();
    if (last.frame < 0) return {};
    return {last};
  }

 private:
  cuda::CudaPipeline pipeline_;
  gl::ParticleBuffers* buffers_ = nullptr;
};

}  // namespace

namespace {

// 12040 -> "12.4", as cudaRuntimeGetVersion and cudaDriverGetVersion count.
std::string cuda_version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

}  // namespace

bool cuda_backend_available(std::string& why) {
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  cudaGetLastError();  // clear the sticky "no device" status for later CUDA users
  if (status == cudaSuccess && devices > 0) return true;
  if (status == cudaErrorInsufficientDriver) {
    // The runtime's own words ("CUDA driver version is insufficient for CUDA runtime version")
    // do not say that the usual cause is no driver at all, nor which versions are involved.
    int runtime = 0, driver = 0;
    cudaRuntimeGetVersion(&runtime);
    cudaDriverGetVersion(&driver);  // 0 when no driver is installed
    why = driver == 0 ? "no usable CUDA driver: no NVIDIA driver is installed (this build's "
                        "CUDA runtime is " +
                            cuda_version_text(runtime) + ")"
                      : "no usable CUDA driver: the NVIDIA driver supports CUDA up to " +
                            cuda_version_text(driver) + ", older than this build's CUDA runtime " +
                            cuda_version_text(runtime);
  } else if (status == cudaSuccess || status == cudaErrorNoDevice) {
    why = "no CUDA device present";
  } else {
    why = std::string("no usable CUDA device: ") + cudaGetErrorString(status);
  }
  return false;
}

std::unique_ptr<Backend> make_cuda_backend(std::string& why) {
  if (!cuda_backend_available(why)) return nullptr;
  return std::make_unique<CudaBackend>();
}

}  // namespace particles
