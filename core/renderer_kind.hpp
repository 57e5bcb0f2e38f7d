#pragma once
// How a frame's sorted particles become an image: GL rasterization of one point sprite per
// particle (the reference), or the tile compositor (CUDA kernels on the CUDA backend, its
// threaded CPU twin on the CPU backend) writing the image that GL then presents. Both blend the
// same sprites in the same draw order (core/sprite.hpp).
#include <array>
#include <optional>
#include <string_view>

namespace particles {

enum class RendererKind { raster, composite };

inline constexpr std::array<RendererKind, 2> kAllRenderers = {RendererKind::raster,
                                                              RendererKind::composite};

constexpr std::string_view to_string(RendererKind r) {
  return r == RendererKind::raster ? "raster" : "composite";
}

constexpr std::optional<RendererKind> renderer_from_string(std::string_view name) {
  for (RendererKind r : kAllRenderers) {
    if (to_string(r) == name) return r;
  }
  return std::nullopt;
}

}  // namespace particles
