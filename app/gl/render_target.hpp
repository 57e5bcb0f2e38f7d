#pragma once
// The offscreen framebuffer every frame is drawn into, windowed or not: screenshots read it
// back, and a window shows it by blitting it to the default framebuffer (ImGui then draws on
// top, outside the screenshot).
//
// The image is premultiplied RGBA in 32-bit float. An 8-bit target rounds after every blend, so
// a pile of faint sprites stalls: a sprite of alpha a moves a channel only while the step it asks
// for is at least half a byte. Half floats stall too where faint sprites pile up: a sprite of
// alpha a stops moving a channel once |fixed point - value| < ulp / (2a), e.g. 6/255 for a = 0.01
// near 0.5. In 32-bit float the same gap is about 3e-6 there, far under one 8-bit step.
#include <cstdint>
#include <glm/vec2.hpp>
#include <span>
#include <vector>

#include "app/gl/gl_handle.hpp"
#include "app/gl/image.hpp"
#include "core/composite/pixel.hpp"

namespace particles::gl {

// What a target's texels hold: the frame's image (float), or 8 bits a channel as a window's
// framebuffer does (the bench presents into such a stand-in, so that it pays what a window pays).
enum class TargetFormat { float_image, window_rgba8 };

class RenderTarget {
 public:
  // An FBO with a colour texture of `size` pixels (RGBA32F, or RGBA8 for a window's stand-in).
  // Needs a current GL 4.5 context.
  explicit RenderTarget(glm::ivec2 size, TargetFormat format = TargetFormat::float_image);

  // Reallocates the colour texture when the size changes (contents undefined); no-op otherwise.
  void resize(glm::ivec2 size);
  glm::ivec2 size() const { return size_; }

  Name framebuffer() const { return fbo_.get(); }
  Name color_texture() const { return color_.get(); }
  // Incremented each time resize() replaces the colour texture (whose name GL may reuse).
  std::uint64_t generation() const { return generation_; }

  // Replaces the image with `pixels` (width x height, rows bottom first as GL stores them);
  // throws std::invalid_argument when the size differs.
  void upload(int width, int height, std::span<const PixelF> pixels) const;

  // Binds the FBO for drawing and sets the viewport to cover it.
  void bind() const;

  // Reads the colour attachment back in 8 bits (rgba8_of, core/composite/pixel.hpp: the one
  // conversion screenshots and recordings make), rows top first. Stalls until the GPU is done:
  // for screenshots and tests, not per frame.
  Image read_pixels() const;
  // The float image as it is, rows bottom first as GL stores them; stalls the same way.
  std::vector<PixelF> read_float_pixels() const;

  // Copies the image into the default framebuffer, scaled to fit `window_size` with its aspect
  // ratio kept (black bars around it), and leaves the default framebuffer bound.
  void blit_to_default_framebuffer(glm::ivec2 window_size) const { blit_to(0, window_size); }
  // The same into any draw framebuffer of `size` pixels (0: the default one), left bound.
  void blit_to(Name framebuffer, glm::ivec2 size) const;

 private:
  glm::ivec2 size_{0, 0};
  TargetFormat format_;
  std::uint64_t generation_ = 0;
  Framebuffer fbo_;
  Texture color_;
};

// The colour attachment of `framebuffer` (`size` pixels) as floats, rows bottom first, whatever
// its storage (GL converts normalized 8-bit to [0, 1]); stalls until the GPU is done.
std::vector<PixelF> read_float_pixels(Name framebuffer, glm::ivec2 size);

}  // namespace particles::gl
