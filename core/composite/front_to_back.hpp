#pragma once
// Compositing a pixel's sprites nearest first ("under"), in float: the way both compositors (the
// CUDA kernels and their CPU twin) blend. Drawing far to near with premultiplied "over", as GL
// does into the float render target, gives the same sum in exact arithmetic:
//   colour = sum_i T_i * a_i * rgb_i,  T_i = prod_{j nearer than i} (1 - a_j),
// and the pixel is colour + T * (what lies under every sprite), alpha 1 - T + T * under alpha.
// Nearest first lets a pixel stop once T is negligible, so dense pixels touch only their
// nearest sprites.
#include <cstdint>

#include "core/composite/pixel.hpp"
#include "core/host_device.hpp"

namespace particles {

// A pixel stops taking sprites once its transmittance falls below this. Whatever lies behind
// it then (sprites and background together, each channel at most 1) could add at most T < 1/1024
// to a channel: under a quarter of one 8-bit step.
inline constexpr float kTransmittanceFloor = 1.0f / 1024.0f;

// A sprite's straight colour as floats, converted from its 8-bit vertex colour once per sprite
// rather than once per fragment.
struct SpriteColor {
  float r = 0.0f, g = 0.0f, b = 0.0f;
};
PARTICLES_HD SpriteColor sprite_color(std::uint32_t rgba8) {
  return {unorm8_to_float(rgba8), unorm8_to_float(rgba8 >> 8), unorm8_to_float(rgba8 >> 16)};
}

struct FrontToBack {
  float r = 0.0f, g = 0.0f, b = 0.0f;  // premultiplied colour taken so far
  float transmittance = 1.0f;          // the share of light from behind still passing

  PARTICLES_HD bool open() const { return transmittance >= kTransmittanceFloor; }

  // A fragment of straight colour `c` and alpha a, behind all taken so far. The products are
  // written out in one order for both compilers (the CUDA compositor is built with
  // -fmad=false), so the two backends agree bit for bit.
  PARTICLES_HD void take(const SpriteColor& c, float a) {
    const float t = transmittance * a;
    r += t * c.r;
    g += t * c.g;
    b += t * c.b;
    transmittance *= 1.0f - a;
  }

  // Everything `behind` took, as lying behind what this one took (a later chunk of a long list).
  PARTICLES_HD void take_behind(const FrontToBack& behind) {
    r += transmittance * behind.r;
    g += transmittance * behind.g;
    b += transmittance * behind.b;
    transmittance *= behind.transmittance;
  }

  // The pixel over `under` (the background, or the image an earlier pass left).
  PARTICLES_HD PixelF over(const PixelF& under) const {
    return {r + transmittance * under.r, g + transmittance * under.g, b + transmittance * under.b,
            (1.0f - transmittance) + transmittance * under.a};
  }
};

}  // namespace particles
