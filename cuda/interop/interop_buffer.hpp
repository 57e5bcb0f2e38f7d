#pragma once
// A GL buffer that CUDA writes: registered once, mapped per frame through a scoped Mapping.
// GL owns the buffer; this owns the registration. Recreate the InteropBuffer when GL reallocates
// the buffer's storage (a new particle count), since a registration pins one storage.
#include <glad/gl.h>  // before cuda_gl_interop.h, which would otherwise pull in <GL/gl.h>

#include <cuda_gl_interop.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>

namespace particles::cuda {

enum class InteropAccess {
  read_write,
  write_discard,  // CUDA overwrites the whole buffer each time: GL's old contents are not kept
  read_only,
};

class InteropBuffer {
 public:
  // While mapped, GL must not touch the buffer: the Mapping unmaps in its destructor, so let it
  // go out of scope before the draw. Unmapping orders the stream's work before later GL calls.
  class Mapping {
   public:
    ~Mapping();
    Mapping(const Mapping&) = delete;
    Mapping& operator=(const Mapping&) = delete;
    Mapping(Mapping&& o) noexcept;
    Mapping& operator=(Mapping&&) = delete;

    void* data() const noexcept { return data_; }
    std::size_t size_bytes() const noexcept { return bytes_; }

    // The first `count` elements of the buffer as T; throws if the buffer is smaller.
    template <class T>
    std::span<T> span(std::size_t count) const {
      if (count > bytes_ / sizeof(T)) {
        throw std::length_error("InteropBuffer::Mapping::span: " + std::to_string(count) +
                                " elements of " + std::to_string(sizeof(T)) +
                                " bytes do not fit the mapped " + std::to_string(bytes_) +
                                " bytes");
      }
      return {static_cast<T*>(data_), count};
    }
    // The whole buffer as T; throws unless its size is a whole number of T.
    template <class T>
    std::span<T> span() const {
      if (bytes_ % sizeof(T) != 0) {
        throw std::length_error("InteropBuffer::Mapping::span: " + std::to_string(bytes_) +
                                " mapped bytes are not a multiple of " + std::to_string(sizeof(T)));
      }
      return span<T>(bytes_ / sizeof(T));
    }

   private:
    friend class InteropBuffer;
    Mapping(cudaGraphicsResource_t resource, cudaStream_t stream);
    cudaGraphicsResource_t resource_ = nullptr;
    cudaStream_t stream_ = nullptr;
    void* data_ = nullptr;
    std::size_t bytes_ = 0;
  };

  InteropBuffer() = default;
  // Needs a current GL context; `buffer` must have its storage allocated already.
  InteropBuffer(GLuint buffer, InteropAccess access);
  ~InteropBuffer();
  InteropBuffer(const InteropBuffer&) = delete;
  InteropBuffer& operator=(const InteropBuffer&) = delete;
  InteropBuffer(InteropBuffer&& o) noexcept;
  InteropBuffer& operator=(InteropBuffer&& o) noexcept;

  [[nodiscard]] Mapping map(cudaStream_t stream) const;
  GLuint gl_buffer() const noexcept { return buffer_; }
  explicit operator bool() const noexcept { return resource_ != nullptr; }

 private:
  void release() noexcept;
  cudaGraphicsResource_t resource_ = nullptr;
  GLuint buffer_ = 0;
};

}  // namespace particles::cuda
