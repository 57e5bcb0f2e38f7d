#pragma once
// How a frame's sorted particles become an image: GL rasterization of one point sprite per
// particle (the reference), or the tile compositor (CUDA kernels on the CUDA backend, its
// threaded CPU twin on the CPU backend) writing the image that GL then presents. Both blend the
// same sprites in the same draw order (core/sprite.hpp).
#include <array>
#include <optional>
#include <string_view>

#include "core/enum_names.hpp"

namespace particles {

enum class RendererKind { raster, composite };

inline constexpr EnumNames<RendererKind, 2> kRendererNames = {
    {{RendererKind::raster, "raster"}, {RendererKind::composite, "composite"}}};

inline constexpr std::array<RendererKind, 2> kAllRenderers = values_of(kRendererNames);

constexpr std::string_view to_string(RendererKind r) {
  return name_of(kRendererNames, r);
}

constexpr std::optional<RendererKind> renderer_from_string(std::string_view name) {
  return value_named(kRendererNames, name);
}

}  // namespace particles
