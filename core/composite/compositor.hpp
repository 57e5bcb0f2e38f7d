#pragma once
// The CPU backend's side of a composited renderer (core/renderer_kind.hpp): the frame's particles
// and view in, an image out, which the backend uploads into the render target. The CPU backend
// runs "the composited renderer the frame names" through this interface without knowing which it
// is; a new composited renderer's CPU twin implements it and is named in make_cpu_compositor
// (compositors.cpp). The CUDA backend's counterpart is cuda/composite/device_compositor.hpp.
#include <cstdint>
#include <memory>
#include <span>

#include "core/composite/cpu_compositor.hpp"
#include "core/composite/pixel.hpp"
#include "core/composite/sprite.hpp"
#include "core/particle.hpp"
#include "core/renderer_kind.hpp"

namespace particles {

// One frame's particles as a compositor takes them: vertices[order[0]] is drawn first (farthest);
// sprite_scales is empty (every sprite the camera's size) or one per vertex. A renderer whose
// image does not depend on the order (order-independent transparency) may read it as the list of
// particles to draw.
struct CompositeParticles {
  std::span<const ParticleVertex> vertices;
  std::span<const float> sprite_scales;
  std::span<const std::uint32_t> order;
};

class Compositor {
 public:
  virtual ~Compositor() = default;
  // `out` (resized to the camera's viewport) becomes the particles seen from `camera` over
  // `background` (premultiplied), premultiplied float pixels, rows bottom first.
  virtual void composite(const CompositeParticles& particles, const SpriteCamera& camera,
                         const PixelF& background, CompositeImage& out) = 0;
};

// The CPU twin of composited renderer `kind`, made once per backend and reused every frame (it
// keeps its scratch memory). Null for a renderer that is not composited (GL draws it) or has no
// CPU twin.
std::unique_ptr<Compositor> make_cpu_compositor(RendererKind kind);

}  // namespace particles
