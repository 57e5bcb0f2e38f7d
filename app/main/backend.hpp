#pragma once
// A backend runs the five per-frame steps (simulate, extents, keys, sort, order) and leaves the
// results in the renderer's GL buffers: vertices in the vertex buffer, the far-to-near draw
// order in the element buffer.
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/scene/options.hpp"
#include "core/composite/pixel.hpp"
#include "core/composite/sprite.hpp"
#include "core/frame_types.hpp"
#include "core/pixels_off.hpp"
#include "core/renderer_kind.hpp"
#include "core/scene_desc.hpp"

namespace particles {

namespace gl {
class ParticleBuffers;
class RenderTarget;
}  // namespace gl

// A composited renderer's request (core/renderer_kind.hpp): the frame's particles made into
// `target`'s colour texture by the backend's compositor of that renderer (CUDA kernels through
// cuda/composite/device_compositor.hpp, or the CPU twin of core/composite/compositor.hpp and an
// upload), in place of a GL draw. The backend runs whichever renderer is named, without knowing it.
struct CompositeRequest {
  RendererKind renderer = RendererKind::composite;  // a composited one, which the backend runs
  SpriteCamera camera;
  PixelF background;  // premultiplied
  gl::RenderTarget* target = nullptr;
  // The image will be read back (a screenshot, a recording, a test): the backend makes sure it
  // is this frame's, waiting if need be (the CUDA compositor never waits otherwise).
  bool read_back = false;
};

// A frame whose order error as a viewer sees it will be asked for (pixels_off() after it), said
// before it runs: the CUDA backend composites and counts it while the frame's buffers are its
// own; the CPU backend needs no warning (its pixels_off() composites what the frame did not).
struct PixelsOffRequest {
  SpriteCamera camera;  // the frame's own
  PixelF background;    // premultiplied
  // The caller will wait for this frame's measure (the bench). Otherwise (the live comparison
  // view) the CUDA backend never waits: pixels_off() returns measures as they arrive.
  bool wait = false;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  // (Re)creates the particles and sizes the GL buffers for `count` particles.
  virtual void reset(const ModelParams& params, std::uint32_t count,
                     gl::ParticleBuffers& buffers) = 0;
  // With a CompositeRequest the frame's image is also composited into its target (see above);
  // FrameInfo then carries composite timings as they arrive: the renderer's whole work, the
  // comparison view's second composite and (CPU) the upload included. Throws
  // std::invalid_argument for a renderer the backend cannot composite (renderer_runs_on). With a
  // PixelsOffRequest the frame is measured for pixels_off() (see above).
  virtual FrameInfo run_frame(const FrameSettings& settings,
                              const CompositeRequest* composite = nullptr,
                              const PixelsOffRequest* pixels_off = nullptr) = 0;
  // Waits for outstanding GPU work and returns the stage timings not yet reported by
  // run_frame (GPU timings arrive a few frames late). The CPU backend has none.
  virtual std::vector<StageTimes> drain_stage_times() { return {}; }
  // How far the last frame's drawn order is from the exact order as a viewer sees it: its image
  // and the exact order's image of the same frame (same particles, same view), both composited
  // from `camera` (the frame's own) over `background` (premultiplied), compared by
  // count_pixels_off. The CPU backend measures the last frame, whatever it was asked (its
  // compositor draws both orders whichever renderer shows the frame, reusing the comparison
  // view's images when it composited them). The CUDA backend measures the frames run with a
  // PixelsOffRequest (from its camera and background: these are not read), on the GPU with
  // count_pixels_off's own pixel test: with PixelsOffRequest::wait this returns the last frame's,
  // waiting for it; otherwise, never waiting, the oldest measure that has arrived and was not
  // returned yet (a frame or two late, reusing the comparison view's images when it composited
  // them). Nullopt when there is nothing to return.
  virtual std::optional<PixelsOff> pixels_off(const SpriteCamera& /*camera*/,
                                              const PixelF& /*background*/) {
    return std::nullopt;
  }
  // Bytes in use on the backend's device (cudaMemGetInfo: total - free, so every process on
  // the device counts), for the soak's leak check; nothing on the CPU backend.
  virtual std::optional<std::uint64_t> device_memory_used() const { return std::nullopt; }
};

// A backend's reset() throws this, before it has changed anything, when its device cannot hold
// the particle count: "the CUDA backend cannot hold 16777216 particles: they need about 3.0 GiB
// of device memory, 0.3 GiB is free".
class DeviceMemoryError : public std::runtime_error {
 public:
  DeviceMemoryError(std::uint32_t count, std::uint64_t needed_bytes, std::uint64_t free_bytes);
  std::uint32_t count() const noexcept { return count_; }
  std::uint64_t needed_bytes() const noexcept { return needed_; }
  std::uint64_t free_bytes() const noexcept { return free_; }

 private:
  std::uint32_t count_;
  std::uint64_t needed_, free_;
};

std::unique_ptr<Backend> make_cpu_backend();
// Null when the build has no CUDA or no CUDA device is present; `why` says which.
std::unique_ptr<Backend> make_cuda_backend(std::string& why);
// Whether the CUDA backend can run here; false with `why` saying what is missing: CUDA in the
// build, a usable NVIDIA driver (none, or one older than the build's CUDA runtime, with both
// versions), or a device. Makes no backend (for --version, and make_cuda_backend's own check).
bool cuda_backend_available(std::string& why);

// Resolves --backend: auto takes CUDA when a device is present, else the CPU.
std::unique_ptr<Backend> make_backend(BackendChoice choice);

// backend->reset(params, count, buffers), where `choice` made `backend`. With --backend auto, a
// CUDA backend that cannot hold `count` particles (DeviceMemoryError) gives way to the CPU
// backend with the same count, and `notes` says so; with --backend cuda the error propagates.
void reset_backend(std::unique_ptr<Backend>& backend, BackendChoice choice,
                   const ModelParams& params, std::uint32_t count, gl::ParticleBuffers& buffers,
                   std::ostream& notes);

}  // namespace particles
