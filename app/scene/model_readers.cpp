// The [model.<name>] tables: each model's parameters, with the checks that involve more than
// one key (a single key's range is scene_ranges.hpp's). A points scene's file and placement are
// points_loader.cpp's: they need the colours, read later.
#include <string>

#include "app/scene/scene_reader.hpp"

namespace particles::scene_reading {

void SceneReader::read_model_table(Model model, const toml::table& t, ModelParams& m) const {
  switch (model) {
    case Model::galaxy:
      return read_galaxy(t, m.galaxy);
    case Model::fountain:
      return read_fountain(t, m.fountain);
    case Model::smoke:
      return read_smoke(t, m.smoke);
    case Model::vortex_ring:
      return read_vortex_ring(t, m.vortex_ring);
    case Model::fireworks:
      return read_fireworks(t, m.fireworks);
    case Model::attractor:
      return read_attractor(t, m.attractor);
    case Model::shells:
      return read_shells(t, m.shells);
    case Model::snow:
      return read_snow(t, m.snow);
    case Model::points:
      return read_points(t, m.points);
  }
}

void SceneReader::fail_order(const toml::table& t, std::string_view section, std::string_view key,
                             float value, std::string_view relation, std::string_view other,
                             float other_value) const {
  fail(t.source(), std::string(section) + "." + std::string(key) + " (" + format_number(value) +
                       ") must be " + std::string(relation) + " " + std::string(other) + " (" +
                       format_number(other_value) + ")");
}

void SceneReader::read_galaxy(const toml::table& t, GalaxyParams& g) const {
  constexpr std::string_view s = "model.galaxy";
  check_keys(
      t, s,
      {"arms", "radius", "thickness", "twist", "arm_spread", "core_fraction", "rotation_speed"});
  get(t, s, "arms", g.arms);
  get(t, s, "radius", g.radius);
  get(t, s, "thickness", g.thickness);
  get(t, s, "twist", g.twist);
  get(t, s, "arm_spread", g.arm_spread);
  get(t, s, "core_fraction", g.core_fraction);
  get(t, s, "rotation_speed", g.rotation_speed);
}

void SceneReader::read_fountain(const toml::table& t, FountainParams& f) const {
  constexpr std::string_view s = "model.fountain";
  check_keys(t, s, {"nozzle", "speed", "cone_angle", "gravity", "lifetime"});
  get_vec3(t, s, "nozzle", f.nozzle);
  get(t, s, "speed", f.speed);
  get(t, s, "cone_angle", f.cone_angle);
  get(t, s, "gravity", f.gravity);
  get(t, s, "lifetime", f.lifetime);
}

void SceneReader::read_smoke(const toml::table& t, SmokeParams& p) const {
  constexpr std::string_view s = "model.smoke";
  check_keys(t, s,
             {"source", "source_radius", "rise_speed", "lifetime", "turbulence", "noise_scale",
              "spread", "wind", "dark_fraction", "growth"});
  get_vec3(t, s, "source", p.source);
  get(t, s, "source_radius", p.source_radius);
  get(t, s, "rise_speed", p.rise_speed);
  get(t, s, "lifetime", p.lifetime);
  get(t, s, "turbulence", p.turbulence);
  get(t, s, "noise_scale", p.noise_scale);
  get(t, s, "spread", p.spread);
  get(t, s, "wind", p.wind);
  get(t, s, "dark_fraction", p.dark_fraction);
  get(t, s, "growth", p.growth);
  // The outward drift grows a puff's distance from the axis by up to e^(spread x age): bounded
  // over a life, it stays finite (e^30 times the disc's radius at most).
  if (!(p.spread * p.lifetime <= 30.0f)) {
    fail(t.source(), std::string(s) + ": spread x lifetime (" +
                         format_number(p.spread * p.lifetime) +
                         ") must be at most 30: a puff drifts out by e^(spread x lifetime)");
  }
}

void SceneReader::read_vortex_ring(const toml::table& t, VortexRingParams& p) const {
  constexpr std::string_view s = "model.vortex_ring";
  check_keys(t, s,
             {"origin", "ring_radius", "core_radius", "tube_radius", "core_speed", "rise_speed",
              "travel", "twirl"});
  get_vec3(t, s, "origin", p.origin);
  get(t, s, "ring_radius", p.ring_radius);
  get(t, s, "core_radius", p.core_radius);
  get(t, s, "tube_radius", p.tube_radius);
  get(t, s, "core_speed", p.core_speed);
  get(t, s, "rise_speed", p.rise_speed);
  get(t, s, "travel", p.travel);
  get(t, s, "twirl", p.twirl);
  // A tube reaching the axis would fold particles through it.
  if (!(p.tube_radius < p.ring_radius)) {
    fail_order(t, s, "tube_radius", p.tube_radius, "less than", "ring_radius", p.ring_radius);
  }
  if (!(p.travel / p.rise_speed >= 0.2f)) {
    fail(t.source(), std::string(s) + ": travel / rise_speed (the ring's period, " +
                         format_number(p.travel / p.rise_speed) + " s) must be at least 0.2 s");
  }
}

void SceneReader::read_fireworks(const toml::table& t, FireworksParams& p) const {
  constexpr std::string_view s = "model.fireworks";
  check_keys(
      t, s, {"centre", "spread", "bursts", "period", "speed", "drag", "gravity", "stars", "trail"});
  get_vec3(t, s, "centre", p.centre);
  get_vec3(t, s, "spread", p.spread);
  get(t, s, "bursts", p.bursts);
  get(t, s, "period", p.period);
  get(t, s, "speed", p.speed);
  get(t, s, "drag", p.drag);
  get(t, s, "gravity", p.gravity);
  get(t, s, "stars", p.stars);
  get(t, s, "trail", p.trail);
  if (!(p.trail < p.period)) fail_order(t, s, "trail", p.trail, "less than", "period", p.period);
}

void SceneReader::read_attractor(const toml::table& t, AttractorParams& p) const {
  constexpr std::string_view s = "model.attractor";
  check_keys(t, s, {"sigma", "rho", "beta", "speed", "scale", "centre"});
  get(t, s, "sigma", p.sigma);
  get(t, s, "rho", p.rho);
  get(t, s, "beta", p.beta);
  get(t, s, "speed", p.speed);
  get(t, s, "scale", p.scale);
  get_vec3(t, s, "centre", p.centre);
}

void SceneReader::read_shells(const toml::table& t, ShellsParams& p) const {
  constexpr std::string_view s = "model.shells";
  check_keys(t, s, {"shells", "inner_radius", "outer_radius", "spin", "tilt", "stripes"});
  get(t, s, "shells", p.shells);
  get(t, s, "inner_radius", p.inner_radius);
  get(t, s, "outer_radius", p.outer_radius);
  get(t, s, "spin", p.spin);
  get(t, s, "tilt", p.tilt);
  get(t, s, "stripes", p.stripes);
  if (p.outer_radius < p.inner_radius) {
    fail_order(t, s, "outer_radius", p.outer_radius, "at least", "inner_radius", p.inner_radius);
  }
}

void SceneReader::read_snow(const toml::table& t, SnowParams& p) const {
  constexpr std::string_view s = "model.snow";
  check_keys(t, s,
             {"box_min", "box_max", "fall_speed", "sway", "sway_period", "wind", "lantern",
              "lantern_radius"});
  get_vec3(t, s, "box_min", p.box_min);
  get_vec3(t, s, "box_max", p.box_max);
  get(t, s, "fall_speed", p.fall_speed);
  get(t, s, "sway", p.sway);
  get(t, s, "sway_period", p.sway_period);
  get_vec3(t, s, "wind", p.wind);
  get_vec3(t, s, "lantern", p.lantern);
  get(t, s, "lantern_radius", p.lantern_radius);
  if (!(p.box_min.x < p.box_max.x && p.box_min.y < p.box_max.y && p.box_min.z < p.box_max.z)) {
    fail(t.source(), std::string(s) + ": box_max must exceed box_min in x, y and z");
  }
}

// The motion; the file and how it is placed are load_points', after the colours.
void SceneReader::read_points(const toml::table& t, PointsParams& p) const {
  constexpr std::string_view s = "model.points";
  check_keys(t, s, {"file", "up", "fit", "alpha", "motion", "speed", "period", "amplitude"});
  const std::string motion =
      string_choice(t, s, "motion", {"still", "turntable", "breathing"}, "still");
  p.motion = motion == "turntable"   ? PointMotion::turntable
             : motion == "breathing" ? PointMotion::breathing
                                     : PointMotion::still;
  get(t, s, "speed", p.speed);
  get(t, s, "period", p.period);
  get(t, s, "amplitude", p.amplitude);
}

}  // namespace particles::scene_reading
