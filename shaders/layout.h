// Attribute locations and binding slots, shared by the C++ renderer and the GLSL shaders so the
// two can never disagree. This file is valid C++ and valid GLSL: the shader loader inserts it
// where a shader says #include "layout.h" (after #version), and GLSL sees only the #defines.
#ifndef PARTICLES_SHADERS_LAYOUT_H
#define PARTICLES_SHADERS_LAYOUT_H

// Vertex attributes, all read from one stream of ParticleState (the simulation's own state).
#define PARTICLE_ATTRIB_POSITION 0  // vec3  <- ParticleState px, py, pz
#define PARTICLE_ATTRIB_AGE 1       // float <- ParticleState age
#define PARTICLE_ATTRIB_SEED 2      // uint  <- ParticleState seed (an integer attribute)
#define PARTICLE_VERTEX_BINDING 0   // the VAO's vertex buffer binding index

// Byte layout of ParticleState, as the VAO describes it to GL.
#define PARTICLE_VERTEX_STRIDE 32
#define PARTICLE_OFFSET_POSITION 0
#define PARTICLE_OFFSET_AGE 12
#define PARTICLE_OFFSET_SEED 28

// The scene models, as the shader's u_model tells them apart.
#define PARTICLE_MODEL_GALAXY 0
#define PARTICLE_MODEL_FOUNTAIN 1

// Fragment output.
#define PARTICLE_FRAG_COLOR 0

#ifdef __cplusplus
#include <cstddef>

#include "core/particle.hpp"
static_assert(sizeof(particles::ParticleState) == PARTICLE_VERTEX_STRIDE);
static_assert(offsetof(particles::ParticleState, px) == PARTICLE_OFFSET_POSITION);
static_assert(offsetof(particles::ParticleState, age) == PARTICLE_OFFSET_AGE);
static_assert(offsetof(particles::ParticleState, seed) == PARTICLE_OFFSET_SEED);
#endif

#endif  // PARTICLES_SHADERS_LAYOUT_H
