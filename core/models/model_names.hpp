#pragma once
// The models' names in scene files (model.type and the [model.<name>] tables), tests and
// messages: one list.
#include <array>
#include <optional>
#include <string_view>

#include "core/models/model_params.hpp"

namespace particles {

inline constexpr std::array<Model, 9> kAllModels = {
    Model::galaxy,    Model::fountain, Model::smoke, Model::vortex_ring, Model::fireworks,
    Model::attractor, Model::shells,   Model::snow,  Model::points};

constexpr std::string_view to_string(Model m) {
  switch (m) {
    case Model::galaxy:
      return "galaxy";
    case Model::fountain:
      return "fountain";
    case Model::smoke:
      return "smoke";
    case Model::vortex_ring:
      return "vortex_ring";
    case Model::fireworks:
      return "fireworks";
    case Model::attractor:
      return "attractor";
    case Model::shells:
      return "shells";
    case Model::snow:
      return "snow";
    case Model::points:
      return "points";
  }
  return "?";
}

// The models written in exact arithmetic only (core/models/exact_math.hpp), which both backends
// step bit for bit; the galaxy and the fountain use the C library's sinf and friends.
constexpr bool model_is_exact(Model m) {
  return m != Model::galaxy && m != Model::fountain;
}

constexpr std::optional<Model> model_from_string(std::string_view name) {
  for (Model m : kAllModels) {
    if (to_string(m) == name) return m;
  }
  return std::nullopt;
}

}  // namespace particles
