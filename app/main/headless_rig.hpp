#pragma once
// What a headless run (`particles bench`, `particles soak`) draws with: an offscreen GL context,
// the backend, and the GL objects a frame goes through. Made in this order: everything after
// the context needs it current.
#include <memory>

#include "app/gl/gl_context.hpp"
#include "app/gl/particle_buffers.hpp"
#include "app/gl/particle_renderer.hpp"
#include "app/gl/render_target.hpp"
#include "app/main/backend.hpp"

namespace particles {

struct HeadlessRig {
  HeadlessRig(int width, int height, BackendChoice choice);

  std::unique_ptr<gl::GlContext> context;
  std::unique_ptr<Backend> backend;
  std::unique_ptr<gl::ParticleBuffers> buffers;
  std::unique_ptr<gl::RenderTarget> target;  // the frame's image, width x height
  std::unique_ptr<gl::ParticleRenderer> renderer;
};

}  // namespace particles
