#include "cuda/pipeline/cuda_pipeline.hpp"

#include <chrono>

namespace particles::cuda {

void CudaPipeline::reset(const ModelParams& params, std::uint32_t count, GLuint vertex_buffer,
                         GLuint index_buffer) {
  device_.reset(params, count);  // synchronises: no frame still uses the old registrations
  // CUDA rewrites both buffers completely every frame, so GL's contents need not survive a map.
  vertices_ = InteropBuffer();
  order_ = InteropBuffer();
  vertices_ = InteropBuffer(vertex_buffer, InteropAccess::write_discard);
  order_ = InteropBuffer(index_buffer, InteropAccess::write_discard);
}

FrameInfo CudaPipeline::run_frame(const FrameSettings& settings) {
  const std::uint32_t n = device_.count();
  if (n == 0) return device_.run_frame(settings, {});  // nothing to map or write
  // Mapped addresses may differ from frame to frame; the graph reads them from FrameConstants,
  // so a move costs nothing. Both mappings end (unmap) at the end of the inner scope.
  using Clock = std::chrono::steady_clock;
  const auto ms = [](Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
  };
  const auto start = Clock::now();
  FrameInfo info;
  Clock::time_point mapped, ran;
  {
    const InteropBuffer::Mapping vertex_map = vertices_.map(device_.stream());
    const InteropBuffer::Mapping order_map = order_.map(device_.stream());
    const FrameTargets targets{vertex_map.span<ParticleVertex>(n).data(),
                               order_map.span<std::uint32_t>(n).data()};
    mapped = Clock::now();
    info = device_.run_frame(settings, targets);
    ran = Clock::now();
  }
  host_times_ = {ms(start, mapped), ms(mapped, ran), ms(ran, Clock::now())};
  return info;
}

}  // namespace particles::cuda
