#include "app/main/frame_runner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <glm/gtc/type_ptr.hpp>
#include <iomanip>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

#include "app/gl/gpu_timer.hpp"
#include "app/gl/particle_buffers.hpp"
#include "app/gl/particle_renderer.hpp"
#include "app/gl/render_target.hpp"
#include "app/gl/renderer.hpp"
#include "app/main/scene_draw.hpp"
#include "core/view_depth.hpp"

namespace particles {

std::pair<float, float> clip_planes(const CameraPose& pose, const Extents& last_extents) {
  float radius = 50.0f;
  if (!last_extents.empty()) {
    radius = std::max(0.5f * length(last_extents.max - last_extents.min), 1.0f);
  }
  const float far_plane = pose.distance + 4.0f * radius + 10.0f;
  return {std::max(0.01f, far_plane * 1e-5f), far_plane};
}

namespace {

std::string format_vec3(Vec3 v) {
  std::ostringstream s;
  s << std::setprecision(7) << '(' << v.x << ", " << v.y << ", " << v.z << ')';
  return s.str();
}

bool all_finite(const float* values, int n) {
  for (int i = 0; i < n; ++i) {
    if (!std::isfinite(values[i])) return false;
  }
  return true;
}

}  // namespace

void check_finite_view(const CameraPose& pose, const CameraMatrices& camera, float near_plane,
                       float far_plane) {
  const float planes[2] = {near_plane, far_plane};
  const float eye[6] = {camera.eye.x,     camera.eye.y,     camera.eye.z,
                        camera.forward.x, camera.forward.y, camera.forward.z};
  if (all_finite(glm::value_ptr(camera.view), 16) &&
      all_finite(glm::value_ptr(camera.projection), 16) && all_finite(eye, 6) &&
      all_finite(planes, 2)) {
    return;
  }
  std::ostringstream s;
  s << std::setprecision(7) << "the camera's view is not finite, so the frame would be empty: "
    << "target " << format_vec3(pose.target) << ", distance " << pose.distance << ", yaw "
    << pose.yaw_deg << ", pitch " << pose.pitch_deg << ", fov " << pose.fov_deg << "; eye "
    << format_vec3({camera.eye.x, camera.eye.y, camera.eye.z}) << ", clip planes " << near_plane
    << " to " << far_plane;
  throw std::runtime_error(s.str());
}

void check_finite_extents(const Extents& e) {
  if (e.empty()) return;
  const float values[8] = {e.min.x, e.min.y, e.min.z,     e.max.x,
                           e.max.y, e.max.z, e.depth_min, e.depth_max};
  if (all_finite(values, 8)) return;
  throw std::runtime_error("the particles' extents are not finite (from " + format_vec3(e.min) +
                           " to " + format_vec3(e.max) +
                           "): their positions have left the floats, and the next frame's view "
                           "would be empty");
}

FrameOutcome FrameRunner::run(const SceneDesc& scene, const CameraPose& pose, glm::ivec2 size,
                              const FrameRequest& request) {
  const FrameChoices& choices = request.choices;
  target_.resize(size);
  const auto [near_plane, far_plane] = clip_planes(pose, last_extents_);
  const CameraMatrices camera =
      camera_matrices(pose, float(size.x) / float(size.y), near_plane, far_plane);
  check_finite_view(pose, camera, near_plane, far_plane);

  FrameOutcome out;
  out.camera = camera;
  out.settings = settings_of(choices);
  FrameSettings& settings = out.settings;
  settings.dt = request.paused ? 0.0f : scene.time_step;
  settings.view = depth_frame(camera);
  settings.measure_order_error = request.measure_order_error;
  // A frame neither composited nor drawn shows no comparison.
  settings.compare_order = choices.compare && request.draw;

  // The renderer the choices name, as the renderer table says: a composited one's image is made
  // by the backend, in its frame; a GL-drawn one draws the backend's buffers after it.
  const RendererInfo& renderer = renderer_info(choices.renderer);
  if (!renderer_runs_on(renderer.kind, backend_name_)) {
    throw std::runtime_error("the " + std::string(renderer.name) +
                             " renderer does not run on the " + backend_name_ + " backend");
  }
  const gl::DrawParams draw = scene_draw_params(scene, buffers_.count(), camera, size);
  std::optional<CompositeRequest> composite;
  if (request.draw && renderer.path == RendererPath::composited) {
    composite = composite_request(draw, renderer_, target_);
    composite->renderer = renderer.kind;
    composite->read_back = request.read_back;
  }
  {
    const CompositeRequest view =
        composite ? *composite : composite_request(draw, renderer_, target_);
    last_camera_ = view.camera;
    last_background_ = view.background;
  }
  const auto start = std::chrono::steady_clock::now();
  std::optional<PixelsOffRequest> measure;
  if (request.measure_pixels_off) {
    measure = PixelsOffRequest{*last_camera_, last_background_, request.wait_for_pixels_off};
  }
  out.info = backend_.run_frame(settings, composite ? &*composite : nullptr,
                                measure ? &*measure : nullptr);
  out.backend_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  check_finite_extents(out.info.extents);
  if (!out.info.extents.empty()) last_extents_ = out.info.extents;
  if (request.draw && renderer.path == RendererPath::gl_draw) {
    gl::Renderer& gl = gl_renderer(renderer.kind);
    target_.bind();
    // The clear before the timer's query begins: on Mesa's llvmpipe a GL_TIME_ELAPSED query
    // begun before the context's first clear or draw has no scene to record its start in, and
    // reads back the end's raw clock (the uptime, 10^6 ms and more) as the first frame's time.
    renderer_.clear(draw);
    draw_timer_.begin();
    std::optional<CompareMode> compare;
    if (out.info.compare_order && buffers_.has_compare_order()) compare = choices.compare_mode;
    gl.draw({buffers_, draw, compare}, target_);
    draw_timer_.end();
  }
  return out;
}

std::optional<PixelsOff> FrameRunner::pixels_off() {
  pixels_off_ms_ = 0.0;
  if (!last_camera_) return std::nullopt;
  const auto start = std::chrono::steady_clock::now();
  std::optional<PixelsOff> off = backend_.pixels_off(*last_camera_, last_background_);
  pixels_off_ms_ =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return off;
}

FrameRunner::FrameRunner(Backend& backend, gl::ParticleRenderer& renderer,
                         gl::ParticleBuffers& buffers, gl::RenderTarget& target,
                         gl::GpuTimer& draw_timer)
    : backend_(backend),
      renderer_(renderer),
      buffers_(buffers),
      target_(target),
      draw_timer_(draw_timer),
      backend_name_(backend.name()) {}

// Out of line, where gl::Renderer is complete.
FrameRunner::~FrameRunner() = default;

gl::Renderer& FrameRunner::gl_renderer(RendererKind kind) {
  std::unique_ptr<gl::Renderer>& r = gl_renderers_[renderer_index(kind)];
  if (!r) r = gl::make_gl_renderer(kind, renderer_);
  if (!r) {
    throw std::logic_error("the " + std::string(to_string(kind)) + " renderer is not GL-drawn");
  }
  return *r;
}

}  // namespace particles
