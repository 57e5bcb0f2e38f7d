// Attribute locations and binding slots, shared by the C++ renderer and the GLSL shaders so the
// two can never disagree. This file is valid C++ and valid GLSL: the shader loader inserts it
// where a shader says #include "layout.h" (after #version), and GLSL sees only the #defines.
#ifndef PARTICLES_SHADERS_LAYOUT_H
#define PARTICLES_SHADERS_LAYOUT_H

// Vertex attributes: position and colour from one interleaved ParticleVertex stream; the sprite
// scale from a float buffer of its own, for the models that size their sprites (elsewhere the
// attribute is disabled and reads the constant 1).
#define PARTICLE_ATTRIB_POSITION 0  // vec3 <- ParticleVertex x, y, z
#define PARTICLE_ATTRIB_COLOR 1  // vec4 <- ParticleVertex rgba8, normalized bytes, straight alpha
#define PARTICLE_ATTRIB_SPRITE_SCALE 2  // float <- the sprite scale buffer
#define PARTICLE_VERTEX_BINDING 0       // the VAO's vertex buffer binding index
#define PARTICLE_SCALE_BINDING 1        // the VAO's sprite scale buffer binding index

// Byte layout of ParticleVertex, as the VAO describes it to GL.
#define PARTICLE_VERTEX_STRIDE 16
#define PARTICLE_OFFSET_POSITION 0
#define PARTICLE_OFFSET_COLOR 12

// Fragment output.
#define PARTICLE_FRAG_COLOR 0

#ifdef __cplusplus
#include <cstddef>

#include "core/particle.hpp"
static_assert(sizeof(particles::ParticleVertex) == PARTICLE_VERTEX_STRIDE);
static_assert(offsetof(particles::ParticleVertex, x) == PARTICLE_OFFSET_POSITION);
static_assert(offsetof(particles::ParticleVertex, rgba8) == PARTICLE_OFFSET_COLOR);
#endif

#endif  // PARTICLES_SHADERS_LAYOUT_H
