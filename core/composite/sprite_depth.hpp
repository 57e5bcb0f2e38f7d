#pragma once
// A sprite's view depth as the sprite camera sees it: the distance in front of the camera along
// its forward axis, larger farther (the quantity the exact renderers sort by, DepthFrame's
// view_depth, here taken from the view matrix the sprite is projected with). The sort-free
// renderers need it where the sorted ones need an order: the depth test of stochastic
// transparency and the depth weight of weighted blended transparency.
#include "core/composite/sprite.hpp"
#include "core/host_device.hpp"
#include "core/particle.hpp"

namespace particles {

// The negated view-space z that project_sprite computes (the same product, so the same bits).
PARTICLES_HD float sprite_view_depth(const SpriteCamera& cam, const ParticleVertex& v) {
  return -column_major_row_dot(cam.view, 2, v.x, v.y, v.z, 1.0f);
}

}  // namespace particles
