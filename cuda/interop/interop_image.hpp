#pragma once
// A GL texture that CUDA writes through a surface object: registered once, mapped per frame
// through a scoped Mapping (the image counterpart of InteropBuffer). GL owns the texture; this
// owns the registration. Recreate the InteropImage when GL replaces the texture (a resize).
#include <glad/gl.h>  // before cuda_gl_interop.h, which would otherwise pull in <GL/gl.h>

#include <cuda_gl_interop.h>
#include <cuda_runtime.h>

namespace particles::cuda {

class InteropImage {
 public:
  // While mapped, GL must not use the texture: the Mapping unmaps in its destructor, which orders
  // the stream's work before GL's later use of it.
  class Mapping {
   public:
    ~Mapping();
    Mapping(const Mapping&) = delete;
    Mapping& operator=(const Mapping&) = delete;
    Mapping(Mapping&& o) noexcept;
    Mapping& operator=(Mapping&&) = delete;

    // Valid until the Mapping ends; reads and writes 32-bit texels at byte offset x * 4.
    cudaSurfaceObject_t surface() const noexcept { return surface_; }

   private:
    friend class InteropImage;
    Mapping(cudaGraphicsResource_t resource, cudaStream_t stream);
    cudaGraphicsResource_t resource_ = nullptr;
    cudaStream_t stream_ = nullptr;
    cudaSurfaceObject_t surface_ = 0;
  };

  InteropImage() = default;
  // `texture`: a GL_TEXTURE_2D with immutable RGBA8 storage; needs a current GL context.
  explicit InteropImage(GLuint texture);
  ~InteropImage();
  InteropImage(const InteropImage&) = delete;
  InteropImage& operator=(const InteropImage&) = delete;
  InteropImage(InteropImage&& o) noexcept;
  InteropImage& operator=(InteropImage&& o) noexcept;

  [[nodiscard]] Mapping map(cudaStream_t stream) const;
  GLuint gl_texture() const noexcept { return texture_; }
  explicit operator bool() const noexcept { return resource_ != nullptr; }

 private:
  void release() noexcept;
  cudaGraphicsResource_t resource_ = nullptr;
  GLuint texture_ = 0;
};

}  // namespace particles::cuda
