// The windowless context: EGL with no window system. The GPU machine has EGL through glvnd and
// the NVIDIA driver but no X server, so we ask for its device directly (EGL_EXT_platform_device);
// CI has Mesa (llvmpipe), whose surfaceless platform needs no device at all.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <glad/gl.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "app/gl/gl_context.hpp"

namespace particles::gl {
namespace {

bool has_extension(const char* list, std::string_view name) {
  if (list == nullptr) return false;
  std::string_view all(list);
  for (std::size_t pos = 0; pos < all.size();) {
    const std::size_t end = std::min(all.find(' ', pos), all.size());
    if (all.substr(pos, end - pos) == name) return true;
    pos = end + 1;
  }
  return false;
}

std::string egl_error_text() {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%04X", static_cast<unsigned>(eglGetError()));
  return std::string("EGL error ") + buf;
}

template <class Fn>
Fn egl_proc(const char* name) {
  return reinterpret_cast<Fn>(eglGetProcAddress(name));
}

// eglTerminate is not reference counted and the same platform display is returned to every
// caller, so we count our own contexts per display and terminate with the last one.
std::mutex display_mutex;
std::map<EGLDisplay, int> display_users;

// One way to get a display, tried in order until one gives a GL 4.5 core context.
struct Candidate {
  std::string name;
  EGLenum platform;
  void* native;
};

std::vector<Candidate> candidates() {
  std::vector<Candidate> out;
  const char* client_ext = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  std::vector<Candidate> other_devices;
  if (has_extension(client_ext, "EGL_EXT_device_enumeration") &&
      has_extension(client_ext, "EGL_EXT_platform_device")) {
    auto query_devices = egl_proc<PFNEGLQUERYDEVICESEXTPROC>("eglQueryDevicesEXT");
    auto query_string = egl_proc<PFNEGLQUERYDEVICESTRINGEXTPROC>("eglQueryDeviceStringEXT");
    EGLDeviceEXT devices[16];
    EGLint n = 0;
    if (query_devices != nullptr && query_devices(16, devices, &n) == EGL_TRUE) {
      for (EGLint i = 0; i < n; ++i) {
        const char* dev_ext = query_string ? query_string(devices[i], EGL_EXTENSIONS) : nullptr;
        // Only the NVIDIA driver exposes CUDA interop on an EGL device: that marks the GPU.
        const bool nvidia = has_extension(dev_ext, "EGL_NV_device_cuda");
        Candidate c{(nvidia ? "NVIDIA EGL device " : "EGL device ") + std::to_string(i),
                    EGL_PLATFORM_DEVICE_EXT, devices[i]};
        (nvidia ? out : other_devices).push_back(c);
      }
    }
  }
  if (has_extension(client_ext, "EGL_MESA_platform_surfaceless")) {
    out.push_back({"Mesa surfaceless platform", EGL_PLATFORM_SURFACELESS_MESA, EGL_NO_DISPLAY});
  }
  out.insert(out.end(), other_devices.begin(), other_devices.end());
  out.push_back({"EGL default display", 0, EGL_DEFAULT_DISPLAY});
  return out;
}

class HeadlessContext final : public GlContext {
 public:
  HeadlessContext(const Candidate& c, glm::ivec2 size) : size_(size) {
    display_ = open_display(c);
    if (display_ == EGL_NO_DISPLAY)
      throw std::runtime_error("no display (" + egl_error_text() + ")");
    EGLint major = 0, minor = 0;
    if (eglInitialize(display_, &major, &minor) != EGL_TRUE) {
      throw std::runtime_error("eglInitialize failed (" + egl_error_text() + ")");
    }
    {
      std::lock_guard lock(display_mutex);
      ++display_users[display_];
    }
    try {
      create_context();
      if (gladLoadGL(eglGetProcAddress) == 0) throw std::runtime_error("gladLoadGL failed");
      finish_context_setup(c.name);
    } catch (...) {
      release();
      throw;
    }
  }
  ~HeadlessContext() override { release(); }

  bool headless() const override { return true; }
  glm::ivec2 framebuffer_size() const override { return size_; }
  // Nothing to present; flushing keeps the frame pacing similar to a window's swap.
  void swap_buffers() override { glFlush(); }
  bool should_close() const override { return false; }
  void poll_events() override {}

 private:
  static EGLDisplay open_display(const Candidate& c) {
    if (c.platform == 0) return eglGetDisplay(static_cast<EGLNativeDisplayType>(c.native));
    auto get_platform_display =
        egl_proc<PFNEGLGETPLATFORMDISPLAYEXTPROC>("eglGetPlatformDisplayEXT");
    if (get_platform_display == nullptr) return EGL_NO_DISPLAY;
    return get_platform_display(c.platform, c.native, nullptr);
  }

  void create_context() {
    if (eglBindAPI(EGL_OPENGL_API) != EGL_TRUE) {
      throw std::runtime_error("eglBindAPI(EGL_OPENGL_API) failed: no desktop GL in this EGL");
    }
    const char* ext = eglQueryString(display_, EGL_EXTENSIONS);
    const bool surfaceless = has_extension(ext, "EGL_KHR_surfaceless_context");
    const EGLint config_attribs[] = {EGL_SURFACE_TYPE,
                                     surfaceless ? 0 : EGL_PBUFFER_BIT,
                                     EGL_RENDERABLE_TYPE,
                                     EGL_OPENGL_BIT,
                                     EGL_RED_SIZE,
                                     8,
                                     EGL_GREEN_SIZE,
                                     8,
                                     EGL_BLUE_SIZE,
                                     8,
                                     EGL_ALPHA_SIZE,
                                     8,
                                     EGL_NONE};
    EGLConfig config = nullptr;
    EGLint count = 0;
    if (eglChooseConfig(display_, config_attribs, &config, 1, &count) != EGL_TRUE || count < 1) {
      throw std::runtime_error("no RGBA8 desktop-GL EGL config (" + egl_error_text() + ")");
    }
#ifdef NDEBUG
    const EGLint flags = 0;
#else
    const EGLint flags = EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR;
#endif
    const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION_KHR,
                                      4,
                                      EGL_CONTEXT_MINOR_VERSION_KHR,
                                      5,
                                      EGL_CONTEXT_OPENGL_PROFILE_MASK_KHR,
                                      EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT_KHR,
                                      EGL_CONTEXT_FLAGS_KHR,
                                      flags,
                                      EGL_NONE};
    context_ = eglCreateContext(display_, config, EGL_NO_CONTEXT, context_attribs);
    if (context_ == EGL_NO_CONTEXT) {
      throw std::runtime_error("no GL 4.5 core context (" + egl_error_text() + ")");
    }
    // We draw into our own framebuffer objects; a pbuffer is only needed where EGL insists on
    // a surface to make a context current.
    if (!surfaceless) {
      const EGLint pbuffer_attribs[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
      surface_ = eglCreatePbufferSurface(display_, config, pbuffer_attribs);
      if (surface_ == EGL_NO_SURFACE) {
        throw std::runtime_error("eglCreatePbufferSurface failed (" + egl_error_text() + ")");
      }
    }
    if (eglMakeCurrent(display_, surface_, surface_, context_) != EGL_TRUE) {
      throw std::runtime_error("eglMakeCurrent failed (" + egl_error_text() + ")");
    }
  }

  void release() noexcept {
    if (display_ == EGL_NO_DISPLAY) return;
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (context_ != EGL_NO_CONTEXT) eglDestroyContext(display_, context_);
    if (surface_ != EGL_NO_SURFACE) eglDestroySurface(display_, surface_);
    std::lock_guard lock(display_mutex);
    if (--display_users[display_] == 0) {
      display_users.erase(display_);
      eglTerminate(display_);
    }
    eglReleaseThread();
    display_ = EGL_NO_DISPLAY;
  }

  glm::ivec2 size_;
  EGLDisplay display_ = EGL_NO_DISPLAY;
  EGLContext context_ = EGL_NO_CONTEXT;
  EGLSurface surface_ = EGL_NO_SURFACE;
};

}  // namespace

std::unique_ptr<GlContext> make_headless_context(int width, int height) {
  std::string reasons;
  for (const Candidate& c : candidates()) {
    try {
      return std::make_unique<HeadlessContext>(c, glm::ivec2{width, height});
    } catch (const std::exception& e) {
      reasons += "\n  " + c.name + ": " + e.what();
    }
  }
  throw std::runtime_error("no headless OpenGL 4.5 core context could be created:" + reasons);
}

}  // namespace particles::gl
