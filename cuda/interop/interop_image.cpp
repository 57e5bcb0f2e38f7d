#include "cuda/interop/interop_image.hpp"

#include <cstdio>
#include <stdexcept>
#include <utility>

#include "cuda/common/check.hpp"

namespace particles::cuda {

InteropImage::InteropImage(GLuint texture) : texture_(texture) {
  // Surface load/store: the compositor writes texels (and reads them back in a later pass).
  CUDA_CHECK(cudaGraphicsGLRegisterImage(&resource_, texture, GL_TEXTURE_2D,
                                         cudaGraphicsRegisterFlagsSurfaceLoadStore));
}

InteropImage::~InteropImage() {
  release();
}

InteropImage::InteropImage(InteropImage&& o) noexcept
    : resource_(std::exchange(o.resource_, nullptr)), texture_(std::exchange(o.texture_, 0)) {}

InteropImage& InteropImage::operator=(InteropImage&& o) noexcept {
  if (this != &o) {
    release();
    resource_ = std::exchange(o.resource_, nullptr);
    texture_ = std::exchange(o.texture_, 0);
  }
  return *this;
}

void InteropImage::release() noexcept {
  if (resource_ == nullptr) return;
  // As InteropBuffer: a destructor cannot throw, and a failure means the context is gone.
  if (const cudaError_t e = cudaGraphicsUnregisterResource(resource_); e != cudaSuccess) {
    std::fprintf(stderr, "InteropImage: unregistering GL texture %u failed: %s\n", texture_,
                 cudaGetErrorString(e));
  }
  resource_ = nullptr;
}

InteropImage::Mapping InteropImage::map(cudaStream_t stream) const {
  if (resource_ == nullptr) throw std::logic_error("InteropImage::map: no texture registered");
  return Mapping(resource_, stream);
}

InteropImage::Mapping::Mapping(cudaGraphicsResource_t resource, cudaStream_t stream)
    : resource_(resource), stream_(stream) {
  CUDA_CHECK(cudaGraphicsMapResources(1, &resource_, stream_));
  cudaArray_t array = nullptr;
  cudaError_t e = cudaGraphicsSubResourceGetMappedArray(&array, resource_, 0, 0);
  if (e == cudaSuccess) {
    cudaResourceDesc desc{};
    desc.resType = cudaResourceTypeArray;
    desc.res.array.array = array;
    e = cudaCreateSurfaceObject(&surface_, &desc);
  }
  if (e != cudaSuccess) {
    cudaGraphicsUnmapResources(1, &resource_, stream_);  // do not leave it mapped on the throw
    CUDA_CHECK(e);
  }
}

InteropImage::Mapping::Mapping(Mapping&& o) noexcept
    : resource_(std::exchange(o.resource_, nullptr)),
      stream_(o.stream_),
      surface_(std::exchange(o.surface_, 0)) {}

InteropImage::Mapping::~Mapping() {
  if (resource_ == nullptr) return;
  if (surface_ != 0) cudaDestroySurfaceObject(surface_);
  if (const cudaError_t e = cudaGraphicsUnmapResources(1, &resource_, stream_); e != cudaSuccess) {
    std::fprintf(stderr, "InteropImage: unmapping failed: %s\n", cudaGetErrorString(e));
  }
}

}  // namespace particles::cuda
