#pragma once
// How a scene is drawn from a camera: shared by the interactive loop and the bench.
#include <glm/vec2.hpp>

#include "app/gl/particle_renderer.hpp"
#include "core/camera.hpp"
#include "core/scene_desc.hpp"

namespace particles {

inline gl::DrawParams scene_draw_params(const SceneDesc& scene, const CameraMatrices& camera,
                                        glm::ivec2 viewport) {
  gl::DrawParams draw;
  draw.camera = camera;
  draw.viewport = viewport;
  draw.sprite_size = scene.sprite_size;
  draw.background = scene.background;
  return draw;
}

}  // namespace particles
