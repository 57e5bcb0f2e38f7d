#pragma once
// The range of every number a scene file may give, in one table: the loader checks each key
// against it, and a test checks docs/scenes.md's Range column against it, so the two cannot
// drift apart. Rules between keys (tube_radius < ring_radius, ...) stay in the loader.
#include <limits>
#include <span>
#include <string>
#include <string_view>

namespace particles {

// An allowed interval for a number; open ends are written with parentheses in messages.
struct Range {
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  bool lo_open = false, hi_open = false;

  bool contains(double v) const {
    const bool above = lo_open ? v > lo : v >= lo;
    const bool below = hi_open ? v < hi : v <= hi;
    return above && below;
  }
  // "[1, 16]", "(0, 1000]", "> 0"; numbers to 10 significant digits (134217728, not 1.34218e+08).
  std::string describe() const;
  bool operator==(const Range&) const = default;
};

// World coordinates (a nozzle, a box corner, a centre, the camera's target) and lengths (a
// radius, the camera's distance): far beyond any scene, and small enough that every model's
// motion on top of them stays finite (each model's speeds, accelerations and periods are bounded
// too; SceneLimits.ExtremeAcceptedScenesStayFinite steps every model at these bounds).
inline constexpr double kWorld = 1e6;

// One key: its full name with any path index left out ("model.galaxy.radius",
// "camera.path.yaw"); for an [x, y, z] or a colour, the range of each component.
struct KeyRange {
  std::string_view key;
  Range range;
};

// Every numeric key of a scene file, in docs/scenes.md's order.
std::span<const KeyRange> scene_key_ranges();

// The range of `key` ("camera.path[2].yaw" is looked up as "camera.path.yaw"); throws
// std::logic_error for a key the table lacks (a loader bug, not a user's mistake).
const Range& scene_key_range(std::string_view key);

}  // namespace particles
