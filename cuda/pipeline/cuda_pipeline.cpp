#include "cuda/pipeline/cuda_pipeline.hpp"

#include <chrono>

namespace particles::cuda {
namespace {

StateBuffers mapped_states(const InteropBuffer::Mapping& a, const InteropBuffer::Mapping& b,
                           std::uint32_t count) {
  return {a.span<ParticleState>(count).data(), b.span<ParticleState>(count).data()};
}

}  // namespace

void CudaPipeline::reset(const ModelParams& params, std::uint32_t count,
                         std::array<GLuint, 2> state_buffers, GLuint index_buffer) {
  device_.synchronize();  // no frame still uses the old registrations
  for (InteropBuffer& b : states_) b = InteropBuffer();
  order_ = InteropBuffer();
  // The state survives from frame to frame in GL's buffers, and so does the order: fused auto's
  // step reads last frame's order there before the sort writes this frame's.
  for (int k = 0; k < 2; ++k)
    states_[k] = InteropBuffer(state_buffers[k], InteropAccess::read_write);
  order_ = InteropBuffer(index_buffer, InteropAccess::read_write);
  // reset() writes the initial state through the mapped addresses and waits for it, so the
  // mappings may end when this scope does.
  const InteropBuffer::Mapping first = states_[0].map(device_.stream());
  const InteropBuffer::Mapping second = states_[1].map(device_.stream());
  device_.reset(params, count, mapped_states(first, second, count));
}

FrameInfo CudaPipeline::run_frame(const FrameSettings& settings) {
  const std::uint32_t n = device_.count();
  if (n == 0) return device_.run_frame(settings, {});  // nothing to map or write
  // A mapped address may differ from frame to frame: the order target's is read by the graph
  // from FrameConstants, and a move of the states' (never seen) rebuilds the graphs. Every
  // mapping ends (unmap) at the end of the inner scope.
  using Clock = std::chrono::steady_clock;
  const auto ms = [](Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
  };
  const auto start = Clock::now();
  FrameInfo info;
  Clock::time_point mapped, ran;
  {
    const InteropBuffer::Mapping first = states_[0].map(device_.stream());
    const InteropBuffer::Mapping second = states_[1].map(device_.stream());
    const InteropBuffer::Mapping order_map = order_.map(device_.stream());
    device_.move_states(mapped_states(first, second, n));
    const FrameTargets targets{order_map.span<std::uint32_t>(n).data()};
    mapped = Clock::now();
    info = device_.run_frame(settings, targets);
    ran = Clock::now();
  }
  host_times_ = {ms(start, mapped), ms(mapped, ran), ms(ran, Clock::now())};
  return info;
}

}  // namespace particles::cuda
