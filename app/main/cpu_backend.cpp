// The CPU backend: the CpuPipeline's frame, then one upload of vertices and draw order.
#include "app/gl/particle_buffers.hpp"
#include "app/main/backend.hpp"
#include "core/cpu_pipeline.hpp"

namespace particles {
namespace {

class CpuBackend final : public Backend {
 public:
  std::string name() const override { return "cpu"; }

  void reset(const ModelParams& params, std::uint32_t count,
             gl::ParticleBuffers& buffers) override {
    buffers.resize(count);
    buffers_ = &buffers;
    pipeline_.reset(params, count);
  }

  FrameInfo run_frame(const FrameSettings& settings) override {
    const FrameInfo info = pipeline_.run_frame(settings);
    buffers_->upload(pipeline_.vertices(), pipeline_.order());
    return info;
  }

 private:
  CpuPipeline pipeline_;
  gl::ParticleBuffers* buffers_ = nullptr;
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend() {
  return std::make_unique<CpuBackend>();
}

}  // namespace particles
