// Round, soft sprites with premultiplied alpha: an opaque-ish core and a halo that fades to
// zero at the rim, so overlapping particles blend without hard edges. Blending is
// (ONE, ONE_MINUS_SRC_ALPHA), which is the "over" operator only if the output is premultiplied.
#include "layout.h"

in vec4 v_color;  // straight alpha

layout(location = PARTICLE_FRAG_COLOR) out vec4 o_color;

void main() {
  vec2 p = gl_PointCoord * 2.0 - 1.0;  // -1..1 across the sprite
  float r2 = dot(p, p);
  if (r2 > 1.0) discard;  // the square point becomes a disc
  float r = sqrt(r2);

  // Full weight inside r < 0.2 (the particle's own colour at the centre, exactly), then the
  // core falls off into a halo with a smooth (1 - r^2)^2 tail that is zero at the rim.
  float core = 1.0 - smoothstep(0.2, 0.55, r);
  float halo = (1.0 - r2) * (1.0 - r2);
  float shape = core + (1.0 - core) * 0.45 * halo;

  float a = v_color.a * shape;
  o_color = vec4(v_color.rgb * a, a);
}
