// The colour of a particle from its state and the scene model, the GLSL twin of model_color in
// core/scene_models.hpp (the render tests check the two agree): the frame writes only the state,
// and each vertex works its colour out here. Included after layout.h.

uniform int u_model;              // PARTICLE_MODEL_GALAXY or PARTICLE_MODEL_FOUNTAIN
uniform vec4 u_color_inner;       // straight alpha: galaxy core / fountain birth
uniform vec4 u_color_outer;       // galaxy rim / fountain death
uniform float u_galaxy_radius;    // the disc's outer radius
uniform float u_fountain_lifetime;  // seconds

// core/hash.hpp's hash_u32 and unit_float: unsigned arithmetic wraps in GLSL as in C++.
uint hash_u32(uint x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

float unit_float(uint h) {
  return float(h >> 8) * (1.0 / 16777216.0);
}

// Written as core/vec3.hpp's lerp, not GLSL's mix, so that both round alike.
vec4 lerp4(vec4 a, vec4 b, float t) {
  return a + (b - a) * t;
}

vec4 particle_color(vec3 position, float age, uint seed) {
  vec4 c;
  if (u_model == PARTICLE_MODEL_GALAXY) {
    float r = sqrt(position.x * position.x + position.z * position.z);
    c = lerp4(u_color_inner, u_color_outer, clamp(r / u_galaxy_radius, 0.0, 1.0));
    float brightness = 0.65 + 0.35 * unit_float(hash_u32(seed));
    c.rgb *= brightness;
  } else {
    float t = clamp(age / u_fountain_lifetime, 0.0, 1.0);
    c = lerp4(u_color_inner, u_color_outer, t);
    c.a *= t > 0.8 ? (1.0 - t) * 5.0 : 1.0;  // dissolve over the last fifth
  }
  // 8 bits a channel, rounded as pack_rgba8 did when the colour was stored with the vertex.
  return floor(clamp(c, 0.0, 1.0) * 255.0 + 0.5) / 255.0;
}
