#pragma once
// One frame as the window and the bench both run it, so that what the bench measures is what
// the user sees: the camera's matrices (clip planes around the particles' last extents), the
// backend's frame (with the compositor's request under the composite renderer), and GL's draw of
// the sorted particles into the render target under the raster renderer. What happens to the
// image next (present, HUD, screenshot, checks) is the caller's. Make one per backend reset: it
// keeps the particles' last extents for the clip planes.
//
// Frames alternate between two render targets, so that the compositor writes one while GL still
// presents the other: with one image, each frame's composite had to wait for GL to finish
// reading the last (docs/performance.md has the measurement).
#include <glm/vec2.hpp>

#include <array>
#include <memory>
#include <utility>

#include "app/main/backend.hpp"
#include "core/algorithm.hpp"
#include "core/camera.hpp"
#include "core/depth_keys.hpp"
#include "core/frame_types.hpp"
#include "core/renderer_kind.hpp"
#include "core/scene_desc.hpp"

namespace particles {

namespace gl {
class GpuTimer;
class ParticleBuffers;
class ParticleRenderer;
class RenderTarget;
}  // namespace gl

// What the user chose for a frame.
struct FrameChoices {
  Algorithm algorithm = Algorithm::radix;
  RendererKind renderer = RendererKind::raster;
  KeyMode key_mode = KeyMode::exact;
  int key_bits = 16;
  bool sorted = true;
  bool fuse_stages = true;
  bool paused = false;  // the frame runs with dt = 0: same particles, camera free to move
  bool draw = true;     // false: the backend's frame alone, neither composited nor drawn
  int stage_sample_period = kDefaultStageSamplePeriod;
};

struct FrameOutcome {
  FrameInfo info;           // the backend's (extents and path one frame late)
  FrameSettings settings;   // what the backend ran, view included
  double backend_ms = 0.0;  // CPU wall time of the backend's frame call
};

// Near and far planes that enclose the particles with margin; the extents lag a frame, which the
// margin absorbs.
std::pair<float, float> clip_planes(const CameraPose& pose, const Extents& last_extents);

class FrameRunner {
 public:
  // Needs a current GL context; `size`: the images' first size (run() resizes them).
  FrameRunner(Backend& backend, gl::ParticleRenderer& renderer, gl::ParticleBuffers& buffers,
              gl::GpuTimer& draw_timer, glm::ivec2 size);
  ~FrameRunner();
  FrameRunner(const FrameRunner&) = delete;
  FrameRunner& operator=(const FrameRunner&) = delete;

  // The frame of `scene` seen from `pose` into the render target, resized to `size` first.
  FrameOutcome run(const SceneDesc& scene, const CameraPose& pose, glm::ivec2 size,
                   const FrameChoices& choices);
  // The render target holding the newest frame's image (valid after the first run()).
  gl::RenderTarget& image() { return *targets_[current_]; }

 private:
  Backend& backend_;
  gl::ParticleRenderer& renderer_;
  gl::ParticleBuffers& buffers_;
  std::array<std::unique_ptr<gl::RenderTarget>, 2> targets_;
  int current_ = 0;
  gl::GpuTimer& draw_timer_;
  Extents last_extents_;  // the newest the backend reported (they arrive a frame late)
};

}  // namespace particles
