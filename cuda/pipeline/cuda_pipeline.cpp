#include "cuda/pipeline/cuda_pipeline.hpp"

#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>

#include "core/scene_models.hpp"

#include "cuda/composite/compare_view.hpp"

namespace particles::cuda {

void CudaPipeline::reset(const ModelParams& params, std::uint32_t count, GLuint vertex_buffer,
                         GLuint index_buffer, GLuint scale_buffer) {
  if (model_scales_sprites(params.model) && scale_buffer == 0) {
    throw std::invalid_argument(
        "CudaPipeline::reset: this model sizes its sprites: no scale buffer");
  }
  device_.reset(params, count);  // synchronises: no frame still uses the old registrations
  // CUDA rewrites the buffers completely every frame, so GL's contents need not survive a map.
  vertices_ = InteropBuffer();
  order_ = InteropBuffer();
  sprite_scales_ = InteropBuffer();
  vertices_ = InteropBuffer(vertex_buffer, InteropAccess::write_discard);
  order_ = InteropBuffer(index_buffer, InteropAccess::write_discard);
  if (model_scales_sprites(params.model)) {
    sprite_scales_ = InteropBuffer(scale_buffer, InteropAccess::write_discard);
  }
  compare_order_ = InteropBuffer();  // registered again, at this count, by the next comparison
  compare_order_buffer_ = 0;
  exact_order_ = DeviceBuffer<std::uint32_t>();
  for (const auto& c : compositors_) {
    if (c) c->forget_timings();
  }
  pixels_off_counter_.forget();  // they measured the frames before
  pixels_off_wait_ = false;
  pixels_off_empty_ = false;
  pixels_off_compositor_ = nullptr;
  frame_ = 0;
}

DeviceCompositor& CudaPipeline::compositor(RendererKind kind) {
  std::unique_ptr<DeviceCompositor>& c = compositors_[renderer_index(kind)];
  if (!c) c = make_device_compositor(kind);
  if (!c) {
    throw std::invalid_argument("CudaPipeline: the " + std::string(to_string(kind)) +
                                " renderer has no CUDA compositor");
  }
  return *c;
}

FrameInfo CudaPipeline::run_frame(const FrameSettings& settings, const CompositeJob* composite,
                                  GLuint compare_order_buffer, const PixelsOffJob* pixels_off) {
  const std::uint32_t n = device_.count();
  const bool compare = settings.compare_order && n > 0;
  const bool compare_into_gl = compare && compare_order_buffer != 0;
  const bool compare_composite = compare && composite != nullptr;
  // The renderer the frame names; nothing below knows which it is.
  DeviceCompositor* const renderer =
      composite != nullptr ? &compositor(composite->renderer) : nullptr;
  // A measure of its own, unless the comparison view's images serve (counted from them below).
  const bool measure = pixels_off != nullptr && n > 0 && !compare_composite;
  // Made (on first use) before the buffers are mapped, as the renderer's are.
  DeviceCompositor* const measurer = measure ? &compositor(kPixelsOffRenderer) : nullptr;
  prepare_frame(n, composite, compare_into_gl ? compare_order_buffer : 0, pixels_off,
                compare_composite, measure);
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
    std::optional<InteropBuffer::Mapping> vertex_map, order_map, scale_map, compare_map;
    std::optional<InteropImage::Mapping> image_map;
    FrameTargets targets;
    if (n > 0) {
      vertex_map.emplace(vertices_.map(device_.stream()));
      order_map.emplace(order_.map(device_.stream()));
      targets = {vertex_map->span<ParticleVertex>(n).data(),
                 order_map->span<std::uint32_t>(n).data()};
      if (sprite_scales_) {
        scale_map.emplace(sprite_scales_.map(device_.stream()));
        targets.sprite_scales = scale_map->span<float>(n).data();
      }
    }
    if (compare_into_gl) {
      compare_map.emplace(compare_order_.map(device_.stream()));
      targets.exact_order = compare_map->span<std::uint32_t>(n).data();
    } else if (compare_composite || measure) {
      targets.exact_order = exact_order_.data();
    }
    if (composite != nullptr) image_map.emplace(image_.map(device_.stream()));
    mapped = Clock::now();
    info = device_.run_frame(settings, targets);
    info.compare_order = compare_into_gl || compare_composite;
    ran = Clock::now();
    const CompositeOutput screen{image_map ? image_map->surface() : 0, nullptr};
    const DeviceParticles drawn{targets.vertices, targets.sprite_scales, targets.order, n};
    if (renderer != nullptr) renderer->set_frame(frame_);
    const auto composite_frame = [&] {
      composite_targets(settings, renderer, composite, drawn, targets.exact_order, screen,
                        compare_composite);
    };
    composite_frame();
    if (renderer != nullptr && composite->read_back && !renderer->complete(device_.stream())) {
      composite_frame();  // sized now for this frame's entries
    }
    composited = Clock::now();
    // Both orders' images are in linear memory now (the comparison view's), or made here.
    if (compare_composite) {
      pixels_off_counter_.enqueue(exact_image_.data(), drawn_image_.data(), exact_image_.size(),
                                  composite->background, device_.stream());
      pixels_off_compositor_ = renderer;
    } else if (measure) {
      enqueue_measure(*measurer, targets, n, *pixels_off);
    }
  }
  ++frame_;
  // Each renderer's timings, as they arrive (one of a renderer switched away from still counts).
  for (const auto& c : compositors_) {
    if (!c) continue;
    if (const std::optional<CompositeTiming> timing = c->poll_timing()) {
      info.composite_frame = timing->frame;
      info.composite_ms = timing->ms;
      break;
    }
  }
  host_times_ = {ms(start, mapped), ms(mapped, ran), ms(ran, composited),
                 ms(composited, Clock::now())};
  return info;
}

void CudaPipeline::prepare_frame(std::uint32_t n, const CompositeJob* composite,
                                 GLuint compare_order_buffer, const PixelsOffJob* pixels_off,
                                 bool compare_composite, bool measure) {
  if (compare_order_buffer != 0 && compare_order_buffer != compare_order_buffer_) {
    device_.synchronize();  // no frame still writes through the old registration
    compare_order_ = InteropBuffer();
    compare_order_ = InteropBuffer(compare_order_buffer, InteropAccess::write_discard);
    compare_order_buffer_ = compare_order_buffer;
  }
  pixels_off_wait_ = pixels_off != nullptr && pixels_off->wait;
  pixels_off_empty_ = pixels_off != nullptr && n == 0;
  if (compare_composite || measure) {
    const SpriteCamera& camera = compare_composite ? composite->camera : pixels_off->camera;
    const std::size_t pixels =
        static_cast<std::size_t>(camera.width) * static_cast<std::size_t>(camera.height);
    if (exact_order_.size() != n || exact_image_.size() != pixels) {
      device_.synchronize();  // no composite still reads the old buffers
      exact_order_.resize(n);
      exact_image_.resize(pixels);
      drawn_image_.resize(pixels);
    }
  }
  if (composite != nullptr && (!image_ || image_.gl_texture() != composite->texture ||
                               image_generation_ != composite->texture_generation)) {
    device_.synchronize();  // no composite still writes through the old registration
    image_ = InteropImage();
    image_ = InteropImage(composite->texture);
    image_generation_ = composite->texture_generation;
  }
}

void CudaPipeline::composite_targets(const FrameSettings& settings, DeviceCompositor* renderer,
                                     const CompositeJob* composite, const DeviceParticles& drawn,
                                     const std::uint32_t* exact_order,
                                     const CompositeOutput& screen, bool compare_composite) {
  if (compare_composite) {
    // The comparison view costs a second composite, both into linear images first.
    DeviceParticles exact = drawn;
    exact.order = exact_order;
    renderer->composite(device_.stream(), drawn, composite->camera, composite->background,
                        CompositeOutput{0, drawn_image_.data()});
    renderer->composite(device_.stream(), exact, composite->camera, composite->background,
                        CompositeOutput{0, exact_image_.data()});
    compose_compare_view(settings.compare_mode, exact_image_.data(), drawn_image_.data(),
                         composite->camera.width, composite->camera.height, screen,
                         device_.stream());
  } else if (renderer != nullptr) {
    renderer->composite(device_.stream(), drawn, composite->camera, composite->background, screen);
  }
}

void CudaPipeline::enqueue_measure(DeviceCompositor& measure, const FrameTargets& targets,
                                   std::uint32_t n, const PixelsOffJob& job) {
  cudaStream_t stream = device_.stream();
  // Outside the frame's composite timing: the measure is no part of what a viewer waits for.
  measure.set_frame(DeviceCompositor::kUntimedFrame);
  const DeviceParticles drawn{targets.vertices, targets.sprite_scales, targets.order, n};
  DeviceParticles exact = drawn;
  exact.order = targets.exact_order;
  measure.composite(stream, drawn, job.camera, job.background,
                    CompositeOutput{0, drawn_image_.data()});
  measure.composite(stream, exact, job.camera, job.background,
                    CompositeOutput{0, exact_image_.data()});
  pixels_off_compositor_ = &measure;
  pixels_off_counter_.enqueue(exact_image_.data(), drawn_image_.data(), exact_image_.size(),
                              job.background, stream);
}

std::optional<PixelsOff> CudaPipeline::pixels_off() {
  if (pixels_off_empty_) {  // no particles: both images are the background
    pixels_off_empty_ = false;
    return PixelsOff{};
  }
  if (pixels_off_wait_) {
    pixels_off_wait_ = false;
    const std::optional<PixelsOff> counted = pixels_off_counter_.wait_newest();
    // A composite that outgrew its binning left an earlier frame's image (tile_compositor.hpp):
    // no measure rather than a wrong one (the next composite is sized to fit).
    if (pixels_off_compositor_ != nullptr && !pixels_off_compositor_->complete(device_.stream())) {
      return std::nullopt;
    }
    return counted;
  }
  return pixels_off_counter_.poll();
}

}  // namespace particles::cuda
