#pragma once
// Scene math that both backends compute bit for bit: only +, -, *, / and sqrtf, which IEEE
// rounds the same way on the CPU and (with --fmad=false, as cuda/stages/sim is built) on the GPU,
// plus floorf and integer hashing, which are exact. sinf, cosf, expf and friends come from two
// different libraries that differ by an ulp or two, and a chaotic model (an attractor, a
// turbulent flow) would grow that ulp into visibly different scenes; the models added after the
// galaxy and the fountain use these instead. Accuracy is what a picture needs, not more.
#include <cstdint>

#include "core/hash.hpp"
#include "core/host_device.hpp"
#include "core/particle.hpp"
#include "core/vec3.hpp"

namespace particles {

inline constexpr float kPi = 3.14159265358979323846f;
inline constexpr float kTwoPi = 6.28318530717958647692f;

// Sets a particle's position and velocity, as every model's init and step do.
PARTICLES_HD void set_motion(ParticleState& s, Vec3 position, Vec3 velocity) {
  s.px = position.x;
  s.py = position.y;
  s.pz = position.z;
  s.vx = velocity.x;
  s.vy = velocity.y;
  s.vz = velocity.z;
}

PARTICLES_HD Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
PARTICLES_HD Vec3 hadamard(Vec3 a, Vec3 b) {
  return {a.x * b.x, a.y * b.y, a.z * b.z};
}
PARTICLES_HD float abs_f(float v) {
  return v < 0.0f ? -v : v;
}

// sin(x) for any finite x, within about 1e-6 + 1e-7 |x| (the rounding of x / 2 pi): reduced to
// [-pi/2, pi/2], then Taylor to x^11.
PARTICLES_HD float exact_sin(float x) {
  float t = x * (1.0f / kTwoPi);
  t -= floorf(t + 0.5f);  // turns, in [-0.5, 0.5]
  if (t > 0.25f) t = 0.5f - t;
  if (t < -0.25f) t = -0.5f - t;  // sin(pi - y) = sin(y)
  const float y = t * kTwoPi;
  const float y2 = y * y;
  return y *
         (1.0f - y2 / 6.0f *
                     (1.0f - y2 / 20.0f *
                                 (1.0f - y2 / 42.0f * (1.0f - y2 / 72.0f * (1.0f - y2 / 110.0f)))));
}
PARTICLES_HD float exact_cos(float x) {
  return exact_sin(x + 0.5f * kPi);
}

// atan2(y, x) in (-pi, pi], within about 1e-5 (0 for the origin): octant reduction and an odd
// polynomial on [0, 1].
PARTICLES_HD float exact_atan2(float y, float x) {
  const float ax = abs_f(x), ay = abs_f(y);
  const float hi = ax > ay ? ax : ay;
  if (hi == 0.0f) return 0.0f;
  const float z = (ax > ay ? ay : ax) / hi;
  const float z2 = z * z;
  float a =
      z * (0.99997726f +
           z2 * (-0.33262347f +
                 z2 * (0.19354346f + z2 * (-0.11643287f + z2 * (0.05265332f - z2 * 0.01172120f)))));
  if (ay > ax) a = 0.5f * kPi - a;
  if (x < 0.0f) a = kPi - a;
  return y < 0.0f ? -a : a;
}

// A rotation by (about) angle `a` as its cosine and sine, from the Cayley transform: c^2 + s^2
// is 1 up to rounding for any a, so repeated small rotations keep radii, and the angle turned is
// 2 atan(a / 2), within 1% of a for |a| < 0.35 (a frame's step is far smaller).
struct Turn {
  float c, s;
};
PARTICLES_HD Turn small_turn(float a) {
  const float h = 0.5f * a;
  const float d = 1.0f + h * h;
  return {(1.0f - h * h) / d, 2.0f * h / d};
}

// v turned by `t` about the unit axis k (Rodrigues).
PARTICLES_HD Vec3 turn_about(Vec3 v, Vec3 k, Turn t) {
  return v * t.c + cross(k, v) * t.s + k * (dot(k, v) * (1.0f - t.c));
}

// A uniform direction from a random stream: the first of up to eight points of the cube [-1, 1]^3
// that falls inside the unit ball (each does with probability 0.52), normalised.
PARTICLES_HD Vec3 random_direction(RandomStream& rs) {
  Vec3 p{0.0f, 1.0f, 0.0f};
  for (int i = 0; i < 8; ++i) {
    const Vec3 q{2.0f * rs.next() - 1.0f, 2.0f * rs.next() - 1.0f, 2.0f * rs.next() - 1.0f};
    const float r2 = dot(q, q);
    if (r2 <= 1.0f && r2 > 1e-6f) {
      p = q;
      break;
    }
  }
  return p * (1.0f / length(p));
}

// A uniform point of the unit disc in the xz plane, by the same rejection.
PARTICLES_HD Vec3 random_in_disc(RandomStream& rs) {
  Vec3 p{0.0f, 0.0f, 0.0f};
  for (int i = 0; i < 8; ++i) {
    const Vec3 q{2.0f * rs.next() - 1.0f, 0.0f, 2.0f * rs.next() - 1.0f};
    if (dot(q, q) <= 1.0f) {
      p = q;
      break;
    }
  }
  return p;
}

// A fully saturated colour of hue h (turns; [0, 1)): red, yellow, green, cyan, blue, magenta.
PARTICLES_HD Vec3 hue_rgb(float h) {
  h -= floorf(h);
  const float r = abs_f(6.0f * h - 3.0f) - 1.0f;
  const float g = 2.0f - abs_f(6.0f * h - 2.0f);
  const float b = 2.0f - abs_f(6.0f * h - 4.0f);
  return {clamp01(r), clamp01(g), clamp01(b)};
}

// Value noise on the integer lattice, smoothed by the quintic fade, with its gradient: values in
// [-1, 1], one hash per lattice corner. `salt` picks one of many independent fields.
struct NoiseSample {
  float value;
  Vec3 gradient;
};

PARTICLES_HD float lattice_value(std::int32_t x, std::int32_t y, std::int32_t z,
                                 std::uint32_t salt) {
  const std::uint32_t h =
      hash_combine(hash_combine(hash_combine(salt, static_cast<std::uint32_t>(x)),
                                static_cast<std::uint32_t>(y)),
                   static_cast<std::uint32_t>(z));
  return 2.0f * unit_float(h) - 1.0f;
}

PARTICLES_HD NoiseSample value_noise(Vec3 p, std::uint32_t salt) {
  const float fx0 = floorf(p.x), fy0 = floorf(p.y), fz0 = floorf(p.z);
  const auto x = static_cast<std::int32_t>(fx0);
  const auto y = static_cast<std::int32_t>(fy0);
  const auto z = static_cast<std::int32_t>(fz0);
  const float fx = p.x - fx0, fy = p.y - fy0, fz = p.z - fz0;
  auto fade = [](float t) { return t * t * t * (t * (t * 6.0f - 15.0f) + 10.0f); };
  auto dfade = [](float t) { return 30.0f * t * t * (t * (t - 2.0f) + 1.0f); };
  const float u = fade(fx), v = fade(fy), w = fade(fz);
  const float du = dfade(fx), dv = dfade(fy), dw = dfade(fz);
  const float a = lattice_value(x, y, z, salt);
  const float b = lattice_value(x + 1, y, z, salt);
  const float c = lattice_value(x, y + 1, z, salt);
  const float d = lattice_value(x + 1, y + 1, z, salt);
  const float e = lattice_value(x, y, z + 1, salt);
  const float f = lattice_value(x + 1, y, z + 1, salt);
  const float g = lattice_value(x, y + 1, z + 1, salt);
  const float h = lattice_value(x + 1, y + 1, z + 1, salt);
  // The trilinear blend written as a polynomial in (u, v, w), so its derivatives read off.
  const float k1 = b - a, k2 = c - a, k3 = e - a;
  const float k4 = a - b - c + d, k5 = a - c - e + g, k6 = a - b - e + f;
  const float k7 = -a + b + c - d + e - f - g + h;
  NoiseSample n;
  n.value = a + k1 * u + k2 * v + k3 * w + k4 * u * v + k5 * v * w + k6 * w * u + k7 * u * v * w;
  n.gradient = {du * (k1 + k4 * v + k6 * w + k7 * v * w), dv * (k2 + k5 * w + k4 * u + k7 * w * u),
                dw * (k3 + k6 * u + k5 * v + k7 * u * v)};
  return n;
}

// The curl of the vector potential (N0, N1, N2) of three independent noise fields at p: a
// divergence-free flow, so particles swirl without bunching up or thinning out. Gradients are
// per lattice unit; the caller scales by the frequency.
PARTICLES_HD Vec3 curl_noise(Vec3 p, std::uint32_t salt) {
  const Vec3 g0 = value_noise(p, salt).gradient;
  const Vec3 g1 = value_noise(p + Vec3{31.4f, 0.0f, 17.1f}, salt ^ 0x68bc21ebu).gradient;
  const Vec3 g2 = value_noise(p + Vec3{-11.7f, 23.3f, 5.9f}, salt ^ 0x02e5be93u).gradient;
  return {g2.y - g1.z, g0.z - g2.x, g1.x - g0.y};
}

}  // namespace particles
