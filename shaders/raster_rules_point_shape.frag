// bench/raster_rules_probe: particle.frag's disc profile with its intermediate values, as floats,
// so that its arithmetic on this GL can be compared with the compositor's on the same
// gl_PointCoord.
layout(location = 0) out vec4 o_color;

void main() {
  vec2 p = gl_PointCoord * 2.0 - 1.0;
  float r2 = dot(p, p);
  if (r2 > 1.0) discard;
  float r = sqrt(r2);
  float core = 1.0 - smoothstep(0.2, 0.55, r);
  float halo = (1.0 - r2) * (1.0 - r2);
  float shape = core + (1.0 - core) * 0.45 * halo;
  o_color = vec4(r2, r, core, shape);
}
