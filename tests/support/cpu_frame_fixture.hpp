#pragma once
// A GL test that runs a scene's frames on the CPU backend: the backend, the particle buffers it
// fills and the scene, reset to a particle count. The app tests that drive FrameRunner or switch
// scenes start from it.
#include <cstdint>
#include <filesystem>
#include <memory>

#include "app/gl/particle_buffers.hpp"
#include "app/main/backend.hpp"
#include "app/scene/scene_loader.hpp"
#include "tests/support/gl_test_fixture.hpp"

namespace particles::test {

class CpuFrameTest : public gl::test::GlTest {
 protected:
  // Call from SetUp: makes the context, the backend and the buffers, and resets them to `count`
  // particles of `scene_file`. False where the test skipped (no GL 4.5): return then.
  bool set_up_frames(const std::filesystem::path& scene_file, std::uint32_t count) {
    GlTest::SetUp();
    if (IsSkipped()) return false;
    backend_ = make_cpu_backend();
    buffers_ = std::make_unique<gl::ParticleBuffers>();
    scene_ = load_scene(scene_file);
    backend_->reset(scene_.params, count, *buffers_);
    return true;
  }

  std::unique_ptr<Backend> backend_;
  std::unique_ptr<gl::ParticleBuffers> buffers_;
  SceneDesc scene_;
};

}  // namespace particles::test
