// Raster rules (app/gl/raster_rules.cpp, bench/raster_rules_probe): writes the float texel under
// each pixel unchanged, so that what reaches the framebuffer is exactly the value chosen (stored,
// or blended with what is there).
layout(binding = 0) uniform sampler2D u_source;

layout(location = 0) out vec4 o_color;

void main() {
  o_color = texelFetch(u_source, ivec2(gl_FragCoord.xy), 0);
}
