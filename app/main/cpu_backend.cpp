// The CPU backend: the CpuPipeline's frame, then one upload of vertices and draw order, and for
// a composited renderer its CPU twin's image (core/composite/compositor.hpp) uploaded into the
// render target.
#include <array>
#include <chrono>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>

#include "app/gl/particle_buffers.hpp"
#include "app/gl/render_target.hpp"
#include "app/main/backend.hpp"
#include "core/backend_limits.hpp"
#include "core/composite/compositor.hpp"
#include "core/composite/cpu_compositor.hpp"
#include "core/composite/difference_heat.hpp"
#include "core/composite/split_view.hpp"
#include "core/cpu_pipeline.hpp"
#include "core/pixels_off.hpp"
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
    exact_order_ = {};  // its storage is the pipeline's, resized by the reset
    drawn_image_ = false;
    pixels_off_.reset();
  }

  // No PixelsOffRequest is needed: pixels_off() composites what the frame did not.
  FrameInfo run_frame(const FrameSettings& settings, const CompositeRequest* composite,
                      const PixelsOffRequest* /*pixels_off*/) override {
    FrameInfo info = pipeline_.run_frame(settings);
    view_ = settings.view;
    exact_order_ = {};
    drawn_image_ = false;
    pixels_off_.reset();
    // The GL buffers stay current under either renderer: --verify reads them, and a switch back
    // to raster draws them at once.
    buffers_->upload(pipeline_.vertices(), pipeline_.order(), pipeline_.sprite_scales());
    if (settings.compare_order) {
      exact_order_ = pipeline_.exact_order(settings.view);
      buffers_->upload_compare_order(exact_order_);
      info.compare_order = true;
    }
    if (composite != nullptr) {
      // The renderer's whole work is timed: both composites of the comparison view, the count
      // that reuses them, composing the view and the upload (issue #63: an untimed part lands in
      // the HUD's "other").
      const auto start = std::chrono::steady_clock::now();
      Compositor& renderer = compositor(composite->renderer);
      const CompositeParticles drawn = particles(pipeline_.order());
      renderer.composite(drawn, composite->camera, composite->background, image_);
      // pixels_off() reuses the frame's image unless the comparison view was composed over it.
      drawn_image_ = !settings.compare_order;
      if (settings.compare_order) {  // the comparison view costs a second composite
        // Against the reference, whatever renderer shows the frame (renderer_kind.hpp).
        compositor(kPixelsOffRenderer)
            .composite(particles(exact_order_), composite->camera, composite->background,
                       exact_image_);
        // Both images exist now, before the view is composed from them: one pass to compare.
        pixels_off_ = count_pixels_off(exact_image_, image_, composite->background);
        if (settings.compare_mode == CompareMode::heat) {
          compose_heat_view(exact_image_, image_);
        } else {
          compose_split_view(exact_image_, image_);
        }
      }
      composite->target->upload(image_.width, image_.height, image_.pixels);
      info.composite_ms =
          std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - start)
              .count();
      info.composite_frame = frame_;
    }
    ++frame_;
    return info;
  }

  // What the frame composited is reused (the comparison view's pair, or the drawn image); the
  // rest is composited here, outside the frame's timed work.
  std::optional<PixelsOff> pixels_off(const SpriteCamera& camera,
                                      const PixelF& background) override {
    if (pixels_off_) return pixels_off_;
    if (exact_order_.empty()) exact_order_ = pipeline_.exact_order(view_);
    Compositor& measure = compositor(kPixelsOffRenderer);
    if (!drawn_image_) {
      measure.composite(particles(pipeline_.order()), camera, background, image_);
      drawn_image_ = true;
    }
    measure.composite(particles(exact_order_), camera, background, exact_image_);
    pixels_off_ = count_pixels_off(exact_image_, image_, background);
    return pixels_off_;
  }

 private:
  // The frame's particles in `order`.
  CompositeParticles particles(std::span<const std::uint32_t> order) const {
    return {pipeline_.vertices(), pipeline_.sprite_scales(), order};
  }

  // The CPU twin of composited renderer `kind`, made on its first frame and kept (a switch back
  // costs nothing).
  Compositor& compositor(RendererKind kind) {
    std::unique_ptr<Compositor>& c = compositors_[renderer_index(kind)];
    if (!c) c = make_cpu_compositor(kind);
    if (!c) {
      throw std::invalid_argument("the " + std::string(to_string(kind)) +
                                  " renderer has no CPU compositor");
    }
    return *c;
  }

  CpuPipeline pipeline_;
  // By renderer (renderer_index); the measure's images are kPixelsOffRenderer's, so when that
  // renderer shows the frame one compositor (and its scratch memory) serves both.
  std::array<std::unique_ptr<Compositor>, kRendererCount> compositors_;
  CompositeImage image_;
  CompositeImage exact_image_;  // the exact order's image, for the comparison view
  // The last frame's, for pixels_off(): its view, its exact order once computed, whether image_
  // holds its drawn order's image (not a composed view), and its measure once made.
  DepthFrame view_;
  std::span<const std::uint32_t> exact_order_;
  bool drawn_image_ = false;
  std::optional<PixelsOff> pixels_off_;
  std::int64_t frame_ = 0;
  gl::ParticleBuffers* buffers_ = nullptr;
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend() {
  return std::make_unique<CpuBackend>();
}

}  // namespace particles
