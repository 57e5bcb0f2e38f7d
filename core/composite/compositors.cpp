// The CPU twins of the composited renderers, by kind: the one place a new composited renderer's
// CPU twin is named.
#include <memory>

#include "core/composite/compositor.hpp"
#include "core/composite/cpu_compositor.hpp"
#include "core/composite/cpu_stochastic.hpp"
#include "core/composite/cpu_weighted_blended.hpp"

namespace particles {
namespace {

// A twin whose composite takes the interface's arguments as they are, through the interface: the
// tile compositor's (CpuCompositor) and weighted blended OIT's (CpuWeightedBlended, for which the
// order is only the list of particles to draw).
template <class Twin>
class PlainTwin final : public Compositor {
 public:
  void composite(const CompositeParticles& p, const SpriteCamera& camera, const PixelF& background,
                 CompositeImage& out) override {
    twin_.composite(p.vertices, p.order, camera, background, out, p.sprite_scales);
  }

 private:
  Twin twin_;
};

// Stochastic transparency at its default settings (8 samples, alpha-corrected) with a fixed
// seed: a still frame shows the same noise every time it is drawn.
class StochasticTwin final : public Compositor {
 public:
  void composite(const CompositeParticles& p, const SpriteCamera& camera, const PixelF& background,
                 CompositeImage& out) override {
    twin_.composite(p.vertices, p.order, camera, background, StochasticSettings{}, out,
                    p.sprite_scales);
  }

 private:
  CpuStochastic twin_;
};

}  // namespace

std::unique_ptr<Compositor> make_cpu_compositor(RendererKind kind) {
  switch (kind) {
    case RendererKind::composite:
      return std::make_unique<PlainTwin<CpuCompositor>>();
    case RendererKind::weighted_blended:
      return std::make_unique<PlainTwin<CpuWeightedBlended>>();
    case RendererKind::stochastic:
      return std::make_unique<StochasticTwin>();
    case RendererKind::raster:
      break;  // GL draws it
  }
  return nullptr;
}

}  // namespace particles
