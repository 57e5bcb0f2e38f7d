#include "cuda/interop/interop_buffer.hpp"

#include <cstdio>
#include <utility>

#include "cuda/common/check.hpp"

namespace particles::cuda {
namespace {

unsigned register_flags(InteropAccess access) {
  switch (access) {
    case InteropAccess::read_write:
      return cudaGraphicsRegisterFlagsNone;
    case InteropAccess::write_discard:
      return cudaGraphicsRegisterFlagsWriteDiscard;
    case InteropAccess::read_only:
      return cudaGraphicsRegisterFlagsReadOnly;
  }
  return cudaGraphicsRegisterFlagsNone;
}

}  // namespace

InteropBuffer::InteropBuffer(GLuint buffer, InteropAccess access) : buffer_(buffer) {
  CUDA_CHECK(cudaGraphicsGLRegisterBuffer(&resource_, buffer, register_flags(access)));
}

InteropBuffer::~InteropBuffer() {
  release();
}

InteropBuffer::InteropBuffer(InteropBuffer&& o) noexcept
    : resource_(std::exchange(o.resource_, nullptr)), buffer_(std::exchange(o.buffer_, 0)) {}

InteropBuffer& InteropBuffer::operator=(InteropBuffer&& o) noexcept {
  if (this != &o) {
    release();
    resource_ = std::exchange(o.resource_, nullptr);
    buffer_ = std::exchange(o.buffer_, 0);
  }
  return *this;
}

void InteropBuffer::release() noexcept {
  if (resource_ == nullptr) return;
  // A destructor cannot throw; a failure here means the context is already gone, which leaves
  // nothing to clean up anyway, so it is reported and dropped.
  if (const cudaError_t e = cudaGraphicsUnregisterResource(resource_); e != cudaSuccess) {
    std::fprintf(stderr, "InteropBuffer: unregistering GL buffer %u failed: %s\n", buffer_,
                 cudaGetErrorString(e));
  }
  resource_ = nullptr;
}

InteropBuffer::Mapping InteropBuffer::map(cudaStream_t stream) const {
  if (resource_ == nullptr) throw std::logic_error("InteropBuffer::map: no buffer registered");
  return Mapping(resource_, stream);
}

InteropBuffer::Mapping::Mapping(cudaGraphicsResource_t resource, cudaStream_t stream)
    : resource_(resource), stream_(stream) {
  CUDA_CHECK(cudaGraphicsMapResources(1, &resource_, stream_));
  std::size_t bytes = 0;
  if (const cudaError_t e = cudaGraphicsResourceGetMappedPointer(&data_, &bytes, resource_);
      e != cudaSuccess) {
    cudaGraphicsUnmapResources(1, &resource_, stream_);  // do not leave it mapped on the throw
    CUDA_CHECK(e);
  }
  bytes_ = bytes;
}

InteropBuffer::Mapping::Mapping(Mapping&& o) noexcept
    : resource_(std::exchange(o.resource_, nullptr)),
      stream_(o.stream_),
      data_(std::exchange(o.data_, nullptr)),
      bytes_(std::exchange(o.bytes_, 0)) {}

InteropBuffer::Mapping::~Mapping() {
  if (resource_ == nullptr) return;
  if (const cudaError_t e = cudaGraphicsUnmapResources(1, &resource_, stream_); e != cudaSuccess) {
    std::fprintf(stderr, "InteropBuffer: unmapping failed: %s\n", cudaGetErrorString(e));
  }
}

}  // namespace particles::cuda
