// The CPU twins of the composited renderers, by kind: the one place a new composited renderer's
// CPU twin is named.
#include <memory>

#include "core/composite/compositor.hpp"
#include "core/composite/cpu_compositor.hpp"

namespace particles {
namespace {

// The tile compositor's twin, through the renderer interface.
class TileCompositorTwin final : public Compositor {
 public:
  void composite(const CompositeParticles& p, const SpriteCamera& camera, const PixelF& background,
                 CompositeImage& out) override {
    twin_.composite(p.vertices, p.order, camera, background, out, p.sprite_scales);
  }

 private:
  CpuCompositor twin_;
};

}  // namespace

std::unique_ptr<Compositor> make_cpu_compositor(RendererKind kind) {
  switch (kind) {
    case RendererKind::composite:
      return std::make_unique<TileCompositorTwin>();
    case RendererKind::raster:
      break;  // GL draws it
  }
  return nullptr;
}

}  // namespace particles
