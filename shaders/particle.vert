// Particle sprites: one GL point per particle, sized like a sphere of world-space diameter
// u_sprite_size seen through the camera. The loader prepends #version 450 core.
#include "layout.h"

layout(location = PARTICLE_ATTRIB_POSITION) in vec3 a_position;
layout(location = PARTICLE_ATTRIB_COLOR) in vec4 a_color;  // straight alpha
layout(location = PARTICLE_ATTRIB_SPRITE_SCALE) in float a_sprite_scale;  // of u_sprite_size

uniform mat4 u_view;
uniform mat4 u_projection;
uniform float u_sprite_size;      // world-space diameter
uniform vec2 u_viewport;          // pixels
uniform vec2 u_point_size_range;  // the implementation's limits, pixels

out vec4 v_color;  // straight alpha

void main() {
  vec4 view_pos = u_view * vec4(a_position, 1.0);
  gl_Position = u_projection * view_pos;
  // A point whose centre is outside the clip volume is dropped whole. GL implementations differ
  // here (Mesa drops it; NVIDIA draws the part of a wide point that reaches into the viewport),
  // so the shader decides: the position moves beyond the far plane, which every one clips.
  // core/composite/sprite.hpp drops the same points.
  if (any(greaterThan(abs(gl_Position.xyz), vec3(gl_Position.w)))) {
    gl_Position = vec4(0.0, 0.0, 2.0, 1.0);
  }

  // A perspective projection maps a length L at view depth d to L * P[1][1] / d in NDC, and NDC
  // spans the viewport height in two units.
  float depth = max(-view_pos.z, 1e-4);
  float pixels =
      u_sprite_size * a_sprite_scale * u_projection[1][1] * 0.5 * u_viewport.y / depth;
  float size = clamp(pixels, u_point_size_range.x, u_point_size_range.y);
  // The rasterizer holds the size on a grid of its own; rounded down to 1/32 px here, it is the
  // same on every GL (kPointSizeSteps in core/composite/sprite.hpp).
  gl_PointSize = floor(size * 32.0) / 32.0;

  // The window position on the 1/256 px grid (kPointPositionSteps), for the same reason: moved
  // there in clip space, where the rasterizer's viewport transform lands on the grid point.
  if (gl_Position.z <= gl_Position.w) {
    vec2 half_viewport = 0.5 * u_viewport;
    vec2 window = (gl_Position.xy / gl_Position.w) * half_viewport + half_viewport;
    vec2 held = roundEven(window * 256.0) / 256.0;
    gl_Position.xy = ((held - half_viewport) / half_viewport) * gl_Position.w;
  }

  // A sprite smaller than the smallest point would be drawn too big; dim it by the area it
  // was given in excess, so distant particles keep their brightness instead of bloating.
  float coverage = min(1.0, (pixels * pixels) / (size * size));
  v_color = vec4(a_color.rgb, a_color.a * coverage);
}
