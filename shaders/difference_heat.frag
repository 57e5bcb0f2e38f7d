// The comparison view's heat map: the same integer arithmetic as difference_heat in
// core/composite/difference_heat.hpp, on the two orders' images of one frame (float render
// targets of the output's size), so that GL's heat map equals the composite renderer's bit for
// bit. Each texel becomes bytes first exactly as unorm8_of (core/composite/pixel.hpp) makes them:
// the same bytes a screenshot of either image would hold.
layout(binding = 0) uniform sampler2D u_exact;
layout(binding = 1) uniform sampler2D u_drawn;

layout(location = 0) out vec4 o_color;

// Clamped to [0, 1], then rounded to nearest with ties to even; NaN to 0 as unorm8_of makes it
// (clamp leaves NaN undefined, so it is caught first).
ivec3 bytes_of(vec4 texel) {
  const vec3 c = mix(clamp(texel.rgb, 0.0, 1.0), vec3(0.0), isnan(texel.rgb));
  return ivec3(roundEven(c * 255.0));
}

void main() {
  const ivec2 at = ivec2(gl_FragCoord.xy);
  const ivec3 exact = bytes_of(texelFetch(u_exact, at, 0));
  const ivec3 drawn = bytes_of(texelFetch(u_drawn, at, 0));
  const ivec3 d = abs(exact - drawn);
  const int difference = max(d.r, max(d.g, d.b));
  ivec3 rgb;
  if (difference == 0) {
    rgb = exact >> 2;
  } else {
    const int v = 3 * min(255, 48 + 4 * difference);
    rgb = clamp(ivec3(v, v - 255, v - 510), 0, 255);
  }
  o_color = vec4(vec3(rgb) / 255.0, 1.0);
}
