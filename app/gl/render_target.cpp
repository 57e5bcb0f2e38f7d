#include "app/gl/render_target.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "app/gl/gl_check.hpp"

namespace particles::gl {

RenderTarget::RenderTarget(glm::ivec2 size, TargetFormat format)
    : format_(format), fbo_(create_framebuffer()) {
  resize(size);
}

void RenderTarget::resize(glm::ivec2 size) {
  if (size == size_ && color_) return;
  if (size.x <= 0 || size.y <= 0) {
    throw std::invalid_argument("RenderTarget size must be positive, got " +
                                std::to_string(size.x) + "x" + std::to_string(size.y));
  }
  // Texture storage is immutable, so a new size means a new texture.
  Texture color = create_texture(GL_TEXTURE_2D);
  // 32-bit float, not 8 or 16 bits: why in render_target.hpp.
  GL_CHECK(glTextureStorage2D(color.get(), 1,
                              format_ == TargetFormat::float_image ? GL_RGBA32F : GL_RGBA8, size.x,
                              size.y));
  glTextureParameteri(color.get(), GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTextureParameteri(color.get(), GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  GL_CHECK(glNamedFramebufferTexture(fbo_.get(), GL_COLOR_ATTACHMENT0, color.get(), 0));
  const GLenum status = glCheckNamedFramebufferStatus(fbo_.get(), GL_DRAW_FRAMEBUFFER);
  if (status != GL_FRAMEBUFFER_COMPLETE) {
    throw std::runtime_error("render target framebuffer incomplete, status " +
                             std::to_string(status));
  }
  color_ = std::move(color);
  size_ = size;
  ++generation_;
}

void RenderTarget::upload(int width, int height, std::span<const PixelF> pixels) const {
  if (width != size_.x || height != size_.y ||
      pixels.size() != static_cast<std::size_t>(width) * static_cast<std::size_t>(height)) {
    throw std::invalid_argument(
        "RenderTarget::upload: " + std::to_string(width) + "x" + std::to_string(height) +
        " image (" + std::to_string(pixels.size()) + " pixels) into a " + std::to_string(size_.x) +
        "x" + std::to_string(size_.y) + " target");
  }
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  static_assert(sizeof(PixelF) == 4 * sizeof(float), "PixelF is one tightly packed RGBA texel");
  GL_CHECK(
      glTextureSubImage2D(color_.get(), 0, 0, 0, width, height, GL_RGBA, GL_FLOAT, pixels.data()));
}

void RenderTarget::bind() const {
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo_.get());
  glViewport(0, 0, size_.x, size_.y);
}

std::vector<PixelF> read_float_pixels(Name framebuffer, glm::ivec2 size) {
  std::vector<PixelF> pixels(static_cast<std::size_t>(size.x) * static_cast<std::size_t>(size.y));
  glNamedFramebufferReadBuffer(framebuffer, GL_COLOR_ATTACHMENT0);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer);
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  GL_CHECK(glReadnPixels(0, 0, size.x, size.y, GL_RGBA, GL_FLOAT,
                         static_cast<GLsizei>(pixels.size() * sizeof(PixelF)), pixels.data()));
  return pixels;
}

std::vector<PixelF> RenderTarget::read_float_pixels() const {
  return gl::read_float_pixels(fbo_.get(), size_);
}

Image RenderTarget::read_pixels() const {
  const std::vector<PixelF> pixels = read_float_pixels();
  Image image{size_.x, size_.y, {}};
  image.rgba.resize(pixels.size() * 4);
  const auto width = static_cast<std::size_t>(size_.x);
  // GL's first row is the bottom one; image files and Image start at the top.
  for (int y = 0; y < size_.y; ++y) {
    const PixelF* row = pixels.data() + static_cast<std::size_t>(size_.y - 1 - y) * width;
    std::uint8_t* out = image.rgba.data() + static_cast<std::size_t>(y) * width * 4;
    for (std::size_t x = 0; x < width; ++x) {
      const std::uint32_t rgba8 = rgba8_of(row[x]);
      for (int c = 0; c < 4; ++c) out[4 * x + c] = static_cast<std::uint8_t>(rgba8 >> (8 * c));
    }
  }
  return image;
}

void RenderTarget::blit_to(Name framebuffer, glm::ivec2 window_size) const {
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, framebuffer);
  glViewport(0, 0, window_size.x, window_size.y);
  if (window_size.x <= 0 || window_size.y <= 0) return;  // minimised
  // Largest rectangle of the image's aspect ratio that fits, centred.
  const float scale = std::min(static_cast<float>(window_size.x) / static_cast<float>(size_.x),
                               static_cast<float>(window_size.y) / static_cast<float>(size_.y));
  const int w = static_cast<int>(static_cast<float>(size_.x) * scale);
  const int h = static_cast<int>(static_cast<float>(size_.y) * scale);
  const int x0 = (window_size.x - w) / 2;
  const int y0 = (window_size.y - h) / 2;
  // Only bars the image leaves need clearing: a present that covers the window writes every pixel.
  if (w != window_size.x || h != window_size.y) {
    const float clear[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    glClearNamedFramebufferfv(framebuffer, GL_COLOR, 0, clear);
  }
  glBlitNamedFramebuffer(fbo_.get(), framebuffer, 0, 0, size_.x, size_.y, x0, y0, x0 + w, y0 + h,
                         GL_COLOR_BUFFER_BIT,
                         (w == size_.x && h == size_.y) ? GL_NEAREST : GL_LINEAR);
}

}  // namespace particles::gl
