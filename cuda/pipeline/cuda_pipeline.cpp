#include "cuda/pipeline/cuda_pipeline.hpp"

#include <chrono>
#include <optional>

#include "cuda/check.hpp"

namespace particles::cuda {

void CudaPipeline::reset(const ModelParams& params, std::uint32_t count, GLuint vertex_buffer,
                         GLuint index_buffer) {
  device_.reset(params, count);  // synchronises: no frame still uses the old registrations
  // CUDA rewrites both buffers completely every frame, so GL's contents need not survive a map.
  vertices_ = InteropBuffer();
  order_ = InteropBuffer();
  vertices_ = InteropBuffer(vertex_buffer, InteropAccess::write_discard);
  order_ = InteropBuffer(index_buffer, InteropAccess::write_discard);
  composite_vertices_ = DeviceBuffer<ParticleVertex>();
  composite_order_ = DeviceBuffer<std::uint32_t>();
  gl_buffers_behind_ = false;
  compositor_.forget_timings();
  for (ImageSlot& slot : images_) slot.last_used = -1;
  frame_ = 0;
}

FrameInfo CudaPipeline::run_frame(const FrameSettings& settings, const CompositeJob* composite) {
  const std::uint32_t n = device_.count();
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
    // The composite renderer's frames stay in device memory: GL never reads their particles, and
    // mapping the GL buffers around a frame costs the host more than the frame's CUDA work
    // (interop_bench). Raster frames are written straight into the GL buffers.
    std::optional<InteropBuffer::Mapping> vertex_map, order_map;
    std::optional<InteropImage::Mapping> image_map;
    FrameTargets targets;
    if (composite != nullptr) {
      if (composite_vertices_.size() < n) {
        device_.synchronize();  // no frame still writes the old buffers
        composite_vertices_.resize(n);
        composite_order_.resize(n);
      }
      targets = {composite_vertices_.data(), composite_order_.data()};
      image_map.emplace(image_for(*composite).map(device_.stream()));
    } else if (n > 0) {
      vertex_map.emplace(vertices_.map(device_.stream()));
      order_map.emplace(order_.map(device_.stream()));
      targets = {vertex_map->span<ParticleVertex>(n).data(),
                 order_map->span<std::uint32_t>(n).data()};
    }
    mapped = Clock::now();
    info = device_.run_frame(settings, targets);
    ran = Clock::now();
    if (composite != nullptr) {
      compositor_.set_frame(frame_);
      compositor_.composite(device_.stream(), targets.vertices, targets.order, n, composite->camera,
                            composite->background, CompositeOutput{image_map->surface(), nullptr});
    }
    gl_buffers_behind_ = composite != nullptr && n > 0;
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

InteropImage& CudaPipeline::image_for(const CompositeJob& job) {
  for (ImageSlot& slot : images_) {
    if (slot.image && slot.image.gl_texture() == job.texture &&
        slot.generation == job.texture_generation) {
      slot.last_used = frame_;
      return slot.image;
    }
  }
  ImageSlot& slot = images_[0].last_used <= images_[1].last_used ? images_[0] : images_[1];
  device_.synchronize();  // no composite still writes through the old registration
  slot.image = InteropImage();
  slot.image = InteropImage(job.texture);
  slot.generation = job.texture_generation;
  slot.last_used = frame_;
  return slot.image;
}

void CudaPipeline::update_gl_buffers() {
  if (!gl_buffers_behind_) return;
  const std::uint32_t n = device_.count();
  {
    const InteropBuffer::Mapping vertex_map = vertices_.map(device_.stream());
    const InteropBuffer::Mapping order_map = order_.map(device_.stream());
    CUDA_CHECK(cudaMemcpyAsync(vertex_map.span<ParticleVertex>(n).data(),
                               composite_vertices_.data(), std::size_t{n} * sizeof(ParticleVertex),
                               cudaMemcpyDeviceToDevice, device_.stream()));
    CUDA_CHECK(cudaMemcpyAsync(order_map.span<std::uint32_t>(n).data(), composite_order_.data(),
                               std::size_t{n} * sizeof(std::uint32_t), cudaMemcpyDeviceToDevice,
                               device_.stream()));
  }
  gl_buffers_behind_ = false;
}

}  // namespace particles::cuda
