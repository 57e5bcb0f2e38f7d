#include "app/main/headless_rig.hpp"

namespace particles {

HeadlessRig::HeadlessRig(int width, int height, BackendChoice choice)
    : context(gl::make_headless_context(width, height)),
      backend(make_backend(choice)),
      buffers(std::make_unique<gl::ParticleBuffers>()),
      target(std::make_unique<gl::RenderTarget>(glm::ivec2{width, height})),
      renderer(std::make_unique<gl::ParticleRenderer>()) {}

}  // namespace particles
