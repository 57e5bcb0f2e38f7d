#pragma once
// Everything the running app knows, in one struct: what the user chose, what the last frames
// measured, and what the HUD and input handlers read and change.
#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "app/main/compare_labels.hpp"
#include "app/main/live_stats.hpp"
#include "app/scene/options.hpp"
#include "core/camera_director.hpp"
#include "core/frame_choices.hpp"
#include "core/frame_types.hpp"
#include "core/scene_desc.hpp"

namespace particles {

struct AppState {
  Options options;
  SceneDesc scene;
  std::uint32_t count = 0;
  std::string backend_name;
  std::string gl_renderer;

  // What the user chose, changed by keys and the HUD; the frame runs with these. They start as
  // options.choices, with the backend's renderer unless --renderer named one.
  FrameChoices choices;
  bool paused = false;
  // The camera: its pose, the scene's path (followed until the user moves the camera) and a
  // framing on the particles' extents (asked by the scene or the F key).
  CameraDirector camera;
  bool screenshot_requested = false;
  std::string screenshot_message;  // the last P-key screenshot's outcome, for the HUD
  bool quit_requested = false;
  bool hud_visible = true;  // Tab or F1 hides the panel; the comparison view's labels stay

  // The last frame's image size, which the window shows scaled to fit (the comparison view's
  // labels are placed on it), and the heat view's count of pixels where the two orders' images
  // differ (compare_labels.hpp), read back a few times a second; of 0 pixels until counted.
  int image_width = 0, image_height = 0;
  HeatCount heat_count;

  // Live switching (HUD and keys set these; the session applies them at the start of the next
  // frame, see scene_switch.hpp): a scene file to load and/or a particle count.
  std::optional<std::filesystem::path> requested_scene;
  std::optional<std::uint32_t> requested_count;
  std::string switch_error;                        // the last failed switch, until one succeeds
  std::vector<std::filesystem::path> scene_files;  // every scenes/*.toml, for the picker
  std::vector<std::uint32_t> count_presets;        // for the count control (count_presets())

  std::filesystem::path record_dir;  // --record's directory (absolute); empty: not recording
  std::uint64_t recorded_frames = 0;

  double cursor_x = 0.0, cursor_y = 0.0;  // last cursor position, for mouse drags
  double sim_time = 0.0;
  std::uint64_t frame = 0;

  // measurements: the rolling series are of the current configuration only (live_stats.hpp)
  FrameInfo last_info;
  LiveStats stats;
};

}  // namespace particles
