#pragma once
// A backend runs the five per-frame steps (simulate, extents, keys, sort, order) and leaves the
// results in the renderer's GL buffers: vertices in the vertex buffer, the far-to-near draw
// order in the element buffer.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/scene/options.hpp"
#include "core/composite/sprite.hpp"
#include "core/frame_types.hpp"
#include "core/scene_desc.hpp"

namespace particles {

namespace gl {
class ParticleBuffers;
class RenderTarget;
}  // namespace gl

// The composite renderer's request: the frame's sprites blended into `target`'s colour texture
// by the backend's tile compositor (CUDA kernels, or the CPU twin and an upload), replacing the
// GL draw.
struct CompositeRequest {
  SpriteCamera camera;
  std::uint32_t background = 0;  // premultiplied RGBA8
  gl::RenderTarget* target = nullptr;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  // (Re)creates the particles and sizes the GL buffers for `count` particles.
  virtual void reset(const ModelParams& params, std::uint32_t count,
                     gl::ParticleBuffers& buffers) = 0;
  // With a CompositeRequest the frame's image is also composited into its target (see above);
  // FrameInfo then carries composite timings as they arrive.
  virtual FrameInfo run_frame(const FrameSettings& settings,
                              const CompositeRequest* composite = nullptr) = 0;
  // Waits for outstanding GPU work and returns the stage timings not yet reported by
  // run_frame (GPU timings arrive a few frames late). The CPU backend has none.
  virtual std::vector<StageTimes> drain_stage_times() { return {}; }
  // Bytes in use on the backend's device (cudaMemGetInfo: total - free, so every process on
  // the device counts), for the soak's leak check; nothing on the CPU backend.
  virtual std::optional<std::uint64_t> device_memory_used() const { return std::nullopt; }
};

std::unique_ptr<Backend> make_cpu_backend();
// Null when the build has no CUDA or no CUDA device is present; `why` says which.
std::unique_ptr<Backend> make_cuda_backend(std::string& why);

// Resolves --backend: auto takes CUDA when a device is present, else the CPU.
std::unique_ptr<Backend> make_backend(BackendChoice choice);

}  // namespace particles
