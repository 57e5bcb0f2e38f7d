#pragma once
// The CPU twin of stochastic transparency (core/composite/stochastic_transparency.hpp): the exact
// compositor's sprites (core/composite/sprite.hpp), in whatever order they come, no sort, each
// pixel's S samples depth-tested on all cores. The coins hash the particle's index, so any order
// of the same sprites keeps the same samples (the plain resolve's image bit for bit, the
// alpha-corrected one's up to the rounding of its revealage product), and a CUDA kernel drawing
// the same coins can answer to it exactly.
#include <cstdint>
#include <span>
#include <vector>

#include "core/composite/composite_image.hpp"
#include "core/composite/cpu_sprite_bands.hpp"
#include "core/composite/pixel.hpp"
#include "core/composite/sprite.hpp"
#include "core/composite/stochastic_transparency.hpp"
#include "core/particle.hpp"

namespace particles {

struct StochasticSettings {
  int samples = 8;               // per pixel, 1 to kStochasticMaxSamples
  std::uint32_t seed = 0;        // the frame's seed (stochastic_frame_seed for a still sequence)
  bool alpha_correction = true;  // the total opacity exact (the default; false: plain mean)
};

class CpuStochastic : public BandCompositor {
 public:
  // threads: 0 takes every core.
  explicit CpuStochastic(unsigned threads = 0) : BandCompositor(threads) {}

  // `out` (resized to the camera's viewport) becomes the sprites vertices[order[0]],
  // vertices[order[1]], ... over `background` (premultiplied), by `settings`; the order changes
  // no sample. `sprite_scales`: empty (every sprite the camera's size), or one per vertex. Inputs
  // are checked as CpuCompositor checks them, and a sample count outside [1, 16] is refused
  // (std::invalid_argument).
  void composite(std::span<const ParticleVertex> vertices, std::span<const std::uint32_t> order,
                 const SpriteCamera& camera, const PixelF& background,
                 const StochasticSettings& settings, CompositeImage& out,
                 std::span<const float> sprite_scales = {});

 private:
  std::vector<std::vector<StochasticSample>> band_samples_;  // per band: S per pixel
  std::vector<std::vector<float>> band_revealage_;           // per band: one per pixel
};

// Still frames accumulated (running_average per pixel): `average` becomes the mean of frames
// 0..frame_index given the mean of the frames before and frame `frame_index`; frame 0 replaces
// it. A frame of another size than the average is refused (std::invalid_argument).
void accumulate_frame(CompositeImage& average, const CompositeImage& frame,
                      std::uint32_t frame_index);

}  // namespace particles
