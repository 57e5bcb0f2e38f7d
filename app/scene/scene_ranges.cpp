#include "app/scene/scene_ranges.hpp"

#include <array>
#include <iomanip>
#include <sstream>
#include <stdexcept>

#include "core/backend_limits.hpp"

namespace particles {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kHalfPi = 1.5707963267948966;

constexpr Range closed(double lo, double hi) {
  return {lo, hi, false, false};
}
// (0, hi]: a length or a rate that a model divides by.
constexpr Range positive(double hi) {
  return {0.0, hi, true, false};
}
constexpr Range kUnit = closed(0, 1);
constexpr Range kCoordinate = closed(-kWorld, kWorld);

// Camera. The distance's floor keeps the eye apart from the target in float (the loader also
// asks for 1e-5 of the target's largest coordinate, where a float's step is 6e-8 of it); a
// hundred turns of yaw either way is room for any path; pitch stops short of the poles, where
// the up vector and the view would be parallel; keyframe times up to a day keep a float's step
// under half a frame at 60 frames a second.
constexpr Range kDistance = closed(1e-4, kWorld);
constexpr Range kYaw = closed(-36000, 36000);
constexpr Range kPitch = closed(-89, 89);

constexpr std::array kRanges = std::to_array<KeyRange>({
    {"particles.count", closed(1, kCudaMaxCount)},
    {"particles.cpu_count", closed(1, kCpuMaxCount)},
    {"particles.sprite_size", positive(1000)},
    {"particles.sprite_size_count", closed(0, kCudaMaxCount)},
    {"particles.seed", closed(0, 4294967295.0)},
    {"particles.time_step", positive(0.1)},

    {"model.galaxy.arms", closed(1, 16)},
    {"model.galaxy.radius", positive(kWorld)},
    {"model.galaxy.thickness", closed(0, kWorld)},
    {"model.galaxy.twist", closed(-1000, 1000)},
    {"model.galaxy.arm_spread", closed(0, 100)},
    {"model.galaxy.core_fraction", kUnit},
    {"model.galaxy.rotation_speed", closed(-100, 100)},

    {"model.fountain.nozzle", kCoordinate},
    {"model.fountain.speed", closed(0, 1000)},
    {"model.fountain.cone_angle", closed(0, kHalfPi)},
    {"model.fountain.gravity", closed(-1000, 1000)},
    {"model.fountain.lifetime", positive(600)},

    // What each model's math stays sound for (a lifetime or period longer than the largest time
    // step, so a particle starts at most one new life a step; no division by zero), with bounds
    // far beyond any good-looking scene.
    {"model.smoke.source", kCoordinate},
    {"model.smoke.source_radius", positive(100)},
    {"model.smoke.rise_speed", closed(0, 50)},
    {"model.smoke.lifetime", closed(0.2, 60)},
    {"model.smoke.turbulence", closed(0, 50)},
    {"model.smoke.noise_scale", positive(10)},
    {"model.smoke.spread", closed(0, 5)},
    {"model.smoke.wind", closed(-20, 20)},
    {"model.smoke.dark_fraction", kUnit},
    {"model.smoke.growth", closed(0.1, 20)},

    {"model.vortex_ring.origin", kCoordinate},
    {"model.vortex_ring.ring_radius", positive(1000)},
    // The swirl's angular speed near the core is 2 core_speed / core_radius.
    {"model.vortex_ring.core_radius", closed(0.001, 1000)},
    {"model.vortex_ring.tube_radius", positive(1000)},
    {"model.vortex_ring.core_speed", closed(-100, 100)},
    {"model.vortex_ring.rise_speed", positive(100)},
    {"model.vortex_ring.travel", positive(10000)},
    {"model.vortex_ring.twirl", closed(-3, 3)},

    {"model.fireworks.centre", kCoordinate},
    {"model.fireworks.spread", closed(0, 1000)},
    {"model.fireworks.bursts", closed(1, 64)},
    {"model.fireworks.period", closed(0.2, 60)},
    {"model.fireworks.speed", closed(0, 100)},
    // The terminal velocity is gravity / drag.
    {"model.fireworks.drag", closed(0.001, 20)},
    {"model.fireworks.gravity", closed(-50, 50)},
    {"model.fireworks.stars", closed(1, 100000)},
    {"model.fireworks.trail", closed(0, 5)},

    {"model.attractor.sigma", positive(100)},
    {"model.attractor.rho", positive(200)},
    {"model.attractor.beta", positive(20)},
    {"model.attractor.speed", closed(-5, 5)},
    // World coordinates are divided by the scale each step.
    {"model.attractor.scale", closed(0.001, 100)},
    {"model.attractor.centre", kCoordinate},

    {"model.shells.shells", closed(1, 32)},
    {"model.shells.inner_radius", positive(1000)},
    {"model.shells.outer_radius", positive(1000)},
    {"model.shells.spin", closed(-10, 10)},
    {"model.shells.tilt", closed(-kHalfPi, kHalfPi)},
    {"model.shells.stripes", closed(0, 64)},

    {"model.snow.box_min", kCoordinate},
    {"model.snow.box_max", kCoordinate},
    {"model.snow.fall_speed", closed(0, 50)},
    {"model.snow.sway", closed(0, 10)},
    {"model.snow.sway_period", closed(0.2, 600)},
    {"model.snow.wind", closed(-50, 50)},
    {"model.snow.lantern", kCoordinate},
    {"model.snow.lantern_radius", positive(10000)},

    {"model.points.fit", closed(0, kWorld)},
    {"model.points.alpha", kUnit},
    // A turn or breath takes longer than the largest time step (0.1 s): the clock wraps once a
    // step at most.
    {"model.points.speed", closed(-10, 10)},
    {"model.points.period", closed(0.2, 600)},
    {"model.points.amplitude", closed(0, 0.5)},

    {"colors.inner", kUnit},
    {"colors.outer", kUnit},
    {"colors.background", kUnit},

    {"camera.target", kCoordinate},
    {"camera.distance", kDistance},
    {"camera.yaw", kYaw},
    {"camera.pitch", kPitch},
    {"camera.fov", closed(1, 170)},

    {"camera.path.time", closed(0, 86400)},
    {"camera.path.yaw", kYaw},
    {"camera.path.pitch", kPitch},
    {"camera.path.distance", kDistance},
});

// "camera.path[2].yaw" -> "camera.path.yaw"; "colors.inner[1]" -> "colors.inner".
std::string without_indices(std::string_view key) {
  std::string out;
  bool inside = false;
  for (const char c : key) {
    if (c == '[') inside = true;
    if (!inside) out += c;
    if (c == ']') inside = false;
  }
  return out;
}

}  // namespace

std::string Range::describe() const {
  std::ostringstream s;
  s << std::setprecision(10);
  if (hi == kInf) {
    s << (lo_open ? "> " : ">= ") << lo;
  } else {
    s << (lo_open ? '(' : '[') << lo << ", " << hi << (hi_open ? ')' : ']');
  }
  return s.str();
}

std::span<const KeyRange> scene_key_ranges() {
  return kRanges;
}

const Range& scene_key_range(std::string_view key) {
  const std::string plain = without_indices(key);
  for (const KeyRange& k : kRanges) {
    if (k.key == plain) return k.range;
  }
  throw std::logic_error("scene key '" + plain + "' has no range in app/scene/scene_ranges.cpp");
}

}  // namespace particles
