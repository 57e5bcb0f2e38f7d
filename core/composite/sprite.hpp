#pragma once
// One particle's sprite as GL draws it (shaders/particle.vert and particle.frag), written once for
// the tile compositor's kernels and their CPU twin. The shaders must compute the same thing:
// tests/render/sprite_agreement_test.cpp draws through GL and compares against this header.
//
// What GL does, step by step, and where each step lives here:
//  - the vertex shader: view and clip position, the point size (a world-space diameter seen at
//    the view depth, clamped to the implementation's point-size range) and the coverage dimming
//    of sprites smaller than the smallest point (project_sprite);
//  - clipping: a point whose vertex lies outside the clip volume is discarded whole, even when
//    its sprite would reach into the viewport (project_sprite: visible); particle.vert enforces
//    this itself, since GL implementations differ on it;
//  - point rasterization: one fragment per pixel whose centre lies in the square of the point
//    size around the window position, gl_PointCoord across it (sprite_pixel_bounds, sprite_weight);
//  - the fragment shader: a soft disc, discarded outside radius 1 (sprite_weight);
//  - blending: premultiplied "over" into the float render target, far to near; the compositors
//    take the same fragments nearest first (core/composite/front_to_back.hpp).
// GL rasterizers hold a point's window position and size on a grid of their own (NVIDIA: 1/256
// px and 1/32 px, measured on the H200; Mesa's llvmpipe: exactly). particle.vert puts both on
// NVIDIA's grid itself, and project_sprite does the same, so that a GL holding either exactly or
// on that grid draws the sprite this header computes.
//
// Every function uses plain IEEE float operations in a fixed order, so the host compiler (no
// contraction in ISO C++) and nvcc (the compositor is built with -fmad=false) agree bit for bit.
#include <cmath>
#include <cstdint>

#include "core/composite/pixel.hpp"
#include "core/host_device.hpp"
#include "core/particle.hpp"

namespace particles {

// The grids particle.vert holds a point on (above): window position in 1/256 px, size rounded
// down to 1/32 px.
inline constexpr float kPointPositionSteps = 256.0f;
inline constexpr float kPointSizeSteps = 32.0f;

// What projecting a sprite needs: the camera's matrices (column-major, as GL stores them), the
// viewport, the sprite's world-space diameter and GL's point-size range.
struct SpriteCamera {
  float view[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  float projection[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  int width = 1, height = 1;                            // viewport, pixels
  float sprite_size = 0.1f;                             // world-space diameter
  float point_size_min = 1.0f, point_size_max = 64.0f;  // GL_POINT_SIZE_RANGE
};

// A sprite in window coordinates (pixels, y up, origin at the bottom-left corner of the image).
struct ProjectedSprite {
  float x = 0.0f, y = 0.0f;  // window position of the particle's centre
  float size = 0.0f;         // point size, pixels (after the clamp)
  float inv_half = 0.0f;     // 2 / size: pixel offset to gl_PointCoord * 2 - 1
  float alpha = 0.0f;        // straight alpha after coverage dimming
  std::uint32_t rgba8 = 0;   // the vertex colour (straight alpha in the top byte, unused here)
  bool visible = false;      // false: clipped, GL draws nothing of it
};

// Pixel bounds [x0, x1) x [y0, y1) that hold every pixel a visible sprite may touch, clamped to
// the viewport; empty (x0 >= x1 or y0 >= y1) when none. They decide only which tiles a sprite is
// binned into; sprite_weight decides the pixels.
struct PixelBounds {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  PARTICLES_HD bool empty() const { return x0 >= x1 || y0 >= y1; }
};

PARTICLES_HD float column_major_row_dot(const float* m, int row, float x, float y, float z,
                                        float w) {
  return m[row] * x + m[4 + row] * y + m[8 + row] * z + m[12 + row] * w;
}

// Where particle.vert holds a point: its window position (one coordinate) on the 1/256 px grid,
// its size rounded down to 1/32 px.
PARTICLES_HD float held_point_position(float v) {
  return rintf(v * kPointPositionSteps) / kPointPositionSteps;
}
PARTICLES_HD float held_point_size(float size) {
  return floorf(size * kPointSizeSteps) / kPointSizeSteps;
}

// `scale`: the particle's sprite scale (model_sprite_scale; 1 for a model that sizes no sprite),
// the a_sprite_scale attribute of particle.vert.
PARTICLES_HD ProjectedSprite project_sprite(const SpriteCamera& cam, const ParticleVertex& v,
                                            float scale = 1.0f) {
  ProjectedSprite s;
  s.rgba8 = v.rgba8;
  // particle.vert: view_pos = u_view * position; gl_Position = u_projection * view_pos.
  const float vx = column_major_row_dot(cam.view, 0, v.x, v.y, v.z, 1.0f);
  const float vy = column_major_row_dot(cam.view, 1, v.x, v.y, v.z, 1.0f);
  const float vz = column_major_row_dot(cam.view, 2, v.x, v.y, v.z, 1.0f);
  const float vw = column_major_row_dot(cam.view, 3, v.x, v.y, v.z, 1.0f);
  const float cx = column_major_row_dot(cam.projection, 0, vx, vy, vz, vw);
  const float cy = column_major_row_dot(cam.projection, 1, vx, vy, vz, vw);
  const float cz = column_major_row_dot(cam.projection, 2, vx, vy, vz, vw);
  const float cw = column_major_row_dot(cam.projection, 3, vx, vy, vz, vw);
  // Clipping keeps a point only if its vertex is inside -w <= x, y, z <= w; a NaN fails every
  // comparison and is dropped with the rest.
  s.visible = (-cw <= cx && cx <= cw) && (-cw <= cy && cy <= cw) && (-cw <= cz && cz <= cw);
  if (!s.visible) return s;

  const float half_w = 0.5f * static_cast<float>(cam.width);
  const float half_h = 0.5f * static_cast<float>(cam.height);
  s.x = (cx / cw) * half_w + half_w;
  s.y = (cy / cw) * half_h + half_h;
  // Inside the clip volume the position lies on the viewport; only an infinite w (whose division
  // gives NaN) puts it elsewhere, and GL would draw nothing sensible of it either.
  if (!(s.x >= 0.0f && s.x <= 2.0f * half_w && s.y >= 0.0f && s.y <= 2.0f * half_h)) {
    s.visible = false;
    return s;
  }

  // particle.vert: the world diameter at view depth d covers size * P[1][1] / d of NDC, whose two
  // units span the viewport height.
  const float depth = -vz > 1e-4f ? -vz : 1e-4f;
  const float pixels =
      cam.sprite_size * scale * cam.projection[5] * 0.5f * static_cast<float>(cam.height) / depth;
  const float size = pixels < cam.point_size_min
                         ? cam.point_size_min
                         : (pixels > cam.point_size_max ? cam.point_size_max : pixels);
  const float coverage_raw = (pixels * pixels) / (size * size);
  const float coverage = coverage_raw < 1.0f ? coverage_raw : 1.0f;
  // Where the shader holds the point (its coverage above saw the exact size).
  s.x = held_point_position(s.x);
  s.y = held_point_position(s.y);
  const float held_size = held_point_size(size);
  if (!(held_size > 0.0f)) {  // a zero point-size range draws nothing
    s.visible = false;
    return s;
  }
  s.size = held_size;
  s.inv_half = 2.0f / held_size;
  s.alpha = unorm8_to_float(v.rgba8 >> 24) * coverage;
  return s;
}

PARTICLES_HD int floor_to_int(float v) {
  const int i = static_cast<int>(v);
  return static_cast<float>(i) > v ? i - 1 : i;
}

// Whether pixel p's centre lies within the sprite's half-size of c along one axis, written as
// sprite_weight_at writes that axis's term: a pixel that fails it fails the disc test too (the
// other axis's square only adds), so bounds built from it lose no fragment.
PARTICLES_HD bool axis_covers(float c, float inv_half, int p) {
  const float d = (static_cast<float>(p) + 0.5f - c) * inv_half;
  return d * d <= 1.0f;
}

// The pixels [lo, hi) along one axis whose centres pass axis_covers, clamped to [0, size). The
// estimate from the half-size is within a pixel of the edge (both are a few float roundings from
// the exact edge); the steps from it use axis_covers itself, so the bounds are exactly the pixels
// the disc test can take: no fragment is missed, and no tile is listed for a sprite that only a
// widened bound would reach.
PARTICLES_HD void covered_span(float c, float inv_half, float half, int size, int& lo, int& hi) {
  int first = floor_to_int(c - half - 0.5f);
  if (axis_covers(c, inv_half, first - 1)) --first;
  while (!axis_covers(c, inv_half, first) && first <= floor_to_int(c)) ++first;
  int last = floor_to_int(c + half - 0.5f);
  if (axis_covers(c, inv_half, last + 1)) ++last;
  while (!axis_covers(c, inv_half, last) && last >= floor_to_int(c) - 1) --last;
  lo = first < 0 ? 0 : first;
  hi = last + 1 > size ? size : last + 1;
}

PARTICLES_HD PixelBounds sprite_pixel_bounds(const ProjectedSprite& s, int width, int height) {
  PixelBounds b;
  if (!s.visible) return b;
  // Positions are far inside int range once clipped (|x| <= width).
  const float half = 1.0f / s.inv_half;  // from inv_half, so every caller gets the same bounds
  covered_span(s.x, s.inv_half, half, width, b.x0, b.x1);
  covered_span(s.y, s.inv_half, half, height, b.y0, b.y1);
  return b;
}

// GLSL's smoothstep with the reciprocal of its edges' span given: a multiply where GLSL divides
// (the result differs from the division by an ulp or so, far below what GL's own arithmetic
// leaves; both of the compositor's backends multiply, so they agree bit for bit).
PARTICLES_HD float smoothstep_glsl(float edge0, float inv_span, float x) {
  float t = (x - edge0) * inv_span;
  t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
  return t * t * (3.0f - 2.0f * t);
}

// particle.frag's soft disc at the centre of pixel (px, py) for a sprite at window position
// (x, y) with inv_half = 2 / size: the weight in [0, 1] that scales the sprite's alpha, or a
// negative value where the fragment is discarded (outside the disc).
PARTICLES_HD float sprite_weight_at(float x, float y, float inv_half, int px, int py) {
  const float dx = (static_cast<float>(px) + 0.5f - x) * inv_half;
  const float dy = (static_cast<float>(py) + 0.5f - y) * inv_half;
  const float r2 = dx * dx + dy * dy;
  if (r2 > 1.0f) return -1.0f;
  const float r = sqrtf(r2);
  const float core = 1.0f - smoothstep_glsl(0.2f, 1.0f / (0.55f - 0.2f), r);
  const float halo = (1.0f - r2) * (1.0f - r2);
  return core + (1.0f - core) * 0.45f * halo;
}

PARTICLES_HD float sprite_weight(const ProjectedSprite& s, int px, int py) {
  return sprite_weight_at(s.x, s.y, s.inv_half, px, py);
}

}  // namespace particles
