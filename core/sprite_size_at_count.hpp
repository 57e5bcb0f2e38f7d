#pragma once
// A scene's sprite diameter at the particle count it runs with. A scene tuned at one count
// (particles.sprite_size_count) keeps its look at others: the expected optical depth of a pixel
// is the particles over it times each one's covered area times -ln(1 - alpha), so at count N the
// sprite's area is scaled by sprite_size_count / N, its diameter by the square root, and alphas
// stay as the scene sets them. Scaling alpha instead cannot hold the look: an alpha tuned for
// many particles reaches 1 after a few halvings of the count, and the scene's colours would lose
// their relative opacities (docs/scenes.md, "Particles").
#include <cmath>
#include <cstdint>

#include "core/scene_desc.hpp"

namespace particles {

inline float sprite_size_at_count(const SceneDesc& scene, std::uint32_t count) {
  if (scene.sprite_size_count == 0 || count == 0) return scene.sprite_size;
  const double area_scale = static_cast<double>(scene.sprite_size_count) / count;
  return static_cast<float>(scene.sprite_size * std::sqrt(area_scale));
}

}  // namespace particles
