// The CPU backend: the CpuPipeline's frame, then one upload of vertices and draw order, and for
// the composite renderer the CPU compositor's image uploaded into the render target.
#include <chrono>
#include <span>

#include "app/gl/particle_buffers.hpp"
#include "app/gl/render_target.hpp"
#include "app/main/backend.hpp"
#include "core/backend_limits.hpp"
#include "core/composite/cpu_compositor.hpp"
#include "core/composite/difference_heat.hpp"
#include "core/composite/split_view.hpp"
#include "core/cpu_pipeline.hpp"
#include "core/scene_models.hpp"

namespace particles {
namespace {

class CpuBackend final : public Backend {
 public:
  CpuBackend() { pipeline_.set_auto_measures_cost(true); }

  std::string name() const override { return "cpu"; }

  void reset(const ModelParams& params, std::uint32_t count,
             gl::ParticleBuffers& buffers) override {
    // The last word on the limit, whoever asked (--backend auto's fallback from CUDA keeps the
    // count it was given): refused before anything changes.
    check_backend_count(name(), count, "particle count");
    buffers.resize(count, model_scales_sprites(params.model));
    buffers_ = &buffers;
    pipeline_.reset(params, count);
    frame_ = 0;
  }

  FrameInfo run_frame(const FrameSettings& settings, const CompositeRequest* composite) override {
    FrameInfo info = pipeline_.run_frame(settings);
    // The GL buffers stay current under either renderer: --verify reads them, and a switch back
    // to raster draws them at once.
    buffers_->upload(pipeline_.vertices(), pipeline_.order(), pipeline_.sprite_scales());
    std::span<const std::uint32_t> exact_order;
    if (settings.compare_order) {
      exact_order = pipeline_.exact_order(settings.view);
      buffers_->upload_compare_order(exact_order);
      info.compare_order = true;
    }
    if (composite != nullptr) {
      const auto start = std::chrono::steady_clock::now();
      compositor_.composite(pipeline_.vertices(), pipeline_.order(), composite->camera,
                            composite->background, image_, pipeline_.sprite_scales());
      if (settings.compare_order) {  // the comparison view costs a second composite
        compositor_.composite(pipeline_.vertices(), exact_order, composite->camera,
                              composite->background, exact_image_, pipeline_.sprite_scales());
        if (settings.compare_mode == CompareMode::heat) {
          compose_heat_view(exact_image_, image_);
        } else {
          compose_split_view(exact_image_, image_);
        }
      }
      info.composite_ms =
          std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - start)
              .count();
      info.composite_frame = frame_;
      composite->target->upload(image_.width, image_.height, image_.pixels);
    }
    ++frame_;
    return info;
  }

 private:
  CpuPipeline pipeline_;
  CpuCompositor compositor_;
  CompositeImage image_;
  CompositeImage exact_image_;  // the exact order's image, for the comparison view
  std::int64_t frame_ = 0;
  gl::ParticleBuffers* buffers_ = nullptr;
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend() {
  return std::make_unique<CpuBackend>();
}

}  // namespace particles
