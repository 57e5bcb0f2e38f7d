#pragma once
// Checks a frame's draw order as the renderer will use it: read from the GL buffers, whatever
// backend wrote them. This is what `particles bench --verify` runs every frame.
#include <cstdint>
#include <span>
#include <string>

#include "core/depth_keys.hpp"
#include "core/particle.hpp"
#include "core/view_depth.hpp"

namespace particles {

struct OrderCheck {
  bool ok = true;
  std::string problem;  // empty when ok
};

// The order must be a permutation of [0, n) and sorted far to near by the keys the mode gives
// (recomputed here from the drawn positions). In exact mode, neighbours whose depths differ by
// less than a few ulps are accepted in either order: the GPU may contract the depth's dot
// product into fused multiply-adds, which moves the last bit.
OrderCheck check_draw_order(std::span<const ParticleVertex> vertices,
                            std::span<const std::uint32_t> order, const DepthFrame& view,
                            KeyMode mode, int key_bits);

}  // namespace particles
