#pragma once
// Live scene and particle-count switching, shared by the window (HUD combo and keys), the soak
// and tests: load the requested scene, reset the backend with its params and the new count (the
// backend resizes the GL buffers), and put the view back as on start-up. A scene that fails to
// load changes nothing; the error says why. GL-free apart from the buffers the backend resizes,
// so a headless context is enough to test it.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/output_file.hpp"
#include "core/scene_desc.hpp"

namespace particles {

class Backend;
struct AppState;
namespace gl {
class ParticleBuffers;
}

// The scene's own count for a backend: `count` on CUDA, `cpu_count` on the CPU.
std::uint32_t default_count(const SceneDesc& scene, std::string_view backend_name);

// The particle counts the HUD offers: a ladder sized for the backend (64K to 16M on CUDA, 16K
// to 1M on the CPU) and the scene's default, ascending without repeats.
std::vector<std::uint32_t> count_presets(std::string_view backend_name,
                                         std::uint32_t scene_default);

// The preset `steps` places above (or, negative, below) `count` in `presets`, clamped to the
// ends; a count between presets steps to the neighbour on that side.
std::uint32_t step_count(const std::vector<std::uint32_t>& presets, std::uint32_t count, int steps);

struct SwitchRequest {
  std::optional<std::filesystem::path> scene;  // a scene file to load
  std::optional<std::uint32_t> count;          // unset: a new scene's default, else unchanged
  // The files the run will write (--screenshot, --report): a scene that reads one of them (its
  // file, its point cloud) is refused like one that fails to load, since the write at the end
  // of the run would replace it. The start-up scene was checked before the first frame.
  std::vector<NamedOutput> outputs;
  bool empty() const { return !scene && !count; }
};

struct SwitchResult {
  bool reset = false;  // the backend was reset: make a new FrameRunner
  std::string error;   // non-empty: the scene and count did not change (if `reset`, the
                       // backend could not hold the count and restarted the old ones)
};

// Applies `request` to the running `scene` and `count`: loads the scene (a scene switch takes
// the new scene's default count unless a count is requested too), checks it against the
// request's outputs, then resets `backend` with `buffers`. Never throws for a bad scene file or a
// count the device cannot hold (DeviceMemoryError); other errors from the backend itself propagate.
SwitchResult switch_scene(const SwitchRequest& request, Backend& backend,
                          gl::ParticleBuffers& buffers, SceneDesc& scene, std::uint32_t& count);

// The app's side: takes AppState's requests (requested_scene, requested_count), clears them,
// applies them with switch_scene (checked against the run's --screenshot and --report), and on a
// reset puts the view back as on start-up (the scene's camera, its path and auto framing, sim time
// 0, no extents yet), keeping the user's algorithm, renderer and key mode. On a load error sets
// state.switch_error (shown by the HUD) and prints it to stderr; the old scene keeps running.
SwitchResult apply_switch_requests(AppState& state, Backend& backend, gl::ParticleBuffers& buffers);

// The index of `path` in `files` (compared as canonical paths where they exist), or -1.
int scene_index(const std::vector<std::filesystem::path>& files, const std::filesystem::path& path);

// The scene `steps` places after (negative: before) `current` in `files`, wrapping around; the
// first (or last) file when `current` is not among them; nullopt when `files` is empty.
std::optional<std::filesystem::path> step_scene(const std::vector<std::filesystem::path>& files,
                                                const std::filesystem::path& current, int steps);

}  // namespace particles
