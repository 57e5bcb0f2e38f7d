#pragma once
// How a scene is drawn from a camera: shared by the interactive loop and the bench, for both
// renderers (the GL draw's parameters, and the same as a composite request).
#include <cstdint>
#include <glm/gtc/type_ptr.hpp>
#include <glm/vec2.hpp>
#include <vector>

#include "app/gl/particle_renderer.hpp"
#include "app/main/backend.hpp"
#include "core/camera.hpp"
#include "core/composite/sprite.hpp"
#include "core/scene_desc.hpp"
#include "core/sprite_size_at_count.hpp"

namespace particles {

// `count` particles of `scene`, whose sprites are sized for that count (sprite_size_at_count).
inline gl::DrawParams scene_draw_params(const SceneDesc& scene, std::uint32_t count,
                                        const CameraMatrices& camera, glm::ivec2 viewport) {
  gl::DrawParams draw;
  draw.camera = camera;
  draw.viewport = viewport;
  draw.sprite_size = sprite_size_at_count(scene, count);
  draw.background = scene.background;
  return draw;
}

// The same draw as the compositor's request: the uniforms particle.vert reads, the renderer's GL's
// point-size range, and the clear colour the raster renderer uses, premultiplied.
inline CompositeRequest composite_request(const gl::DrawParams& draw,
                                          const gl::ParticleRenderer& renderer,
                                          gl::RenderTarget& target) {
  CompositeRequest request;
  const float* view = glm::value_ptr(draw.camera.view);
  const float* projection = glm::value_ptr(draw.camera.projection);
  for (int i = 0; i < 16; ++i) {
    request.camera.view[i] = view[i];
    request.camera.projection[i] = projection[i];
  }
  request.camera.width = draw.viewport.x;
  request.camera.height = draw.viewport.y;
  request.camera.sprite_size = draw.sprite_size;
  request.camera.point_size_min = renderer.point_size_range().x;
  request.camera.point_size_max = renderer.point_size_range().y;
  const Color& bg = draw.background;
  request.background = premultiplied(bg.r, bg.g, bg.b, bg.a);
  request.target = &target;
  return request;
}

// The camera of a scene replayed frame by frame to compare renderers (tests/composite): on the
// scene's camera path, turned a further 0.7 degrees each frame so that the draw order keeps
// changing, and framed on the particles' extents once a frame reports them, where the scene asks.
class ReplayCamera {
 public:
  ReplayCamera(const SceneDesc& scene, glm::ivec2 viewport)
      : start_(scene.camera),
        path_(scene.camera_path),
        time_step_(scene.time_step),
        aspect_(static_cast<float>(viewport.x) / static_cast<float>(viewport.y)),
        pose_(scene.camera),
        framed_(!scene.camera_auto_frame) {}

  CameraMatrices at_frame(int frame) {
    if (!path_.empty())
      pose_ = camera_on_path(start_, path_, static_cast<float>(frame) * time_step_);
    pose_.yaw_deg += 0.7f * static_cast<float>(frame);
    return camera_matrices(pose_, aspect_, 0.05f, 2000.0f);
  }

  void frame_on(const FrameInfo& info) {
    if (framed_ || info.extents.empty()) return;
    pose_ = frame_extents(pose_, info.extents);
    framed_ = true;
  }

 private:
  CameraPose start_;
  std::vector<CameraKey> path_;
  float time_step_;
  float aspect_;
  CameraPose pose_;
  bool framed_;
};

}  // namespace particles
