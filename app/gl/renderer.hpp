#pragma once
// The app's side of a GL-drawn renderer (core/renderer_kind.hpp, RendererPath::gl_draw): the
// frame's particles as the backend left them in GL's buffers, drawn into the render target after
// the backend's frame. The frame runner draws "the GL renderer the frame names" through this
// interface without knowing which it is; a new GL-drawn renderer implements it and is named in
// make_gl_renderer (renderers.cpp). Composited renderers are the backends' (backend.hpp).
#include <memory>
#include <optional>

#include "app/gl/particle_buffers.hpp"
#include "app/gl/particle_renderer.hpp"
#include "app/gl/render_target.hpp"
#include "core/compare_mode.hpp"
#include "core/renderer_kind.hpp"

namespace particles::gl {

// One frame as a GL-drawn renderer takes it: the particles (vertices, sprite scales, the draw
// order and, for the comparison view, the exact order: buffers.count() of them), the camera,
// viewport, sprite size and background (DrawParams), and the comparison view when the buffers
// hold the exact order for it.
struct RenderFrame {
  const ParticleBuffers& particles;
  const DrawParams& draw;
  std::optional<CompareMode> compare;
};

class Renderer {
 public:
  virtual ~Renderer() = default;
  // Draws the frame's image into `target`, which the caller has bound and cleared to the
  // background; the caller times the call with a GL timer query (the HUD's "draw (GL)"), so all
  // of the renderer's GL work goes in here.
  virtual void draw(const RenderFrame& frame, const RenderTarget& target) = 0;
};

// The GL-drawn renderer of `kind` over `sprites`, the app's one point-sprite program (its
// point-size range is also the compositors', scene_draw.hpp); null for a composited renderer.
std::unique_ptr<Renderer> make_gl_renderer(RendererKind kind, ParticleRenderer& sprites);

}  // namespace particles::gl
