#pragma once
// The models' names in scene files (model.type and the [model.<name>] tables), tests and
// messages: one list.
#include <array>
#include <optional>
#include <string_view>

#include "core/enum_names.hpp"
#include "core/models/model_params.hpp"

namespace particles {

inline constexpr EnumNames<Model, 9> kModelNames = {{{Model::galaxy, "galaxy"},
                                                     {Model::fountain, "fountain"},
                                                     {Model::smoke, "smoke"},
                                                     {Model::vortex_ring, "vortex_ring"},
                                                     {Model::fireworks, "fireworks"},
                                                     {Model::attractor, "attractor"},
                                                     {Model::shells, "shells"},
                                                     {Model::snow, "snow"},
                                                     {Model::points, "points"}}};

inline constexpr std::array<Model, 9> kAllModels = values_of(kModelNames);

constexpr std::string_view to_string(Model m) {
  return name_of(kModelNames, m);
}

// The models written in exact arithmetic only (core/models/exact_math.hpp), which both backends
// step bit for bit; the galaxy and the fountain use the C library's sinf and friends.
constexpr bool model_is_exact(Model m) {
  return m != Model::galaxy && m != Model::fountain;
}

constexpr std::optional<Model> model_from_string(std::string_view name) {
  return value_named(kModelNames, name);
}

}  // namespace particles
