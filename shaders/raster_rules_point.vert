// Raster rules (app/gl/raster_rules.cpp, bench/raster_rules_probe): a point at a given clip-space
// position with a given size and nothing else, so that the rasterizer's own hold on the point is
// all that is measured. The loader prepends #version 450 core.
layout(location = 0) in vec4 a_position;  // clip space, w = 1
layout(location = 1) in float a_size;     // pixels

void main() {
  gl_Position = a_position;
  gl_PointSize = a_size;
}
