// The CUDA kernels of the composited renderers, by kind: the one place a new composited
// renderer's kernels are named.
#include <memory>

#include "cuda/composite/device_compositor.hpp"
#include "cuda/composite/tile_compositor.hpp"

namespace particles::cuda {
namespace {

// The tile compositor through the renderer interface: every call goes straight to it.
class TileRenderer final : public DeviceCompositor {
 public:
  void composite(cudaStream_t stream, const DeviceParticles& p, const SpriteCamera& camera,
                 const PixelF& background, const CompositeOutput& output) override {
    tiles_.composite(stream, p.vertices, p.sprite_scales, p.order, p.count, camera, background,
                     output);
  }
  void set_frame(std::int64_t frame) override { tiles_.set_frame(frame); }
  std::optional<CompositeTiming> poll_timing() override {
    const std::optional<TileCompositor::Timing> t = tiles_.poll_timing();
    if (!t) return std::nullopt;
    return CompositeTiming{t->frame, t->ms};
  }
  void forget_timings() override { tiles_.forget_timings(); }
  bool complete(cudaStream_t stream) override { return tiles_.complete(stream); }

 private:
  TileCompositor tiles_;
};

}  // namespace

std::unique_ptr<DeviceCompositor> make_device_compositor(RendererKind kind) {
  switch (kind) {
    case RendererKind::composite:
      return std::make_unique<TileRenderer>();
    case RendererKind::raster:
      break;  // GL draws it
    case RendererKind::weighted_blended:
    case RendererKind::stochastic:
      break;  // no CUDA kernels yet: the table offers them on the CPU backend only
  }
  return nullptr;
}

}  // namespace particles::cuda
