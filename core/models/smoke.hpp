#pragma once
// The smoke plume (SmokeParams): puffs leave a disc, rise on their buoyancy, which fades with
// age, through a curl-noise flow that grows stronger as they rise, drift outwards and downwind,
// and dissolve. A life is light (colors.inner) or dark (colors.outer) by the side of the vent it
// leaves from, so near and far puffs differ and only back-to-front drawing shows which is in front.
//
// The flow is sampled at p scrolled down by the puff's age: puffs born together see one field,
// and the plume's eddies rise with the smoke instead of standing still. Exact arithmetic only
// (core/models/exact_math.hpp), so both backends step the same plume bit for bit.
#include <cstdint>

#include "core/color.hpp"
#include "core/hash.hpp"
#include "core/host_device.hpp"
#include "core/models/exact_math.hpp"
#include "core/models/model_params.hpp"
#include "core/particle.hpp"
#include "core/vec3.hpp"

namespace particles {

// The velocity of a puff at p, `age` seconds into its life.
PARTICLES_HD Vec3 smoke_velocity(const SmokeParams& p, Vec3 at, float age) {
  const float life = age / p.lifetime;  // 0 at birth, 1 at the end
  const Vec3 q{at.x * p.noise_scale, at.y * p.noise_scale - 0.35f * age, at.z * p.noise_scale};
  const Vec3 swirl = curl_noise(q, 0x5e0c1d2bu) * (p.turbulence * (0.35f + 0.65f * life));
  const float buoyancy = p.rise_speed * (1.0f - 0.6f * life);
  const Vec3 out{(at.x - p.source.x) * p.spread, 0.0f, (at.z - p.source.z) * p.spread};
  return Vec3{p.wind * age, buoyancy, 0.0f} + out + swirl;
}

// Starts the life drawn from s.seed at the disc, `age` seconds in, integrating the flow over
// those seconds in a few coarse steps (init spreads particles over whole lives).
PARTICLES_HD void smoke_place(const SmokeParams& p, ParticleState& s, float age) {
  RandomStream rs{s.seed};
  const Vec3 d = random_in_disc(rs);
  Vec3 at = p.source + d * p.source_radius;
  constexpr int kSteps = 12;
  const float h = age / static_cast<float>(kSteps);
  Vec3 v{};
  for (int i = 0; i < kSteps; ++i) {
    v = smoke_velocity(p, at, h * static_cast<float>(i));
    at = at + v * h;
  }
  set_motion(s, at, v);
  s.age = age;
}

PARTICLES_HD ParticleState smoke_init(const SmokeParams& p, std::uint32_t seed) {
  ParticleState s{};
  s.seed = seed;
  smoke_place(p, s, p.lifetime * unit_float(hash_u32(seed ^ 0x27d4eb2fu)));
  return s;
}

PARTICLES_HD void smoke_step(const SmokeParams& p, ParticleState& s, float dt) {
  s.age += dt;
  if (s.age >= p.lifetime) {
    s.seed = hash_u32(s.seed);  // a new life: a new place on the disc, a new shade
    smoke_place(p, s, s.age - p.lifetime);
    return;
  }
  const Vec3 v = smoke_velocity(p, Vec3{s.px, s.py, s.pz}, s.age);
  s.vx = v.x;
  s.vy = v.y;
  s.vz = v.z;
  s.px += v.x * dt;
  s.py += v.y * dt;
  s.pz += v.z * dt;
}

// Which half of the vent a life leaves from: soot from the -z side (a dark_fraction of the disc's
// width), steam from the rest, so the two rise as intertwined streams rather than as grain.
PARTICLES_HD bool smoke_is_dark(const SmokeParams& p, std::uint32_t seed) {
  RandomStream rs{seed};
  const Vec3 d = random_in_disc(rs);  // as smoke_place draws it
  return 0.5f * (d.z + 1.0f) < p.dark_fraction;
}

// How a puff's alpha rises over the start of its life (`life` is its age over its lifetime), so
// that the plume's base fades in rather than ending in a hard edge at the vent. Puffs are packed
// densely there, so its opacity follows the optical depth, count x alpha per pixel, which spans
// orders of magnitude between the CPU's and the GPU's counts. A steep power ramp (x^8) covers those
// orders of magnitude over the fade, so at any count some stretch of it has an optical depth near
// one: a soft gradient, placed a little higher the denser the plume. A linear ramp saturates within
// a few pixels of the vent at every count we run.
inline constexpr float kSmokeFadeInLife = 0.2f;  // the share of a life the fade-in takes

PARTICLES_HD float smoke_fade_in(float life) {
  const float x = clamp01(life / kSmokeFadeInLife);
  const float x2 = x * x;
  const float x4 = x2 * x2;
  return x4 * x4;
}

PARTICLES_HD Color smoke_color(const ModelParams& m, const ParticleState& s) {
  const SmokeParams& p = m.smoke;
  Color c = smoke_is_dark(p, s.seed) ? m.color_outer : m.color_inner;
  // Shades within a kind, so a puff stands out from its neighbours.
  const float shade = 0.85f + 0.3f * unit_float(hash_u32(s.seed ^ 0x85ebca6bu));
  c.r = clamp01(c.r * shade);
  c.g = clamp01(c.g * shade);
  c.b = clamp01(c.b * shade);
  const float life = clamp01(s.age / p.lifetime);
  const float fade_in = smoke_fade_in(life);
  const float fade_out = (1.0f - life) * (1.0f - life);
  c.a *= fade_in * (0.35f + 0.65f * fade_out) * (1.0f - life);
  return c;
}

// A puff's sprite diameter relative to the scene's sprite_size: 1 at birth, swelling evenly to
// `growth` by the end of its life, as a puff of smoke spreads while it thins.
PARTICLES_HD float smoke_sprite_scale(const SmokeParams& p, const ParticleState& s) {
  return 1.0f + (p.growth - 1.0f) * clamp01(s.age / p.lifetime);
}

}  // namespace particles
