#pragma once
// Fireworks (FireworksParams): `bursts` launch sites take turns; each bursts every `period`
// seconds at a new place with a new hue, throwing `stars` stars out as a shell. A star is drawn
// as a trail of particles, each where the star was up to `trail` seconds before; it slows under
// drag and sags under gravity, flashing colors.inner, taking the burst's hue, then dimming to
// colors.outer embers that twinkle out.
//
// A particle belongs to one site for good (from its seed) and s.age is the show's clock (the
// same for every particle, wrapped after kFireworksCycle bursts), so a particle's burst, place
// and velocity are pure functions of (seed, age): particles of one burst agree on its centre
// without sharing any state. The drag is written with a rational stand-in for the exponential,
// tau / (1 + k tau) for (1 - e^(-k tau)) / k (same start, same slope, same limit), so both
// backends compute it bit for bit (exact arithmetic only, core/models/exact_math.hpp).
#include <cstdint>

#include "core/color.hpp"
#include "core/hash.hpp"
#include "core/host_device.hpp"
#include "core/models/exact_math.hpp"
#include "core/models/model_params.hpp"
#include "core/particle.hpp"
#include "core/vec3.hpp"

namespace particles {

// Bursts of one site before the show repeats itself: long enough that no one notices.
inline constexpr int kFireworksCycle = 64;

struct FireworksLife {
  std::uint32_t burst;  // hash naming the burst (shared by its particles)
  std::uint32_t star;   // hash naming the particle's star in it (shared by the star's trail)
  std::uint32_t life;   // hash naming this particle's part in it
  float tau;            // seconds since the burst, in [0, period)
  float lag;            // seconds this particle trails its star by, in [0, trail)
};

PARTICLES_HD FireworksLife fireworks_life(const FireworksParams& p, std::uint32_t show_seed,
                                          std::uint32_t seed, float clock) {
  const std::uint32_t site = hash_u32(seed ^ 0x2545f491u) % static_cast<std::uint32_t>(p.bursts);
  // Sites burst in turn, evenly spaced over a period.
  const float phase = p.period * static_cast<float>(site) / static_cast<float>(p.bursts);
  float since = clock - phase;
  if (since < 0.0f) since += p.period * static_cast<float>(kFireworksCycle);
  float n = floorf(since / p.period);
  if (n >= static_cast<float>(kFireworksCycle)) n = static_cast<float>(kFireworksCycle - 1);
  FireworksLife l;
  l.tau = since - n * p.period;
  if (l.tau < 0.0f) l.tau = 0.0f;
  const auto generation = static_cast<std::uint32_t>(n);
  l.burst = hash_combine(hash_combine(show_seed, site), generation);
  l.life = hash_combine(seed, generation);
  const std::uint32_t star = hash_u32(l.life ^ 0x51ed270bu) % static_cast<std::uint32_t>(p.stars);
  l.star = hash_combine(l.burst, star);
  // More of a trail near its head: lag = trail * u^2.
  const float u = unit_float(hash_u32(l.life ^ 0x7a3c5d2fu));
  l.lag = p.trail * u * u;
  return l;
}

struct FireworksMotion {
  Vec3 position, velocity;
};

PARTICLES_HD FireworksMotion fireworks_motion(const FireworksParams& p, const FireworksLife& l) {
  RandomStream burst{l.burst};
  const Vec3 centre =
      p.centre + hadamard(p.spread, Vec3{2.0f * burst.next() - 1.0f, 2.0f * burst.next() - 1.0f,
                                         2.0f * burst.next() - 1.0f});
  const float burst_speed = p.speed * (0.7f + 0.6f * burst.next());
  RandomStream star{l.star};
  // Two draws from one stream in two statements: the operands of one expression are evaluated in
  // an order the compilers choose (GCC and nvcc chose differently).
  const Vec3 direction = random_direction(star);
  const Vec3 v0 = direction * (burst_speed * (0.85f + 0.15f * star.next()));
  // x(t) = c + (v0 + g/k) phi(t) - (g/k) t with phi(t) = t / (1 + k t): linear drag towards the
  // terminal velocity -g/k. A trail particle is where its star was `lag` seconds ago.
  const float k = p.drag, t = l.tau > l.lag ? l.tau - l.lag : 0.0f;
  const float phi = t / (1.0f + k * t);
  const float dphi = 1.0f / ((1.0f + k * t) * (1.0f + k * t));
  const Vec3 terminal{0.0f, -p.gravity / k, 0.0f};
  const Vec3 a = v0 - terminal;
  FireworksMotion m;
  m.position = centre + a * phi + terminal * t;
  m.velocity = a * dphi + terminal;
  return m;
}

PARTICLES_HD void fireworks_place(const ModelParams& m, ParticleState& s) {
  const FireworksMotion x =
      fireworks_motion(m.fireworks, fireworks_life(m.fireworks, m.seed, s.seed, s.age));
  set_motion(s, x.position, x.velocity);
}

PARTICLES_HD ParticleState fireworks_init(const ModelParams& m, std::uint32_t seed) {
  ParticleState s{};
  s.seed = seed;
  fireworks_place(m, s);  // clock 0: every site is part way through a burst
  return s;
}

PARTICLES_HD void fireworks_step(const ModelParams& m, ParticleState& s, float dt) {
  s.age += dt;
  const float cycle = m.fireworks.period * static_cast<float>(kFireworksCycle);
  if (s.age >= cycle) s.age -= cycle;
  fireworks_place(m, s);
}

PARTICLES_HD Color fireworks_color(const ModelParams& m, const ParticleState& s) {
  const FireworksParams& p = m.fireworks;
  const FireworksLife l = fireworks_life(p, m.seed, s.seed, s.age);
  const float u = l.tau / p.period;  // 0 at the burst, 1 at the next
  RandomStream burst{hash_u32(l.burst)};
  const Vec3 hue = hue_rgb(burst.next());
  const Color tint{0.25f + 0.75f * hue.x, 0.25f + 0.75f * hue.y, 0.25f + 0.75f * hue.z,
                   m.color_inner.a};
  Color c = u < 0.06f   ? mix(m.color_inner, tint, u / 0.06f)
            : u < 0.45f ? tint
                        : mix(tint, m.color_outer, clamp01((u - 0.45f) / 0.35f));
  // Embers twinkle: each particle flickers on its own beat, ten times a second.
  if (u > 0.5f) {
    const auto beat = static_cast<std::uint32_t>(floorf(l.tau * 10.0f));
    const float flicker = unit_float(hash_combine(l.life, beat));
    c.a *= 0.35f + 0.65f * flicker;
  }
  c.a *= clamp01((1.0f - u) * 4.0f);  // gone by the next burst
  // A trail dims towards its tail; until the star has flown that far, its trail is not drawn.
  const float tail = p.trail > 0.0f ? l.lag / p.trail : 0.0f;
  c.a *= (1.0f - 0.8f * tail) * (l.tau >= l.lag ? 1.0f : 0.0f);
  return c;
}

}  // namespace particles
