#pragma once
// The renderers: how a frame's sorted particles become an image. One table, kRenderers, says for
// each its name (command line, bench, soak and scene files, HUD, reports), a few words for help
// texts, how it makes its image and which backends implement it. The HUD, the R key, --help,
// --renderer, the bench's and soak's --renderers and their files all read this table, so a
// renderer added here is listed, chosen and cycled everywhere (docs/architecture.md, "The
// renderers", lists the other places a new renderer touches).
//
// Today: GL rasterization of one point sprite per particle (the reference), and the tile
// compositor (CUDA kernels on the CUDA backend, its threaded CPU twin on the CPU backend) writing
// the image that GL then presents; both blend the same sprites in the same draw order
// (core/composite/sprite.hpp). Beside them, on the CPU backend only for now, two renderers that
// need no sort: weighted blended OIT and stochastic transparency.
#include <array>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/enum_names.hpp"

namespace particles {

enum class RendererKind { raster, composite, weighted_blended, stochastic };

// How a renderer makes its image. A GL-drawn one draws into the render target after the backend's
// frame (app/gl/renderer.hpp), timed by a GL timer query ("draw"). A composited one is run by the
// backend inside its frame and writes the target's texture (the CPU backend's
// core/composite/compositor.hpp and an upload; the CUDA backend's cuda/composite/
// device_compositor.hpp through interop, inside the frame's one mapping), timed by the backend
// ("composite").
enum class RendererPath { gl_draw, composited };

struct RendererInfo {
  RendererKind kind;
  std::string_view name;
  std::string_view description;  // a few words for help texts: "GL point sprites"
  RendererPath path;
  // Its share of the frame in the HUD's list and graphs.
  std::string_view timed_as;
  // Which backends implement it (the CPU backend's compositor twin, the CUDA backend's kernels).
  bool on_cpu = true;
  bool on_cuda = true;
  // Its image does not depend on the draw order: its error against the exact sorted image is
  // measured whatever the order (the bench, the HUD).
  bool sort_free = false;
};

inline constexpr std::array kRenderers = {
    RendererInfo{RendererKind::raster, "raster", "GL point sprites", RendererPath::gl_draw,
                 "draw (GL)"},
    RendererInfo{RendererKind::composite, "composite", "the tile compositor",
                 RendererPath::composited, "composite"},
    // Sort-free transparency beside the sorted renderers (issue #65): their CPU twins only so far
    // (core/composite/weighted_blended.hpp, stochastic_transparency.hpp).
    RendererInfo{.kind = RendererKind::weighted_blended,
                 .name = "wboit",
                 .description = "weighted blended OIT, no sort",
                 .path = RendererPath::composited,
                 .timed_as = "composite",
                 .on_cuda = false,
                 .sort_free = true},
    RendererInfo{.kind = RendererKind::stochastic,
                 .name = "stochastic",
                 .description = "stochastic transparency, 8 samples a pixel, no sort",
                 .path = RendererPath::composited,
                 .timed_as = "composite",
                 .on_cuda = false,
                 .sort_free = true},
};
inline constexpr std::size_t kRendererCount = kRenderers.size();

// The reference of the image error (core/pixels_off.hpp) on both backends: the tile compositor's
// image of the frame in the exact order. What it is compared with is what the viewer sees: a
// composited renderer's own image (so a sort-free renderer's error is its picture against the
// sorted one), and for the GL-drawn raster renderer the tile compositor's image in the drawn
// order, which equals GL's within 2/255 (composite_tests).
inline constexpr RendererKind kPixelsOffRenderer = RendererKind::composite;

inline constexpr EnumNames<RendererKind, kRendererCount> kRendererNames =
    names_of_rows<&RendererInfo::kind>(kRenderers);

inline constexpr std::array<RendererKind, kRendererCount> kAllRenderers = values_of(kRendererNames);

// The table's row of `r`, and its place in the table (for arrays indexed by renderer).
constexpr std::size_t renderer_index(RendererKind r) {
  for (std::size_t i = 0; i < kRendererCount; ++i) {
    if (kRenderers[i].kind == r) return i;
  }
  return 0;  // unreachable for a value of the enum: the table has every one (tested)
}
constexpr const RendererInfo& renderer_info(RendererKind r) {
  return kRenderers[renderer_index(r)];
}

constexpr std::string_view to_string(RendererKind r) {
  return name_of(kRendererNames, r);
}

constexpr std::optional<RendererKind> renderer_from_string(std::string_view name) {
  return value_named(kRendererNames, name);
}

constexpr bool is_composited(RendererKind r) {
  return renderer_info(r).path == RendererPath::composited;
}

// Whether the backend named `backend` ("cpu" or "cuda", Backend::name) implements `r`. Any other
// name implements nothing.
constexpr bool renderer_runs_on(RendererKind r, std::string_view backend) {
  const RendererInfo& info = renderer_info(r);
  return backend == "cpu" ? info.on_cpu : backend == "cuda" ? info.on_cuda : false;
}

// The renderers `backend` implements, in the table's order: what the HUD's renderer list offers.
inline std::vector<RendererKind> renderers_on(std::string_view backend) {
  std::vector<RendererKind> list;
  for (const RendererInfo& r : kRenderers) {
    if (renderer_runs_on(r.kind, backend)) list.push_back(r.kind);
  }
  return list;
}

// The renderer after `r` in the table that `backend` implements, wrapping around (the R key); `r`
// itself when it is the only one.
constexpr RendererKind next_renderer(RendererKind r, std::string_view backend) {
  const std::size_t at = renderer_index(r);
  for (std::size_t step = 1; step < kRendererCount; ++step) {
    const RendererInfo& next = kRenderers[(at + step) % kRendererCount];
    if (renderer_runs_on(next.kind, backend)) return next.kind;
  }
  return r;
}

// Every renderer's name, in the table's order: what --renderer and --renderers check against.
inline std::vector<std::string> renderer_names() {
  return names_of(kRendererNames);
}

// The names joined by `separator`: "raster|composite" for messages, "raster, composite" for help.
inline std::string renderer_names_text(std::string_view separator) {
  std::string text;
  for (const RendererInfo& r : kRenderers) {
    if (!text.empty()) text += separator;
    text += r.name;
  }
  return text;
}

// The renderers `names` name, in their order (the bench's and soak's --renderers). Their command
// lines check the names, but a caller that fills the flags itself may not have: an unknown name
// throws std::runtime_error, "unknown renderer 'x' (raster|composite|...)".
inline std::vector<RendererKind> renderers_named(const std::vector<std::string>& names) {
  std::vector<RendererKind> renderers;
  for (const std::string& name : names) {
    const std::optional<RendererKind> r = renderer_from_string(name);
    if (!r) {
      throw std::runtime_error("unknown renderer '" + name + "' (" + renderer_names_text("|") +
                               ")");
    }
    renderers.push_back(*r);
  }
  return renderers;
}

// Each renderer with its description: "raster (GL point sprites), composite (the tile
// compositor)", for --help.
inline std::string renderer_descriptions() {
  std::string text;
  for (const RendererInfo& r : kRenderers) {
    if (!text.empty()) text += ", ";
    text += std::string(r.name) + " (" + std::string(r.description) + ")";
  }
  return text;
}

}  // namespace particles
