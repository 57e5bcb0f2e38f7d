#pragma once
// The CUDA backend's side of a composited renderer (core/renderer_kind.hpp): the frame's particles
// (the mapped GL buffers) and view in, an image into a surface or linear memory out, all enqueued
// on the frame's stream without a host wait, so that CudaPipeline::run_frame runs "the composited
// renderer the frame names" inside its one mapping of the GL buffers without knowing which it is.
// A new composited renderer's kernels implement it and are named in make_device_compositor
// (device_compositors.cpp). The CPU backend's counterpart is core/composite/compositor.hpp.
#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <optional>

#include "core/composite/pixel.hpp"
#include "core/composite/sprite.hpp"
#include "core/particle.hpp"
#include "core/renderer_kind.hpp"
#include "cuda/composite/tile_compositor.hpp"

namespace particles::cuda {

// One frame's particles on the device: vertices[order[0]] is drawn first (farthest);
// sprite_scales is null (every sprite the camera's size) or one per vertex. A renderer whose image
// does not depend on the order (order-independent transparency) may read it as the list of
// particles to draw.
struct DeviceParticles {
  const ParticleVertex* vertices = nullptr;
  const float* sprite_scales = nullptr;
  const std::uint32_t* order = nullptr;
  std::uint32_t count = 0;
};

// A composited renderer's GPU time for one frame, read when it has finished.
struct CompositeTiming {
  std::int64_t frame = -1;
  float ms = 0.0f;
};

class DeviceCompositor {
 public:
  virtual ~DeviceCompositor() = default;
  // Enqueues the particles seen from `camera` over `background` (premultiplied) into `output` on
  // `stream`; never waits for the device.
  virtual void composite(cudaStream_t stream, const DeviceParticles& particles,
                         const SpriteCamera& camera, const PixelF& background,
                         const CompositeOutput& output) = 0;
  // The frame the next composites belong to, for their timing; kUntimedFrame: not timed (the
  // order error's measure, which is no part of what a viewer waits for).
  static constexpr std::int64_t kUntimedFrame = TileCompositor::kUntimedFrame;
  virtual void set_frame(std::int64_t frame) = 0;
  // The oldest frame's time that has arrived and was not returned yet (never waits).
  virtual std::optional<CompositeTiming> poll_timing() = 0;
  // Drops timings not read yet (their frames were of particles a reset replaced).
  virtual void forget_timings() = 0;
  // Whether the last composite's image is its frame's: false where the renderer could not finish
  // it without waiting for the host (the tile compositor's binning, sized a frame late) and left
  // an earlier image; the caller that must have this frame's image composites again. May wait.
  virtual bool complete(cudaStream_t stream) = 0;
};

// The CUDA kernels of composited renderer `kind`, made once per pipeline and reused every frame
// (they keep their device memory). Null for a renderer that is not composited (GL draws it) or has
// no CUDA kernels.
std::unique_ptr<DeviceCompositor> make_device_compositor(RendererKind kind);

}  // namespace particles::cuda
