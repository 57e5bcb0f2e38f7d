#pragma once
// One frame as the window and the bench both run it, so that what the bench measures is what
// the user sees: the camera's matrices (clip planes around the particles' last extents), the
// backend's frame (with a composite request under a composited renderer), and under a GL-drawn
// renderer its draw of the sorted particles into the render target. Which renderer does what is
// the renderer table's (core/renderer_kind.hpp); this file names none. What happens to the image
// next (present, HUD, screenshot, checks) is the caller's. Make one per backend reset: it keeps
// the particles' last extents for the clip planes.
#include <glm/vec2.hpp>

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "app/main/backend.hpp"
#include "core/camera.hpp"
#include "core/composite/pixel.hpp"
#include "core/composite/sprite.hpp"
#include "core/frame_choices.hpp"
#include "core/frame_types.hpp"
#include "core/pixels_off.hpp"
#include "core/renderer_kind.hpp"
#include "core/scene_desc.hpp"

namespace particles {

namespace gl {
struct DrawParams;
class GpuTimer;
class ParticleBuffers;
class ParticleRenderer;
class RenderTarget;
class Renderer;
}  // namespace gl

// One frame as its caller asks for it: what the user chose, and what this frame needs beyond it.
struct FrameRequest {
  FrameChoices choices;
  // FrameInfo::order_error is measured (on CUDA a launch pair after the frame's graph).
  bool measure_order_error = false;
  bool paused = false;     // the frame runs with dt = 0: same particles, camera free to move
  bool read_back = false;  // the frame's image will be read (CompositeRequest::read_back)
  bool draw = true;        // false: the backend's frame alone, neither composited nor drawn
  // pixels_off() will be asked after the frame, so the backend is told before it runs
  // (PixelsOffRequest): waiting for this frame's measure (the bench), or taking measures as
  // they arrive (the live comparison view; a frame or two late on CUDA).
  bool measure_pixels_off = false;
  bool wait_for_pixels_off = false;
};

struct FrameOutcome {
  FrameInfo info;           // the backend's (extents and path one frame late)
  FrameSettings settings;   // what the backend ran, view included
  CameraMatrices camera;    // the frame's matrices, for checks of its image (lit_check.hpp)
  double backend_ms = 0.0;  // CPU wall time of the backend's frame call
};

// Near and far planes that enclose the particles with margin; the extents lag a frame, which the
// margin absorbs.
std::pair<float, float> clip_planes(const CameraPose& pose, const Extents& last_extents);

// Throws std::runtime_error naming the pose unless the frame's view is finite: its view and
// projection matrices, eye, view direction and clip planes. A view that is not would draw an
// empty frame (NaN depths, every sprite clipped) that nothing else notices: the window, the bench
// and the soak all stop on it with this message instead.
void check_finite_view(const CameraPose& pose, const CameraMatrices& camera, float near_plane,
                       float far_plane);

// The same for the particles' extents as a backend reports them: positions that have left the
// floats (a model out of its bounds) make the next frame's clip planes, and the view, infinite.
void check_finite_extents(const Extents& extents);

class FrameRunner {
 public:
  FrameRunner(Backend& backend, gl::ParticleRenderer& renderer, gl::ParticleBuffers& buffers,
              gl::RenderTarget& target, gl::GpuTimer& draw_timer);
  ~FrameRunner();

  // The frame of `scene` seen from `pose` into the render target, resized to `size` first.
  FrameOutcome run(const SceneDesc& scene, const CameraPose& pose, glm::ivec2 size,
                   const FrameRequest& request);

  // The last frame's order as a viewer sees it: the share of lit pixels where its image and the
  // exact order's image of the same frame differ (Backend::pixels_off, from that frame's camera
  // and background). A call of its own, after the frame, so that a caller timing frames can
  // leave the measure's extra composites out (on CUDA they run after the frame's own work, asked
  // for by FrameRequest::measure_pixels_off). Nullopt before the first frame and when the backend
  // has no measure to return (Backend::pixels_off).
  std::optional<PixelsOff> pixels_off();
  // Host time of the last pixels_off() call, ms: on the CPU backend the measure's composites (of
  // both orders, or the exact one where the frame's image serves), which the live comparison view
  // runs every frame and so must be timed beside the frame's parts (issue #63); on CUDA a poll.
  double pixels_off_ms() const { return pixels_off_ms_; }

 private:
  // The GL-drawn renderer of `kind`, made on its first frame and kept.
  gl::Renderer& gl_renderer(RendererKind kind);

  Backend& backend_;
  gl::ParticleRenderer& renderer_;
  gl::ParticleBuffers& buffers_;
  gl::RenderTarget& target_;
  gl::GpuTimer& draw_timer_;
  const std::string backend_name_;  // Backend::name(), which renderers it runs
  std::array<std::unique_ptr<gl::Renderer>, kRendererCount> gl_renderers_;  // by renderer_index
  Extents last_extents_;  // the newest the backend reported (they arrive a frame late)
  // The last frame's camera and background as the compositor takes them, for pixels_off().
  std::optional<SpriteCamera> last_camera_;
  PixelF last_background_;
  double pixels_off_ms_ = 0.0;
};

}  // namespace particles
