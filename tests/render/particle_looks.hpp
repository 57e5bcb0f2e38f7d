#pragma once
// Particles for the render tests: states placed by hand, drawn in the colours their scene model
// gives them. The vertex shader works each colour out from the state; the tests predict it with
// the shader's CPU twin, model_color, rounded to bytes as the shader rounds it.
#include <cstdint>

#include "core/color.hpp"
#include "core/particle.hpp"
#include "core/scene_desc.hpp"
#include "core/scene_models.hpp"

namespace particles::gl::test {

// A fountain look whose lifetime is one second, so a particle of age t (below 0.8, before the
// fade) is drawn in lerp(inner, outer, t) and one of age 0 in `inner` itself.
inline ModelParams fountain_look(Color inner, Color outer = {0.0f, 0.0f, 0.0f, 1.0f}) {
  ModelParams m;
  m.model = Model::fountain;
  m.fountain.lifetime = 1.0f;
  m.color_inner = inner;
  m.color_outer = outer;
  return m;
}

// A state at (x, y, z) of the given age and seed; the velocity is never drawn.
inline ParticleState particle_at(float x, float y, float z, float age = 0.0f,
                                 std::uint32_t seed = 0) {
  ParticleState s{};
  s.px = x;
  s.py = y;
  s.pz = z;
  s.age = age;
  s.seed = seed;
  return s;
}

// The straight-alpha colour the shader gives `s` under `look`, bytes and all.
inline Color drawn_color(const ModelParams& look, const ParticleState& s) {
  const std::uint32_t rgba8 = pack_rgba8(model_color(look, s));
  auto channel = [&](int i) { return static_cast<float>((rgba8 >> (8 * i)) & 0xffu) / 255.0f; };
  return {channel(0), channel(1), channel(2), channel(3)};
}

}  // namespace particles::gl::test
