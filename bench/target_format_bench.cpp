// target_format_bench: what GL's rasterization of one scene frame (the clear and the particle
// draw, as the app makes them) costs into a colour target of each format the render target could
// have: RGBA8, RGBA16F, RGBA32F. RenderTarget is RGBA32F (render_target.hpp says why in picture);
// this is the measured price in GL draw time, and, per scene, how far the cheaper formats' images
// are from the RGBA32F one.
//
// The frame is made once per scene by the backend the app would pick (CUDA when a device is
// present, else the CPU), run a few frames so the draw order is a sorted one, then drawn
// unchanged into every target. Each draw is timed alone with a GL_TIME_ELAPSED query.
//
// Usage: target_format_bench [--reps N] [--size WxH] [--count N] [scene.toml ...]
//   --reps   timed draws per format (default 50), after 5 warm-up draws each
//   --size   image size in pixels (default 1280x720)
//   --count  particles (default: the scene's own count for the backend, `count` on CUDA and
//            `cpu_count` on the CPU, as the app takes them)
//   scenes   default scenes/galaxy.toml scenes/smoke.toml scenes/fireworks.toml
// Malformed arguments: exit 1.
#include <glad/gl.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "app/gl/gl_check.hpp"
#include "app/gl/gl_context.hpp"
#include "app/gl/gl_handle.hpp"
#include "app/gl/particle_buffers.hpp"
#include "app/gl/particle_renderer.hpp"
#include "app/gl/render_target.hpp"
#include "app/main/backend.hpp"
#include "app/main/scene_draw.hpp"
#include "app/main/scene_switch.hpp"
#include "app/scene/scene_loader.hpp"
#include "bench/option_value.hpp"
#include "bench/scene_bench_args.hpp"
#include "core/composite/pixel.hpp"

using namespace particles;

namespace {

constexpr const char* kUsage =
    "usage: target_format_bench [--reps N] [--size WxH] [--count N] [scene.toml ...]";
constexpr int kWarmupDraws = 5;
// Frames the backend runs before the measured one: the first frames the order from the identity
// and the replay camera frames the particles on the first frame's extents.
constexpr int kSettleFrames = 8;
constexpr int kMaxSide = 16384;

struct Args {
  int reps = 50;
  glm::ivec2 size{1280, 720};
  std::uint32_t count = 0;  // 0: the scene's own count for the backend
  std::vector<std::string> scene_files{"scenes/galaxy.toml", "scenes/smoke.toml",
                                       "scenes/fireworks.toml"};
};

// "WxH" with both sides whole numbers in [1, kMaxSide]; throws naming the text otherwise.
glm::ivec2 parse_size(std::string_view text) {
  const auto bad = [&] {
    return std::invalid_argument("--size: '" + std::string(text) +
                                 "' is not WxH with whole numbers in [1, " +
                                 std::to_string(kMaxSide) + "]");
  };
  const std::size_t x = text.find('x');
  if (x == std::string_view::npos) throw bad();
  const auto side = [&](std::string_view part) {
    int v = 0;
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    if (part.empty() || ec != std::errc() || end != part.data() + part.size() || v < 1 ||
        v > kMaxSide) {
      throw bad();
    }
    return v;
  };
  return {side(text.substr(0, x)), side(text.substr(x + 1))};
}

// Throws std::invalid_argument naming the offending argument.
Args parse_args(int argc, const char* const* argv) {
  Args a;
  bool scenes_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--reps") {
      a.reps = static_cast<int>(bench::whole_number_option(argc, argv, i, 1, 100000));
    } else if (arg == "--count") {
      a.count = static_cast<std::uint32_t>(
          bench::whole_number_option(argc, argv, i, 1, std::int64_t{1} << 30));
    } else if (arg == "--size") {
      if (i + 1 >= argc) throw std::invalid_argument("--size needs a value");
      a.size = parse_size(argv[++i]);
    } else if (arg.starts_with("-")) {
      throw std::invalid_argument("unknown option " + std::string(arg));
    } else {
      if (!scenes_given) a.scene_files.clear();  // any scene given replaces the defaults
      scenes_given = true;
      a.scene_files.emplace_back(arg);
    }
  }
  return a;
}

struct Format {
  gl::Enum internal_format;
  const char* name;
};
constexpr Format kFormats[] = {
    {GL_RGBA8, "RGBA8"}, {GL_RGBA16F, "RGBA16F"}, {GL_RGBA32F, "RGBA32F"}};
constexpr std::size_t kFormatCount = std::size(kFormats);

// An FBO with one colour texture of the given format: RenderTarget with the format left open,
// kept here because the product target has one format on purpose.
class FormatTarget {
 public:
  FormatTarget(gl::Enum internal_format, glm::ivec2 size)
      : size_(size), fbo_(gl::create_framebuffer()), color_(gl::create_texture(GL_TEXTURE_2D)) {
    GL_CHECK(glTextureStorage2D(color_.get(), 1, internal_format, size.x, size.y));
    GL_CHECK(glNamedFramebufferTexture(fbo_.get(), GL_COLOR_ATTACHMENT0, color_.get(), 0));
    const GLenum status = glCheckNamedFramebufferStatus(fbo_.get(), GL_DRAW_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE) {
      throw std::runtime_error("framebuffer of format " + std::to_string(internal_format) +
                               " incomplete, status " + std::to_string(status));
    }
  }

  void bind() const {
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo_.get());
    glViewport(0, 0, size_.x, size_.y);
  }

  // The image as floats, whatever the storage (GL converts normalized 8-bit to [0, 1]).
  std::vector<PixelF> read_float_pixels() const { return gl::read_float_pixels(fbo_.get(), size_); }

 private:
  glm::ivec2 size_;
  gl::Framebuffer fbo_;
  gl::Texture color_;
};

// Largest |a - b| over every channel of every pixel, in 1/255 units.
double max_channel_difference_255(const std::vector<PixelF>& a, const std::vector<PixelF>& b) {
  float largest = 0.0f;
  for (std::size_t i = 0; i < a.size(); ++i) {
    largest = std::max({largest, std::abs(a[i].r - b[i].r), std::abs(a[i].g - b[i].g),
                        std::abs(a[i].b - b[i].b), std::abs(a[i].a - b[i].a)});
  }
  return 255.0 * static_cast<double>(largest);
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  try {
    args = parse_args(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "target_format_bench: %s\n%s\n", e.what(), kUsage);
    return 1;
  }
  try {
    // Every scene loads before anything runs, so a bad path fails at once.
    std::vector<SceneDesc> scenes;
    for (const std::string& file : args.scene_files) scenes.push_back(load_scene(file));
    const auto context = gl::make_headless_context(64, 64);
    std::string why;
    std::unique_ptr<Backend> backend = make_cuda_backend(why);
    if (!backend) {
      std::fprintf(stderr, "note: using the CPU backend (%s)\n", why.c_str());
      backend = make_cpu_backend();
    }
    gl::ParticleBuffers buffers;
    gl::ParticleRenderer renderer;
    const gl::Query query = gl::create_query(GL_TIME_ELAPSED);
    std::vector<FormatTarget> targets;
    for (const Format& f : kFormats) targets.emplace_back(f.internal_format, args.size);

    std::printf("# target_format_bench: %s\n", context->renderer_description().c_str());
    std::printf(
        "# %s backend's frame; GL draw = clear + particles, GL_TIME_ELAPSED, %d draws per format "
        "after %d warm-up, formats in turn\n\n",
        backend->name().c_str(), args.reps, kWarmupDraws);
    std::printf(
        "| scene | particles | image | format | GL draw median ms | min ms |\n"
        "|---|---|---|---|---|---|\n");
    std::vector<std::string> difference_lines;
    for (const SceneDesc& scene : scenes) {
      const std::uint32_t count =
          args.count != 0 ? args.count : default_count(scene, backend->name());
      backend->reset(scene.params, count, buffers);
      ReplayCamera replay(scene, args.size);
      CameraMatrices camera;
      for (int f = 0; f < kSettleFrames; ++f) {
        camera = replay.at_frame(f);
        FrameSettings settings;
        settings.dt = scene.time_step;
        settings.view = depth_frame(camera);
        replay.frame_on(backend->run_frame(settings));
      }
      backend->drain_stage_times();  // the frame's buffers are complete before GL reads them
      const gl::DrawParams draw = scene_draw_params(scene, count, camera, args.size);

      std::vector<double> ms[kFormatCount];
      for (int rep = -kWarmupDraws; rep < args.reps; ++rep) {
        for (std::size_t k = 0; k < kFormatCount; ++k) {
          // Formats in turn, so drift (clocks, heat) lands on all of them; the first format of
          // a round rotates too, so none always follows the same one.
          const std::size_t i = (k + static_cast<std::size_t>(rep + kWarmupDraws)) % kFormatCount;
          targets[i].bind();
          glBeginQuery(GL_TIME_ELAPSED, query.get());
          renderer.draw(buffers, draw);
          glEndQuery(GL_TIME_ELAPSED);
          // Each draw alone on the GPU: nothing of the previous format's draw overlaps it.
          glFinish();
          GLuint64 ns = 0;
          glGetQueryObjectui64v(query.get(), GL_QUERY_RESULT, &ns);
          if (rep >= 0) ms[i].push_back(static_cast<double>(ns) * 1e-6);
        }
      }
      // Draw calls are not checked one by one (gl_check.hpp says why); any error shows here.
      gl::check_error("timed draws of " + scene.name, __FILE__, __LINE__);
      for (std::size_t i = 0; i < kFormatCount; ++i) {
        std::printf("| %s | %u | %dx%d | %s | %.3f | %.3f |\n", scene.name.c_str(), count,
                    args.size.x, args.size.y, kFormats[i].name, bench::median(ms[i]),
                    *std::min_element(ms[i].begin(), ms[i].end()));
      }

      // Every target holds the last draw of the same frame; targets are in kFormats order.
      const std::vector<PixelF> rgba8 = targets[0].read_float_pixels();
      const std::vector<PixelF> rgba16f = targets[1].read_float_pixels();
      const std::vector<PixelF> rgba32f = targets[2].read_float_pixels();
      char line[256];
      std::snprintf(line, sizeof line,
                    "- %s: largest channel difference from RGBA32F, in 1/255: RGBA16F %.3f, "
                    "RGBA8 %.3f",
                    scene.name.c_str(), max_channel_difference_255(rgba16f, rgba32f),
                    max_channel_difference_255(rgba8, rgba32f));
      difference_lines.emplace_back(line);
    }
    std::printf("\n");
    for (const std::string& line : difference_lines) std::printf("%s\n", line.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "target_format_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
