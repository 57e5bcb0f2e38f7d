#include "cuda/pipeline/cuda_pipeline.hpp"

#include <chrono>
#include <optional>

namespace particles::cuda {

void CudaPipeline::reset(const ModelParams& params, std::uint32_t count, GLuint vertex_buffer,
                         GLuint index_buffer) {
  device_.reset(params, count);  // synchronises: no frame still uses the old registrations
  // CUDA rewrites both buffers completely every frame, so GL's contents need not survive a map.
  vertices_ = InteropBuffer();
  order_ = InteropBuffer();
  vertices_ = InteropBuffer(vertex_buffer, InteropAccess::write_discard);
  order_ = InteropBuffer(index_buffer, InteropAccess::write_discard);
  compositor_.forget_timings();
  frame_ = 0;
}

FrameInfo CudaPipeline::run_frame(const FrameSettings& settings, const CompositeJob* composite) {
  const std::uint32_t n = device_.count();
  if (composite != nullptr && (!image_ || image_.gl_texture() != composite->texture ||
                               image_generation_ != composite->texture_generation)) {
    device_.synchronize();  // no composite still writes through the old registration
    image_ = InteropImage();
    image_ = InteropImage(composite->texture);
    image_generation_ = composite->texture_generation;
  }
  // Mapped addresses may differ from frame to frame; the graph reads them from FrameConstants,
  // so a move costs nothing. Every mapping ends (unmap) at the end of the inner scope.
  using Clock = std::chrono::steady_clock;
  const auto ms = [](Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
  };
  const auto start = Clock::now();
  FrameInfo info;
  Clock::time_point mapped, ran, composited;
  {
    std::optional<InteropBuffer::Mapping> vertex_map, order_map;
    std::optional<InteropImage::Mapping> image_map;
    FrameTargets targets;
    if (n > 0) {
      vertex_map.emplace(vertices_.map(device_.stream()));
      order_map.emplace(order_.map(device_.stream()));
      targets = {vertex_map->span<ParticleVertex>(n).data(),
                 order_map->span<std::uint32_t>(n).data()};
    }
    if (composite != nullptr) image_map.emplace(image_.map(device_.stream()));
    mapped = Clock::now();
    info = device_.run_frame(settings, targets);
    ran = Clock::now();
    if (composite != nullptr) {
      compositor_.set_frame(frame_);
      compositor_.composite(device_.stream(), targets.vertices, targets.order, n, composite->camera,
                            composite->background, CompositeOutput{image_map->surface(), nullptr});
    }
    composited = Clock::now();
  }
  ++frame_;
  if (const auto timing = compositor_.poll_timing()) {
    info.composite_frame = timing->frame;
    info.composite_ms = timing->ms;
  }
  host_times_ = {ms(start, mapped), ms(mapped, ran), ms(ran, composited),
                 ms(composited, Clock::now())};
  return info;
}

}  // namespace particles::cuda
