// Raster rules (app/gl/raster_rules.cpp, bench/raster_rules_probe): each fragment's gl_PointCoord
// and window position, as floats.
layout(location = 0) out vec4 o_color;

void main() {
  o_color = vec4(gl_PointCoord, gl_FragCoord.xy);
}
