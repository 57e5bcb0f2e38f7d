#pragma once
// The CUDA backend as the app sees it: DevicePipeline writing straight into the renderer's GL
// buffers. The two state buffers are the frames' own state (each frame steps one into the other,
// and the renderer draws from the newer), and the element buffer holds last frame's order, which
// fused auto starts from: all three are registered to keep their contents. Each frame maps them
// on the pipeline's stream, runs the frame with the mapped pointers and unmaps before returning, so
// GL may draw as soon as this returns (unmapping orders the stream's work before GL's later use of
// the buffers).
#include <glad/gl.h>

#include <array>
#include <cstdint>

#include "core/frame_types.hpp"
#include "core/scene_desc.hpp"
#include "cuda/interop/interop_buffer.hpp"
#include "cuda/pipeline/device_pipeline.hpp"

namespace particles::cuda {

class CudaPipeline {
 public:
  CudaPipeline() = default;

  // state_buffers each hold >= count ParticleState, index_buffer >= count uint32 (GL storage
  // allocated by the renderer, a current GL context). Registers all three and writes the
  // initial state into state_buffers[0]; call again whenever the renderer reallocates them (a
  // new count).
  void reset(const ModelParams& params, std::uint32_t count, std::array<GLuint, 2> state_buffers,
             GLuint index_buffer);

  // One frame into the GL buffers; returns the previous frame's FrameInfo (see
  // device_pipeline.hpp: extents and path are one frame late).
  FrameInfo run_frame(const FrameSettings& settings);
  // Which of reset's state buffers the last run_frame wrote: the one to draw, with the order.
  int newest_state_buffer() const noexcept { return device_.newest_state_buffer(); }
  // Stage timings of the newest frame, which run_frame has not returned yet; waits for it.
  StageTimes drain_stage_times() { return device_.drain_stage_times(); }

  const DevicePipeline& device() const noexcept { return device_; }

  // Host time of the last run_frame's three steps, for bench/interop_bench.
  struct HostTimes {
    double map_ms = 0.0, run_ms = 0.0, unmap_ms = 0.0;
  };
  const HostTimes& last_host_times() const noexcept { return host_times_; }

 private:
  DevicePipeline device_;
  HostTimes host_times_;
  std::array<InteropBuffer, 2> states_;
  InteropBuffer order_;
};

}  // namespace particles::cuda
