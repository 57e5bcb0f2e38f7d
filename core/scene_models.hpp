#pragma once
// The scene models, written once for both backends: initial state, one time step, and the
// colour a particle is drawn with. The CUDA kernels and the CPU backend call exactly these; each
// model lives in core/models/<name>.hpp and this header dispatches on ModelParams::model.
#include <cstdint>

#include "core/color.hpp"
#include "core/hash.hpp"
#include "core/host_device.hpp"
#include "core/models/attractor.hpp"
#include "core/models/fireworks.hpp"
#include "core/models/fountain.hpp"
#include "core/models/galaxy.hpp"
#include "core/models/points.hpp"
#include "core/models/shells.hpp"
#include "core/models/smoke.hpp"
#include "core/models/snow.hpp"
#include "core/models/vortex_ring.hpp"
#include "core/particle.hpp"
#include "core/scene_desc.hpp"
#include "core/vec3.hpp"
#include "core/view_depth.hpp"

namespace particles {

PARTICLES_HD ParticleState model_init(const ModelParams& m, std::uint32_t index) {
  const std::uint32_t seed = hash_combine(m.seed, index);
  switch (m.model) {
    case Model::galaxy:
      return galaxy_init(m.galaxy, seed);
    case Model::fountain:
      return fountain_init(m.fountain, seed);
    case Model::smoke:
      return smoke_init(m.smoke, seed);
    case Model::vortex_ring:
      return vortex_init(m.vortex_ring, seed);
    case Model::fireworks:
      return fireworks_init(m, seed);
    case Model::attractor:
      return attractor_init(m.attractor, seed);
    case Model::shells:
      return shells_init(m.shells, seed);
    case Model::snow:
      return snow_init(m.snow, seed);
    case Model::points:
      return points_init(m.points, index);  // no randomness: particle i is point i
  }
  return ParticleState{};
}

// One model's step and colour, chosen at compile time: the CUDA kernels are instantiated per
// model (with_model below), so each keeps its own model's registers instead of the most
// demanding model's (sm_90 build: the galaxy's fused step takes 58 registers a thread on its
// own, and took 127 with every model behind one runtime switch).
template <Model M>
struct ModelTag {
  static constexpr Model model = M;
};

template <Model M>
PARTICLES_HD void model_step_as(const ModelParams& m, ParticleState& s, float dt) {
  if constexpr (M == Model::galaxy) {
    galaxy_step(m.galaxy, s, dt);
  } else if constexpr (M == Model::fountain) {
    fountain_step(m.fountain, s, dt);
  } else if constexpr (M == Model::smoke) {
    smoke_step(m.smoke, s, dt);
  } else if constexpr (M == Model::vortex_ring) {
    vortex_step(m.vortex_ring, s, dt);
  } else if constexpr (M == Model::fireworks) {
    fireworks_step(m, s, dt);
  } else if constexpr (M == Model::attractor) {
    attractor_step(m.attractor, s, dt);
  } else if constexpr (M == Model::shells) {
    shells_step(m.shells, s, dt);
  } else if constexpr (M == Model::snow) {
    snow_step(m.snow, s, dt);
  } else {
    static_assert(M == Model::points);
    points_step(m.points, s, dt);
  }
}

template <Model M>
PARTICLES_HD Color model_color_as(const ModelParams& m, const ParticleState& s) {
  if constexpr (M == Model::galaxy) {
    return galaxy_color(m, s);
  } else if constexpr (M == Model::fountain) {
    return fountain_color(m, s);
  } else if constexpr (M == Model::smoke) {
    return smoke_color(m, s);
  } else if constexpr (M == Model::vortex_ring) {
    return vortex_color(m, s);
  } else if constexpr (M == Model::fireworks) {
    return fireworks_color(m, s);
  } else if constexpr (M == Model::attractor) {
    return attractor_color(m, s);
  } else if constexpr (M == Model::shells) {
    return shells_color(m, s);
  } else if constexpr (M == Model::snow) {
    return snow_color(m, s);
  } else {
    static_assert(M == Model::points);
    return points_color(m, s);
  }
}

template <Model M>
PARTICLES_HD ParticleVertex model_vertex_as(const ModelParams& m, const ParticleState& s) {
  if constexpr (M == Model::points) {
    return {s.px, s.py, s.pz, points_rgba8(m.points, s)};  // packed once, when the file was read
  } else {
    return {s.px, s.py, s.pz, pack_rgba8(model_color_as<M>(m, s))};
  }
}

// Whether a model sizes each particle's sprite itself: its particles then carry a scale of the
// scene's sprite_size (a float per particle beside the vertices, which GL reads as an attribute
// and the compositor reads too); every other model's sprites have the scene's size.
PARTICLES_HD constexpr bool model_scales_sprites(Model m) {
  return m == Model::smoke;
}

template <Model M>
PARTICLES_HD float model_sprite_scale_as(const ModelParams& m, const ParticleState& s) {
  if constexpr (M == Model::smoke) {
    return smoke_sprite_scale(m.smoke, s);
  } else {
    return 1.0f;
  }
}

// Calls f(ModelTag<model>{}) (host code: how a launch picks its kernel instantiation).
template <class F>
decltype(auto) with_model(Model model, F&& f) {
  switch (model) {
    case Model::fountain:
      return f(ModelTag<Model::fountain>{});
    case Model::smoke:
      return f(ModelTag<Model::smoke>{});
    case Model::vortex_ring:
      return f(ModelTag<Model::vortex_ring>{});
    case Model::fireworks:
      return f(ModelTag<Model::fireworks>{});
    case Model::attractor:
      return f(ModelTag<Model::attractor>{});
    case Model::shells:
      return f(ModelTag<Model::shells>{});
    case Model::snow:
      return f(ModelTag<Model::snow>{});
    case Model::points:
      return f(ModelTag<Model::points>{});
    case Model::galaxy:
      break;
  }
  return f(ModelTag<Model::galaxy>{});
}

// The same at run time (the CPU backend, and wherever speed does not matter).
PARTICLES_HD void model_step(const ModelParams& m, ParticleState& s, float dt) {
  switch (m.model) {
    case Model::galaxy:
      return model_step_as<Model::galaxy>(m, s, dt);
    case Model::fountain:
      return model_step_as<Model::fountain>(m, s, dt);
    case Model::smoke:
      return model_step_as<Model::smoke>(m, s, dt);
    case Model::vortex_ring:
      return model_step_as<Model::vortex_ring>(m, s, dt);
    case Model::fireworks:
      return model_step_as<Model::fireworks>(m, s, dt);
    case Model::attractor:
      return model_step_as<Model::attractor>(m, s, dt);
    case Model::shells:
      return model_step_as<Model::shells>(m, s, dt);
    case Model::snow:
      return model_step_as<Model::snow>(m, s, dt);
    case Model::points:
      return model_step_as<Model::points>(m, s, dt);
  }
}

PARTICLES_HD Color model_color(const ModelParams& m, const ParticleState& s) {
  switch (m.model) {
    case Model::galaxy:
      return model_color_as<Model::galaxy>(m, s);
    case Model::fountain:
      return model_color_as<Model::fountain>(m, s);
    case Model::smoke:
      return model_color_as<Model::smoke>(m, s);
    case Model::vortex_ring:
      return model_color_as<Model::vortex_ring>(m, s);
    case Model::fireworks:
      return model_color_as<Model::fireworks>(m, s);
    case Model::attractor:
      return model_color_as<Model::attractor>(m, s);
    case Model::shells:
      return model_color_as<Model::shells>(m, s);
    case Model::snow:
      return model_color_as<Model::snow>(m, s);
    case Model::points:
      return model_color_as<Model::points>(m, s);
  }
  return Color{};
}

PARTICLES_HD ParticleVertex model_vertex(const ModelParams& m, const ParticleState& s) {
  if (m.model == Model::points) return model_vertex_as<Model::points>(m, s);
  return {s.px, s.py, s.pz, pack_rgba8(model_color(m, s))};
}

PARTICLES_HD float model_sprite_scale(const ModelParams& m, const ParticleState& s) {
  return m.model == Model::smoke ? model_sprite_scale_as<Model::smoke>(m, s) : 1.0f;
}

PARTICLES_HD Vec3 position_of(const ParticleState& s) {
  return {s.px, s.py, s.pz};
}
PARTICLES_HD float speed_of(const ParticleState& s) {
  return sqrtf(s.vx * s.vx + s.vy * s.vy + s.vz * s.vz);
}

}  // namespace particles
