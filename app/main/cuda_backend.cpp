// The CUDA backend: CudaPipeline over the renderer's GL buffers, chosen only when a CUDA device
// is present at run time.
#include <cuda_runtime.h>

#include "app/gl/particle_buffers.hpp"
#include "app/gl/render_target.hpp"
#include "app/main/backend.hpp"
#include "cuda/pipeline/cuda_pipeline.hpp"

namespace particles {
namespace {

class CudaBackend final : public Backend {
 public:
  std::string name() const override { return "cuda"; }

  void reset(const ModelParams& params, std::uint32_t count,
             gl::ParticleBuffers& buffers) override {
    buffers.resize(count);
    pipeline_.reset(params, count, buffers.vertex_buffer(), buffers.index_buffer());
  }

  FrameInfo run_frame(const FrameSettings& settings, const CompositeRequest* composite) override {
    if (composite == nullptr) return pipeline_.run_frame(settings);
    cuda::CompositeJob job;
    job.camera = composite->camera;
    job.background = composite->background;
    job.texture = composite->target->color_texture();
    job.texture_generation = composite->target->generation();
    return pipeline_.run_frame(settings, &job);
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
};

}  // namespace

std::unique_ptr<Backend> make_cuda_backend(std::string& why) {
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess || devices == 0) {
    why = status != cudaSuccess ? std::string("no CUDA device: ") + cudaGetErrorString(status)
                                : std::string("no CUDA device present");
    cudaGetLastError();  // clear the sticky "no device" status for later CUDA users
    return nullptr;
  }
  return std::make_unique<CudaBackend>();
}

}  // namespace particles
