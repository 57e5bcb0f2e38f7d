#include "app/main/order_check.hpp"

#include <cmath>
#include <vector>

#include "core/extents.hpp"

namespace particles {
namespace {

float depth_of(const ParticleVertex& v, const DepthFrame& view) {
  return view_depth(view, Vec3{v.x, v.y, v.z});
}

}  // namespace

OrderCheck check_draw_order(std::span<const ParticleVertex> vertices,
                            std::span<const std::uint32_t> order, const DepthFrame& view,
                            KeyMode mode, int key_bits) {
  OrderCheck result;
  auto fail = [&](std::string why) {
    result.ok = false;
    result.problem = std::move(why);
    return result;
  };
  if (order.size() != vertices.size()) {
    return fail("order has " + std::to_string(order.size()) + " entries for " +
                std::to_string(vertices.size()) + " particles");
  }
  std::vector<bool> seen(order.size(), false);
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (order[i] >= order.size() || seen[order[i]]) {
      return fail("order is not a permutation: entry " + std::to_string(i) + " = " +
                  std::to_string(order[i]));
    }
    seen[order[i]] = true;
  }
  if (mode == KeyMode::exact) {
    for (std::size_t i = 1; i < order.size(); ++i) {
      const float far = depth_of(vertices[order[i - 1]], view);
      const float near = depth_of(vertices[order[i]], view);
      const float slack = 4e-6f * std::max(std::fabs(far), std::fabs(near)) + 1e-6f;
      if (near > far + slack) {
        return fail("position " + std::to_string(i) + ": depth " + std::to_string(near) +
                    " drawn after " + std::to_string(far));
      }
    }
    return result;
  }
  Extents e;
  for (const ParticleVertex& v : vertices) {
    extents_add(e, Vec3{v.x, v.y, v.z}, depth_of(v, view), 0.0f);
  }
  std::uint32_t previous = 0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const float depth = depth_of(vertices[order[i]], view);
    // A key may legitimately differ by one bucket where the GPU's depth differs in the last bit
    // and lands on a bucket boundary; anything more is a misordering.
    const std::uint32_t key = quantized_depth_key(depth, e.depth_min, e.depth_max, key_bits);
    if (i > 0 && key + 1 < previous) {
      return fail("position " + std::to_string(i) + ": quantized key " + std::to_string(key) +
                  " after " + std::to_string(previous));
    }
    previous = std::max(previous, key);
  }
  return result;
}

}  // namespace particles
