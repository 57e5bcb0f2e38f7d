#pragma once
// What the app asks of a backend each frame, and what it gets back. Shared by both backends.
#include <cstdint>

#include "core/algorithm.hpp"
#include "core/depth_keys.hpp"
#include "core/extents.hpp"
#include "core/scene_models.hpp"

namespace particles {

struct FrameSettings {
  float dt = 1.0f / 60.0f;  // 0 when paused: positions stay, the order still follows the camera
  DepthFrame view;
  Algorithm algorithm = Algorithm::radix;
  KeyMode key_mode = KeyMode::exact;
  int key_bits = 16;  // quantized mode only
  bool sort = true;   // false draws in index order, to show why sorting matters
};

// Which path produced this frame's order (auto picks one of the first three).
enum class SortPath { skipped_sorted, oddeven, radix, full, unsorted };

struct FrameInfo {
  Extents extents;
  SortPath path = SortPath::full;
};

constexpr const char* to_string(SortPath p) {
  switch (p) {
    case SortPath::skipped_sorted: return "already sorted";
    case SortPath::oddeven: return "oddeven";
    case SortPath::radix: return "radix";
    case SortPath::full: return "selected";
    case SortPath::unsorted: return "unsorted";
  }
  return "?";
}

}  // namespace particles
