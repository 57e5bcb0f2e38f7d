#pragma once
// What the app asks of a backend each frame, and what it gets back. Shared by both backends.
#include <cstdint>

#include "core/algorithm.hpp"
#include "core/compare_mode.hpp"
#include "core/depth_keys.hpp"
#include "core/draw_order.hpp"
#include "core/extents.hpp"
#include "core/frame_choices.hpp"
#include "core/scene_models.hpp"
#include "core/view_depth.hpp"

namespace particles {

// What a backend runs for one frame: the user's choices (core/frame_choices.hpp) as the backend
// needs them, and this frame's step and view. Its defaults are FrameChoices'.
struct FrameSettings {
  float dt = 1.0f / 60.0f;  // 0 when paused: positions stay, the order still follows the camera
  DepthFrame view;
  Algorithm algorithm = Algorithm::radix;
  KeyMode key_mode = KeyMode::exact;
  int key_bits = kDefaultKeyBits;  // quantized mode only
  // exact, or an approximation (core/draw_order.hpp); unsorted draws in index order.
  DrawOrder order = DrawOrder::exact;
  int order_period = kDefaultOrderPeriod;  // stale: frames per sort
  int coarse_bits = kDefaultCoarseBits;    // coarse: bits per quantized key
  // FrameInfo::order_error is measured (both backends; on CUDA a launch pair after the frame's
  // graph, read back with its report). An exact order of exact keys reports 0 unmeasured.
  bool measure_order_error = false;
  // The comparison view: the backend also writes this frame's exact order (view depth, exact
  // keys, from the identity) beside the drawn one (FrameInfo::compare_order), and a composited
  // frame is the split view itself (core/composite/split_view.hpp).
  bool compare_order = false;
  CompareMode compare_mode = CompareMode::split;  // how a composited frame shows the comparison
  // CUDA backend: simulate, extents and (exact keys from the identity order) keys run as one
  // kernel. The per-stage timers then report the fused work under "simulate"; false runs the
  // stages apart, for the per-stage breakdown. Same results either way.
  bool fuse_stages = true;
  // Every stage_sample_period-th frame (counted from the backend's reset) times each stage; the
  // others time only the whole pipeline (StageTimes::span_ms). On the CUDA backend every stage
  // boundary is an event-record node in the frame's graph, and each costs the frame a few
  // microseconds (H200, galaxy 1M: 57.7 -> 54.9 us without the one between the step and the
  // sort), so timing every boundary of every frame would slow what it measures. 1: every frame.
  int stage_sample_period = kDefaultStageSamplePeriod;
};

// The settings of a frame of these choices, before its step and view are known. The renderer is
// not the backend's to know (it gets a composite request, or GL draws after it).
inline FrameSettings settings_of(const FrameChoices& c) {
  FrameSettings s;
  s.algorithm = c.algorithm;
  s.key_mode = c.key_mode;
  s.key_bits = c.key_bits;
  s.order = c.order;
  s.order_period = c.order_period;
  s.compare_order = c.compare;
  s.compare_mode = c.compare_mode;
  s.fuse_stages = c.fuse_stages;
  s.stage_sample_period = c.stage_sample_period;
  return s;
}

// How a frame was sorted. The automatic mode reports which of its paths ran: skipped_sorted,
// oddeven, partition (the CUDA backend's splitter partition sort, tried before radix when the
// order moved too far for odd-even), insertion (the CPU backend's nearly-sorted path, where the
// GPU runs odd-even) or radix. The CUDA backend's fixed algorithms report full (the chosen
// sorter ran); the CPU backend's name the implementation that ran: radix, oddeven, quicksort or
// library (std::stable_sort, the CPU's stand-in for CUB). A stale order's frames between sorts
// report held.
enum class SortPath {
  skipped_sorted,
  oddeven,
  radix,
  full,
  unsorted,
  partition,
  held,
  quicksort,
  library,
  insertion
};

// The keys a frame sorts by: coarse orders quantize view depth to coarse_bits, eye orders take
// exact keys of the distance to the eye, the others the key mode's keys of view depth.
struct SortKeys {
  KeyMode mode = KeyMode::exact;
  int bits = 32;
  DepthMetric metric = DepthMetric::view_depth;
  bool operator==(const SortKeys&) const = default;
};

inline SortKeys sort_keys_of(const FrameSettings& s) {
  switch (s.order) {
    case DrawOrder::coarse:
      return {KeyMode::quantized, s.coarse_bits, DepthMetric::view_depth};
    case DrawOrder::eye_distance:
      return {KeyMode::exact, 32, DepthMetric::eye_distance};
    default:
      return {s.key_mode, s.key_mode == KeyMode::quantized ? s.key_bits : 32,
              DepthMetric::view_depth};
  }
}

// Whether a frame's order error is 0 without measuring: exact keys sorted exactly.
inline bool order_error_is_zero(const FrameSettings& s) {
  return s.order == DrawOrder::exact && s.key_mode == KeyMode::exact;
}

// The five pipeline stages, in frame order; names are used by the HUD, CSV and JSON.
enum class Stage { simulate, extents, keys, sort, order };
inline constexpr int kStageCount = 5;
constexpr const char* to_string(Stage s) {
  constexpr const char* names[kStageCount] = {"simulate", "extents", "keys", "sort", "order"};
  return names[static_cast<int>(s)];
}

// What a HUD or table shows for a stage timed inside simulate (StageTimes::in_simulate).
inline constexpr const char* kInSimulateText = "in simulate";

// Milliseconds per stage for one frame. GPU timings are read back a few frames late, so they
// carry the number of the frame they measured; frame < 0 means "none available yet".
struct StageTimes {
  std::int64_t frame = -1;
  // The whole pipeline, from the first stage's start to the last one's end; -1 on a CUDA frame
  // that timed its stages while others time the span alone (its stage boundaries slow it).
  float span_ms = -1.0f;
  // Whether ms holds each stage's time; false on frames that timed only the span (see
  // FrameSettings::stage_sample_period), whose ms are all zero.
  bool has_stages = true;
  float ms[kStageCount] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
  // Stages whose work ran inside simulate's pass and is timed there, so their own ms read 0: the
  // CPU backend steps each particle, measures the extents and makes exact view-depth keys in one
  // pass. A HUD or table shows kInSimulateText for them, not a time of 0 that reads as free.
  bool in_simulate[kStageCount] = {false, false, false, false, false};
  float total() const {
    float t = 0.0f;
    for (float v : ms) t += v;
    return t;
  }
};

struct FrameInfo {
  Extents extents;
  SortPath path = SortPath::full;
  StageTimes stages;  // possibly of an earlier frame: see StageTimes::frame
  // The composite renderer's time for frame composite_frame (counted like StageTimes::frame;
  // on the CUDA backend an earlier frame's, read when it finished); -1 where none arrived.
  std::int64_t composite_frame = -1;
  float composite_ms = -1.0f;
  // How wrong the drawn order is: the fraction of its adjacent pairs whose exact keys (this
  // frame's view depth) are out of back-to-front order, descents / (n - 1); -1 when not measured
  // (FrameSettings::measure_order_error). Frame for frame with the extents (a frame late on CUDA).
  float order_error = -1.0f;
  bool compare_order = false;  // the exact order was written too (FrameSettings::compare_order)
};

// descents / (n - 1), FrameInfo::order_error of an order of n particles with that many descents.
inline float order_error_of(std::uint64_t descents, std::uint64_t n) {
  return n < 2 ? 0.0f : static_cast<float>(static_cast<double>(descents) / double(n - 1));
}

constexpr const char* to_string(SortPath p) {
  switch (p) {
    case SortPath::skipped_sorted:
      return "already sorted";
    case SortPath::oddeven:
      return "oddeven";
    case SortPath::radix:
      return "radix";
    case SortPath::full:
      return "as selected";
    case SortPath::unsorted:
      return "unsorted";
    case SortPath::partition:
      return "partition";
    case SortPath::held:
      return "held (stale)";
    case SortPath::quicksort:
      return "quicksort";
    case SortPath::library:
      return "std::stable_sort";
    case SortPath::insertion:
      return "insertion";
  }
  return "?";
}

}  // namespace particles
