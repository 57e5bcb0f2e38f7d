#pragma once
// Whether a frame's image shows the particles it should (issue 64): a frame left all background
// although particles lie in view, opaque enough and unlike the background, is a broken frame
// (a NaN view, a shader that draws nothing, a compositor that dropped its sprites) that no
// order check sees. `bench --verify`, the soak and the app's --screenshot run it.
//
// Which particles must light a pixel is judged as the renderers draw them (core/composite/
// sprite.hpp's project_sprite and sprite_weight, which the shaders are tested against): a
// particle must when its sprite is visible (not clipped) and blending it alone over the
// background changes the pixel under its centre by at least kMustLight in some channel.
// The pixel under the centre is where its weight is largest but for the rounding of half a
// pixel, so the judgement errs towards "need not": a check that fails must never be wrong.
#include <cstdint>
#include <span>
#include <string>

#include "core/composite/pixel.hpp"
#include "core/composite/sprite.hpp"
#include "core/particle.hpp"

namespace particles {

namespace gl {
class ParticleBuffers;
class ParticleRenderer;
class RenderTarget;
}  // namespace gl
struct CameraMatrices;
struct SceneDesc;

// A pixel is lit when a channel differs from the background by more than half an 8-bit step
// (what a screenshot can show); a particle must light one when it alone would change its pixel
// by two steps.
inline constexpr float kLitThreshold = 0.5f / 255.0f;
inline constexpr float kMustLight = 2.0f / 255.0f;

struct LitCheck {
  bool ok = true;                // false: no pixel lit although `must_light` > 0
  bool lit = false;              // some pixel differs from the background
  std::uint64_t must_light = 0;  // particles that must light a pixel; counted only when !lit
  std::uint64_t in_view = 0;     // particles whose sprite is not clipped; only when !lit
  std::string problem;           // when !ok: what was expected, naming one such particle
};

// `image`: the frame as the render target holds it (premultiplied float, rows bottom first,
// camera.width x camera.height); `background`: premultiplied, as the target is cleared to it;
// `vertices` and `sprite_scales` (empty: every scale 1) by particle index.
LitCheck check_lit_frame(std::span<const PixelF> image, PixelF background,
                         std::span<const ParticleVertex> vertices,
                         std::span<const float> sprite_scales, const SpriteCamera& camera);

// The same on the frame FrameRunner just drew into `target` from `camera` (FrameOutcome::camera):
// reads the image and the sprite scales back from GL; `vertices` are the buffers' (read once by
// the caller, who checks the order with them too). Stalls until GL is done: for checks.
LitCheck check_drawn_frame_lit(const SceneDesc& scene, const CameraMatrices& camera,
                               const gl::ParticleRenderer& renderer, gl::RenderTarget& target,
                               const gl::ParticleBuffers& buffers,
                               std::span<const ParticleVertex> vertices);

}  // namespace particles
