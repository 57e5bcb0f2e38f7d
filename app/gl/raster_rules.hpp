#pragma once
// Which RasterRules (core/composite/sprite.hpp) the current context's GL follows: chosen values
// are stored, blended and rasterized as points once, read back, and each rule is the candidate
// that reproduces the most samples (every one of them, on the GLs measured so far). The compositor
// follows the measured rules so that its image is the one this GL draws.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/composite/sprite.hpp"

namespace particles::gl {

// side x side samples: float fragments (premultiplied RGBA, rows bottom first) written by a
// full-screen pass over RGBA8 destinations, once stored (blending off) and once blended "over".
struct BlendSamples {
  int side = 0;
  std::vector<float> source;  // 4 floats a sample, half of the alphas below 0.05
  std::vector<std::uint32_t> destination, stored, blended;
};
BlendSamples draw_blend_samples(int side, std::uint32_t seed);

// Points of sizes 1-56 px at random sub-pixel positions, one in each cell x cell square of a
// side x side RGBA32F target, drawn with `fragment_shader` (a file in the shader folder).
struct PointSamples {
  int side = 0, cell = 0;
  std::vector<float> window;  // x, y, size a point: the compositor's viewport transform
  std::vector<float> pixels;  // RGBA32F, rows bottom first; -1 where no fragment
};
PointSamples draw_point_samples(int side, int cell, std::uint32_t seed,
                                const char* fragment_shader = "raster_rules_point_coord.frag");

// How many sample channels a rule gets wrong.
std::size_t store_mismatches(const BlendSamples& samples, Unorm8Store store);
std::size_t blend_mismatches(const BlendSamples& samples, Unorm8Store store, BlendProduct product);
// Fragments drawn by only one of GL and `rules`' point, plus fragments whose gl_PointCoord is
// more than 1e-3 from the one `rules` gives (samples drawn with raster_rules_point_coord.frag).
std::size_t point_mismatches(const PointSamples& samples, const RasterRules& rules);

struct MeasuredRasterRules {
  RasterRules rules;
  std::size_t mismatches = 0;  // samples the chosen rules get wrong (0: all reproduced)
  std::string summary;         // the rules in words, for logs and test output
};
MeasuredRasterRules measure_raster_rules();

}  // namespace particles::gl
