#include "app/main/scene_switch.hpp"

#include <algorithm>
#include <exception>
#include <iostream>
#include <system_error>

#include "app/gl/particle_buffers.hpp"
#include "app/main/app_state.hpp"
#include "app/main/backend.hpp"
#include "app/scene/scene_loader.hpp"

namespace particles {

std::uint32_t default_count(const SceneDesc& scene, std::string_view backend_name) {
  return backend_name == "cpu" ? scene.cpu_count : scene.count;
}

std::vector<std::uint32_t> count_presets(std::string_view backend_name,
                                         std::uint32_t scene_default) {
  // Every power of two in the backend's interactive range, so that - and = double and halve.
  const bool cpu = backend_name == "cpu";
  std::vector<std::uint32_t> presets;
  for (std::uint32_t n = cpu ? 1u << 14 : 1u << 16; n <= (cpu ? 1u << 20 : 1u << 24); n *= 2) {
    presets.push_back(n);
  }
  if (scene_default > 0) presets.push_back(scene_default);
  std::sort(presets.begin(), presets.end());
  presets.erase(std::unique(presets.begin(), presets.end()), presets.end());
  return presets;
}

std::uint32_t step_count(const std::vector<std::uint32_t>& presets, std::uint32_t count,
                         int steps) {
  if (presets.empty()) return count;
  // Where `count` sits: at a preset, or between two.
  const auto at = std::lower_bound(presets.begin(), presets.end(), count);
  std::ptrdiff_t index = at - presets.begin();
  const bool exact = at != presets.end() && *at == count;
  if (steps > 0 && !exact) --index;  // the preset above a gap is one step up
  index += steps;
  index = std::clamp<std::ptrdiff_t>(index, 0, std::ptrdiff_t(presets.size()) - 1);
  return presets[static_cast<std::size_t>(index)];
}

SwitchResult switch_scene(const SwitchRequest& request, Backend& backend,
                          gl::ParticleBuffers& buffers, SceneDesc& scene, std::uint32_t& count) {
  SwitchResult result;
  if (request.empty()) return result;
  SceneDesc next = scene;
  std::uint32_t next_count = count;
  if (request.scene) {
    try {
      next = load_scene(*request.scene);
      const std::vector<RunInput> inputs = scene_inputs(next);
      for (const NamedOutput& output : request.outputs) {
        check_not_an_input(output.path, output.flag, inputs);
      }
    } catch (const std::exception& e) {
      result.error = e.what();
      return result;
    }
    next_count = default_count(next, backend.name());
  }
  if (request.count) next_count = *request.count;
  if (next_count == 0) {
    result.error = "a particle count must be at least 1";
    return result;
  }
  try {
    backend.reset(next.params, next_count, buffers);
  } catch (const DeviceMemoryError& e) {
    // The count does not fit: keep the running scene and count (the backend is reset to them,
    // in case a failed allocation left it part way).
    result.error = e.what();
    backend.reset(scene.params, count, buffers);
    result.reset = true;
    return result;
  }
  scene = std::move(next);
  count = next_count;
  result.reset = true;
  return result;
}

SwitchResult apply_switch_requests(AppState& state, Backend& backend,
                                   gl::ParticleBuffers& buffers) {
  SwitchRequest request;
  request.scene = std::move(state.requested_scene);
  request.count = state.requested_count;
  if (!state.options.screenshot.empty()) {
    request.outputs.push_back({state.options.screenshot, "--screenshot"});
  }
  if (!state.options.report.empty()) request.outputs.push_back({state.options.report, "--report"});
  state.requested_scene.reset();
  state.requested_count.reset();
  const SwitchResult result = switch_scene(request, backend, buffers, state.scene, state.count);
  if (!result.error.empty()) {
    state.switch_error = result.error;
    std::cerr << "error: " << result.error << " (keeping scene '" << state.scene.name << "')\n";
    if (!result.reset) return result;  // else the kept scene restarted (a count that did not fit)
  } else if (!result.reset) {
    return result;
  } else {
    state.switch_error.clear();
  }
  state.camera = CameraDirector::for_scene(state.scene);
  state.sim_time = 0.0;
  state.last_info = FrameInfo{};  // the old scene's extents must not frame the new one
  state.count_presets =
      count_presets(state.backend_name, default_count(state.scene, state.backend_name));
  return result;
}

int scene_index(const std::vector<std::filesystem::path>& files,
                const std::filesystem::path& path) {
  std::error_code ec;
  const auto canonical = [&ec](const std::filesystem::path& p) {
    auto c = std::filesystem::weakly_canonical(p, ec);
    return ec ? p.lexically_normal() : c;
  };
  const auto wanted = canonical(path);
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (canonical(files[i]) == wanted) return static_cast<int>(i);
  }
  return -1;
}

std::optional<std::filesystem::path> step_scene(const std::vector<std::filesystem::path>& files,
                                                const std::filesystem::path& current, int steps) {
  if (files.empty()) return std::nullopt;
  const int n = static_cast<int>(files.size());
  const int at = scene_index(files, current);
  if (at < 0) return steps >= 0 ? files.front() : files.back();
  return files[static_cast<std::size_t>(((at + steps) % n + n) % n)];
}

}  // namespace particles
