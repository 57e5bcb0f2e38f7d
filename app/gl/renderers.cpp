// The GL-drawn renderers, by kind: the one place a new GL-drawn renderer is named.
#include <memory>

#include "app/gl/raster_renderer.hpp"
#include "app/gl/renderer.hpp"

namespace particles::gl {

std::unique_ptr<Renderer> make_gl_renderer(RendererKind kind, ParticleRenderer& sprites) {
  switch (kind) {
    case RendererKind::raster:
      return std::make_unique<RasterRenderer>(sprites);
    case RendererKind::composite:
    case RendererKind::weighted_blended:
    case RendererKind::stochastic:
      break;  // the backend composites it
  }
  return nullptr;
}

}  // namespace particles::gl
