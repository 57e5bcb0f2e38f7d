#include "core/composite/cpu_stochastic.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/composite/front_to_back.hpp"
#include "core/parallel_for.hpp"

namespace particles {

void CpuStochastic::composite(std::span<const ParticleVertex> vertices,
                              std::span<const std::uint32_t> order, const SpriteCamera& camera,
                              const PixelF& background, const StochasticSettings& settings,
                              CompositeImage& out, std::span<const float> sprite_scales) {
  const int samples = settings.samples;
  if (samples < 1 || samples > kStochasticMaxSamples) {
    throw std::invalid_argument("CpuStochastic: " + std::to_string(samples) +
                                " samples a pixel; expected 1 to " +
                                std::to_string(kStochasticMaxSamples));
  }
  project("CpuStochastic", vertices, order, camera, sprite_scales);
  const std::size_t per_pixel = static_cast<std::size_t>(samples);
  band_samples_.resize(static_cast<std::size_t>(bands_.bands));
  band_revealage_.resize(static_cast<std::size_t>(bands_.bands));
  blend_bands(threads_, bands_, out, [&](std::size_t band, BandRows rows) {
    const std::size_t pixels = rows.pixels(out.width);
    std::vector<StochasticSample>& kept = band_samples_[band];
    std::vector<float>& revealage = band_revealage_[band];
    kept.assign(pixels * per_pixel, StochasticSample{});
    revealage.assign(pixels, 1.0f);
    for (const auto& chunk_lists : bands_.lists) {
      for (const std::uint32_t i : chunk_lists[band]) {
        const ProjectedSprite& s = bands_.sprites[i];
        const PixelBounds& b = bands_.bounds[i];
        const std::uint32_t particle = order[i];
        const float depth = bands_.depths[i];
        for (int y = std::max(b.y0, rows.y0); y < std::min(b.y1, rows.y1); ++y) {
          for (int x = b.x0; x < b.x1; ++x) {
            const float w = sprite_weight(s, x, y);
            if (w < 0.0f) continue;
            const float a = s.alpha * w;
            const std::size_t local = rows.local(out.width, x, y);
            const std::uint32_t pixel =
                static_cast<std::uint32_t>(y) * static_cast<std::uint32_t>(out.width) +
                static_cast<std::uint32_t>(x);
            stochastic_take(kept.data() + local * per_pixel, samples,
                            stochastic_fragment_key(settings.seed, particle, pixel), a, depth,
                            particle);
            revealage[local] *= 1.0f - a;
          }
        }
      }
    }
    for (int y = rows.y0; y < rows.y1; ++y) {
      for (int x = 0; x < out.width; ++x) {
        const std::size_t local = rows.local(out.width, x, y);
        StochasticResolve resolve;
        for (std::size_t k = 0; k < per_pixel; ++k) {
          const std::uint32_t p = kept[local * per_pixel + k].sprite;
          if (p != kNoSprite) resolve.add(sprite_color(vertices[p].rgba8));
        }
        out.pixels[static_cast<std::size_t>(y) * out.width + x] =
            settings.alpha_correction
                ? resolve.over_alpha_corrected(background, samples, revealage[local])
                : resolve.over(background, samples);
      }
    }
  });
}

void accumulate_frame(CompositeImage& average, const CompositeImage& frame,
                      std::uint32_t frame_index) {
  if (frame_index == 0) {
    average = frame;
    return;
  }
  if (average.width != frame.width || average.height != frame.height ||
      average.pixels.size() != frame.pixels.size()) {
    throw std::invalid_argument("accumulate_frame: a " + std::to_string(frame.width) + "x" +
                                std::to_string(frame.height) + " frame onto a " +
                                std::to_string(average.width) + "x" +
                                std::to_string(average.height) + " average");
  }
  for (std::size_t i = 0; i < frame.pixels.size(); ++i) {
    average.pixels[i] = running_average(average.pixels[i], frame.pixels[i], frame_index);
  }
}

}  // namespace particles
