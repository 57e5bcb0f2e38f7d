#pragma once
// The CUDA backend as the app sees it: DevicePipeline writing straight into the renderer's GL
// buffers. Each frame maps both buffers on the pipeline's stream, runs the frame with the mapped
// pointers as targets and unmaps before returning, so GL may draw as soon as this returns
// (unmapping orders the stream's work before GL's later use of the buffers).
#include <glad/gl.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>

#include "core/composite/pixel.hpp"
#include "core/composite/sprite.hpp"
#include "core/frame_types.hpp"
#include "core/pixels_off.hpp"
#include "core/renderer_kind.hpp"
#include "core/scene_desc.hpp"
#include "cuda/common/device_buffer.hpp"
#include "cuda/composite/device_compositor.hpp"
#include "cuda/composite/pixels_off.hpp"
#include "cuda/interop/interop_buffer.hpp"
#include "cuda/interop/interop_image.hpp"
#include "cuda/pipeline/device_pipeline.hpp"

namespace particles::cuda {

// A composited renderer's part of a frame: its kernels (cuda/composite/device_compositor.hpp) write
// the image into a GL texture (the render target's colour texture) in the same mapped scope as the
// frame.
struct CompositeJob {
  RendererKind renderer = RendererKind::composite;  // a composited one (core/renderer_kind.hpp)
  SpriteCamera camera;
  PixelF background;                     // premultiplied
  GLuint texture = 0;                    // GL_TEXTURE_2D, RGBA32F, camera.width x camera.height
  std::uint64_t texture_generation = 0;  // changes whenever GL replaced the texture
  // The image will be read back (a screenshot, a recording, a test): wait if need be so that it
  // is this frame's, compositing again a frame the renderer left incomplete
  // (DeviceCompositor::complete: the tile compositor's binning).
  bool read_back = false;
};

// The order error that follows the picture (core/pixels_off.hpp), asked of a frame before it
// runs: its drawn order's image and its exact order's, composited from `camera` over
// `background` (premultiplied) into linear images outside the frame's timings, then counted on
// the GPU (cuda/composite/pixels_off.hpp). A comparison view composited in the frame is counted
// from its own two images instead.
struct PixelsOffJob {
  SpriteCamera camera;
  PixelF background;
  // The caller will wait for this frame's count (the bench): pixels_off() waits for it, and gives
  // none for a frame whose composites outgrew their binning (their images are an earlier
  // frame's). Nothing waits in run_frame, so the frame's time holds no part of the measure.
  // Otherwise (the live view) pixels_off() returns counts as they arrive, a frame or two late.
  bool wait = false;
};

class CudaPipeline {
 public:
  CudaPipeline() { device_.set_auto_measures_cost(true); }

  // vertex_buffer holds >= count ParticleVertex, index_buffer >= count uint32 and, for a model
  // that sizes its sprites (model_scales_sprites), scale_buffer >= count float; 0 for the others
  // (GL storage allocated by the renderer, a current GL context). Registers them once; call again
  // whenever the renderer reallocates them (a new count).
  void reset(const ModelParams& params, std::uint32_t count, GLuint vertex_buffer,
             GLuint index_buffer, GLuint scale_buffer = 0);

  // One frame into the GL buffers, and with a CompositeJob its image into the job's texture;
  // returns the previous frame's FrameInfo (see device_pipeline.hpp: extents and path are one
  // frame late; composite timings arrive when they are ready, naming their frame).
  // With settings.compare_order the frame's exact order is made as well (FrameInfo::compare_order
  // says so): into `compare_order_buffer` when given (a GL buffer of >= count uint32, which the
  // raster renderer's comparison view draws), and for a composite into memory of its own, the
  // job's image then being the comparison view (settings.compare_mode) of the two orders' images.
  // With a PixelsOffJob the frame's order error is measured too (see PixelsOffJob).
  FrameInfo run_frame(const FrameSettings& settings, const CompositeJob* composite = nullptr,
                      GLuint compare_order_buffer = 0, const PixelsOffJob* pixels_off = nullptr);
  // The order error of a frame run with a PixelsOffJob: with PixelsOffJob::wait the newest
  // frame's (waiting for it), else the oldest count that has arrived and was not read yet (never
  // waits). Nullopt when there is none to read.
  std::optional<PixelsOff> pixels_off();
  // Stage timings of the newest frame, which run_frame has not returned yet; waits for it.
  StageTimes drain_stage_times() { return device_.drain_stage_times(); }

  const DevicePipeline& device() const noexcept { return device_; }

  // Host time of the last run_frame's three steps, for bench/interop_bench.
  struct HostTimes {
    double map_ms = 0.0, run_ms = 0.0, composite_ms = 0.0, unmap_ms = 0.0;
  };
  const HostTimes& last_host_times() const noexcept { return host_times_; }

 private:
  // run_frame's steps. Before the frame: the registrations and buffers it needs, made again where
  // they changed (compare_order_buffer: 0 unless the comparison view's order goes to GL). While
  // its buffers are mapped: its composite by `renderer`, or the comparison view's two and their
  // view.
  void prepare_frame(std::uint32_t n, const CompositeJob* composite, GLuint compare_order_buffer,
                     const PixelsOffJob* pixels_off, bool compare_composite, bool measure);
  void composite_targets(const FrameSettings& settings, DeviceCompositor* renderer,
                         const CompositeJob* composite, const DeviceParticles& drawn,
                         const std::uint32_t* exact_order, const CompositeOutput& screen,
                         bool compare_composite);
  // The measure's two composites (by `measure`, kPixelsOffRenderer's compositor) and its count,
  // after the frame's own (PixelsOffJob), while the frame's buffers are still mapped.
  void enqueue_measure(DeviceCompositor& measure, const FrameTargets& targets, std::uint32_t n,
                       const PixelsOffJob& job);
  // The kernels of composited renderer `kind`, made on its first frame and kept (a switch back
  // costs nothing); throws std::invalid_argument for a renderer the CUDA backend cannot composite.
  DeviceCompositor& compositor(RendererKind kind);

  DevicePipeline device_;
  HostTimes host_times_;
  InteropBuffer vertices_;
  InteropBuffer order_;
  InteropBuffer sprite_scales_;  // unregistered for a model that sizes no sprite
  InteropImage image_;
  std::uint64_t image_generation_ = 0;
  InteropBuffer compare_order_;  // the raster comparison view's exact order (GL's buffer)
  GLuint compare_order_buffer_ = 0;
  // A composited comparison view's (or a measured frame's) exact order and the two orders'
  // images.
  DeviceBuffer<std::uint32_t> exact_order_;
  DeviceBuffer<PixelF> exact_image_;
  DeviceBuffer<PixelF> drawn_image_;
  // By renderer (renderer_index); the measure's images are kPixelsOffRenderer's, so when that
  // renderer shows the frame one compositor (and its device memory) serves both.
  std::array<std::unique_ptr<DeviceCompositor>, kRendererCount> compositors_;
  PixelsOffCounter pixels_off_counter_;
  // The compositor whose images the newest measure counts, for pixels_off()'s completeness check.
  DeviceCompositor* pixels_off_compositor_ = nullptr;
  // How pixels_off() reads the newest frame's measure: waiting for it (PixelsOffJob::wait), or
  // as counts arrive; and whether that frame had no particles (nothing lit, nothing counted).
  bool pixels_off_wait_ = false;
  bool pixels_off_empty_ = false;
  std::int64_t frame_ = 0;  // frames since reset(), as DevicePipeline counts them
};

}  // namespace particles::cuda
