#include "core/cpu_pipeline.hpp"

#include "core/auto_policy.hpp"
#include "core/cpu_algorithm_sort.hpp"
#include "core/cpu_frame_sort.hpp"
#include "core/parallel_for.hpp"
#include "core/point_cloud.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

namespace particles {

// Every stage but the sort runs over all cores: each particle's work is its own, and the
// extents' chunks fold in index order with min and max, which are exact, so every result equals
// the serial loop's bit for bit.

void cpu_simulate(const ModelParams& params, std::span<ParticleState> state, float dt) {
  if (dt == 0.0f) return;
  parallel_for_chunks(state.size(), parallel_threads(),
                      [&](std::size_t, std::size_t begin, std::size_t end) {
                        for (std::size_t i = begin; i < end; ++i) model_step(params, state[i], dt);
                      });
}

void cpu_write_vertices(const ModelParams& params, std::span<const ParticleState> state,
                        std::span<ParticleVertex> out, std::span<float> sprite_scales) {
  parallel_for_chunks(state.size(), parallel_threads(),
                      [&](std::size_t, std::size_t begin, std::size_t end) {
                        for (std::size_t i = begin; i < end; ++i) {
                          out[i] = model_vertex(params, state[i]);
                          if (!sprite_scales.empty()) {
                            sprite_scales[i] = model_sprite_scale(params, state[i]);
                          }
                        }
                      });
}

Extents cpu_extents(std::span<const ParticleState> state, const DepthFrame& view) {
  const unsigned chunks = parallel_threads();
  std::vector<Extents> partial(chunks);
  parallel_for_chunks(state.size(), chunks, [&](std::size_t c, std::size_t begin, std::size_t end) {
    Extents e;
    for (std::size_t i = begin; i < end; ++i) {
      const Vec3 p = position_of(state[i]);
      extents_add(e, p, view_depth(view, p), speed_of(state[i]));
    }
    partial[c] = e;
  });
  Extents e;
  for (const Extents& p : partial) e = extents_merge(e, p);
  return e;
}

void cpu_depth_keys(std::span<const ParticleState> state, const DepthFrame& view, KeyMode mode,
                    int bits, const Extents& extents, std::span<std::uint32_t> keys,
                    DepthMetric metric) {
  parallel_for_chunks(
      state.size(), parallel_threads(), [&](std::size_t, std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
          const float depth = sort_depth(view, position_of(state[i]), metric);
          keys[i] = mode == KeyMode::exact
                        ? exact_depth_key(depth)
                        : quantized_depth_key(depth, extents.depth_min, extents.depth_max, bits);
        }
      });
}

namespace {

// Model M's vertices (and sprite scales) for particles [begin, end), at most kStepBlock of them:
// the colours first, then their packing in a loop of its own, which the compiler vectorizes.
constexpr std::size_t kStepBlock = 256;

template <Model M>
void write_vertex_block(const ModelParams& params, std::span<const ParticleState> state,
                        std::size_t begin, std::size_t end, std::span<ParticleVertex> vertices,
                        std::span<float> sprite_scales) {
  if constexpr (M == Model::points) {  // colours packed once, when the file was read
    for (std::size_t i = begin; i < end; ++i) vertices[i] = model_vertex_as<M>(params, state[i]);
  } else {
    Color colors[kStepBlock];
    std::uint32_t packed[kStepBlock];
    const std::size_t n = end - begin;
    for (std::size_t k = 0; k < n; ++k) colors[k] = model_color_as<M>(params, state[begin + k]);
    for (std::size_t k = 0; k < n; ++k) {  // pack_rgba8, spelt out so that it inlines
      const Color& c = colors[k];
      packed[k] = unorm8_byte(c.r) | (unorm8_byte(c.g) << 8) | (unorm8_byte(c.b) << 16) |
                  (unorm8_byte(c.a) << 24);
    }
    for (std::size_t k = 0; k < n; ++k) {
      const ParticleState& s = state[begin + k];
      vertices[begin + k] = {s.px, s.py, s.pz, packed[k]};
    }
  }
  if constexpr (model_scales_sprites(M)) {
    for (std::size_t i = begin; i < end; ++i) {
      sprite_scales[i] = model_sprite_scale_as<M>(params, state[i]);
    }
  }
}

}  // namespace

Extents cpu_step_particles(const ModelParams& params, std::span<ParticleState> state, float dt,
                           const DepthFrame& view, std::span<ParticleVertex> vertices,
                           std::span<std::uint32_t> keys, std::span<float> sprite_scales) {
  if (model_scales_sprites(params.model) && sprite_scales.size() != state.size()) {
    throw std::invalid_argument("cpu_step_particles: this model sizes its sprites: " +
                                std::to_string(sprite_scales.size()) + " sprite scales for " +
                                std::to_string(state.size()) + " particles");
  }
  // The model is chosen once per call, as the CUDA kernels are instantiated per model: each
  // model's loops inline its own step and colour.
  return with_model(params.model, [&](auto tag) {
    constexpr Model kModel = decltype(tag)::model;
    const unsigned chunks = parallel_threads();
    std::vector<Extents> partial(chunks);
    parallel_for_chunks(
        state.size(), chunks, [&](std::size_t c, std::size_t begin, std::size_t end) {
          // A block at a time, in loops that each stay in L1: a model that calls libm clobbers
          // the vector registers on every call, so one loop would spill and reload the extents
          // on every particle.
          Extents e;
          for (std::size_t block = begin; block < end; block += kStepBlock) {
            const std::size_t block_end = std::min(end, block + kStepBlock);
            if (dt != 0.0f) {
              for (std::size_t i = block; i < block_end; ++i) {
                model_step_as<kModel>(params, state[i], dt);
              }
            }
            for (std::size_t i = block; i < block_end; ++i) {
              const ParticleState& s = state[i];
              const Vec3 p = position_of(s);
              const float depth = view_depth(view, p);
              extents_add(e, p, depth, speed_of(s));
              keys[i] = exact_depth_key(depth);
            }
            write_vertex_block<kModel>(params, state, block, block_end, vertices, sprite_scales);
          }
          partial[c] = e;
        });
    Extents e;
    for (const Extents& p : partial) e = extents_merge(e, p);
    return e;
  });
}

void cpu_quantize_keys(const Extents& extents, int bits, std::span<std::uint32_t> keys) {
  parallel_for_chunks(keys.size(), parallel_threads(),
                      [&](std::size_t, std::size_t begin, std::size_t end) {
                        for (std::size_t i = begin; i < end; ++i) {
                          keys[i] = quantized_depth_key(depth_of_exact_key(keys[i]),
                                                        extents.depth_min, extents.depth_max, bits);
                        }
                      });
}

float cpu_order_error(std::span<const std::uint32_t> exact_keys,
                      std::span<const std::uint32_t> order) {
  return order_error_of(cpu_count_descents(exact_keys, order), order.size());
}

void CpuPipeline::reset(const ModelParams& params, std::uint32_t count) {
  params_ = params;
  points_.clear();
  if (params.model == Model::points) {
    points_ = points_for_count(params.points, count);
    params_.points.records = points_.data();
    params_.points.record_count = count;
  }
  state_.resize(count);
  for (std::uint32_t i = 0; i < count; ++i) state_[i] = model_init(params_, i);
  vertices_.resize(count);
  sprite_scales_.assign(model_scales_sprites(params.model) ? count : 0u, 1.0f);
  keys_.resize(count);
  order_.resize(count);
  std::iota(order_.begin(), order_.end(), 0u);
  frame_ = 0;
  stale_.reset();
  auto_schedule_.reset();
}

namespace {

// Times consecutive stages of one frame on the host clock.
class StageClock {
 public:
  explicit StageClock(StageTimes& times) : times_(times), last_(Clock::now()) {}
  void lap(Stage stage) {
    const auto now = Clock::now();
    times_.ms[static_cast<int>(stage)] =
        std::chrono::duration<float, std::milli>(now - last_).count();
    last_ = now;
  }

 private:
  using Clock = std::chrono::steady_clock;
  StageTimes& times_;
  Clock::time_point last_;
};

}  // namespace

std::span<const std::uint32_t> CpuPipeline::exact_order(const DepthFrame& view) {
  error_keys_.resize(state_.size());
  cpu_depth_keys(state_, view, KeyMode::exact, 32, Extents{}, error_keys_);
  exact_order_.resize(state_.size());
  std::iota(exact_order_.begin(), exact_order_.end(), 0u);
  cpu_sort_order(error_keys_, exact_order_, scratch_);
  return exact_order_;
}

SortPath CpuPipeline::sort_automatic() {
  if (auto_stint_ == SortPath::radix) {
    // Where auto keeps ending in radix (particles that respawn, a camera that jumps), its gather
    // through last frame's order and its descent count buy nothing: the stint's frames are
    // radix's own, from the identity.
    std::iota(order_.begin(), order_.end(), 0u);
    cpu_sort_order(keys_, order_, scratch_);
    return SortPath::radix;
  }
  // Start from last frame's order: ties keep it (no flicker) and a coherent scene is nearly
  // sorted already. The frame reports the CPU's own path: insertion is its nearly-sorted path,
  // the odd-even sort's place on the GPU, and is named for what it is.
  switch (cpu_sort_from_last_order(keys_, order_, scratch_).path) {
    case FrameSortPath::already_sorted:
      return SortPath::skipped_sorted;
    case FrameSortPath::insertion:
      return SortPath::insertion;
    case FrameSortPath::radix:
      break;
  }
  return SortPath::radix;
}

FrameInfo CpuPipeline::run_frame(const FrameSettings& settings) {
  FrameInfo info;
  info.stages.frame = frame_++;
  StageClock clock(info.stages);
  // One pass steps each particle and makes everything that needs only it, as the CUDA backend's
  // fused kernel does, timed under simulate: the particles are read once a frame, not four times.
  info.extents = cpu_step_particles(params_, state_, settings.dt, settings.view, vertices_, keys_,
                                    sprite_scales_);
  clock.lap(Stage::simulate);
  clock.lap(Stage::extents);
  const SortKeys sort_keys = sort_keys_of(settings);
  const bool exact_view_keys =
      sort_keys.mode == KeyMode::exact && sort_keys.metric == DepthMetric::view_depth;
  if (sort_keys.metric == DepthMetric::eye_distance) {
    cpu_depth_keys(state_, settings.view, KeyMode::exact, 32, info.extents, keys_,
                   DepthMetric::eye_distance);
  } else if (sort_keys.mode == KeyMode::quantized) {
    cpu_quantize_keys(info.extents, sort_keys.bits, keys_);
  }
  clock.lap(Stage::keys);
  info.stages.in_simulate[static_cast<int>(Stage::extents)] = true;
  info.stages.in_simulate[static_cast<int>(Stage::keys)] = exact_view_keys;
  const bool sorts = stale_.sorts(settings.order, settings.order_period);
  // Auto keeps its schedule (stints, costs) only over consecutive sorting frames asked for alike,
  // as the CUDA backend does.
  const bool auto_frame =
      sorts && settings.order != DrawOrder::unsorted && settings.algorithm == Algorithm::automatic;
  if (!auto_frame || sort_keys != auto_keys_) auto_schedule_.reset();
  auto_keys_ = sort_keys;
  auto_stint_ = auto_frame ? auto_schedule_.next_frame() : SortPath::unsorted;
  if (settings.order == DrawOrder::unsorted) {
    std::iota(order_.begin(), order_.end(), 0u);
    info.path = SortPath::unsorted;
  } else if (!sorts) {
    info.path = SortPath::held;  // a stale order between its sorts: order_ is the last sort's
  } else if (auto_frame) {
    info.path = sort_automatic();
  } else {  // a fixed algorithm: its own CPU implementation, from the identity as on CUDA
    std::iota(order_.begin(), order_.end(), 0u);
    info.path = cpu_sort_with(settings.algorithm, keys_, order_, scratch_);
  }
  clock.lap(Stage::sort);
  // The sort writes the order in place and the step wrote the vertices: both backends report the
  // same five stages, and here this one is empty.
  clock.lap(Stage::order);
  info.stages.span_ms = info.stages.total();  // the host clock costs nothing: every stage is timed
  if (auto_frame) auto_schedule_.on_report(auto_stint_, info.path, info.stages.span_ms);
  // After the timed stages: the measure is the HUD's and the bench's, not the frame's work.
  if (order_error_is_zero(settings)) {
    info.order_error = 0.0f;
  } else if (settings.measure_order_error) {
    std::span<const std::uint32_t> exact = keys_;
    if (!exact_view_keys) {  // remade: keys_ holds other keys
      error_keys_.resize(state_.size());
      cpu_depth_keys(state_, settings.view, KeyMode::exact, 32, info.extents, error_keys_);
      exact = error_keys_;
    }
    info.order_error = cpu_order_error(exact, order_);
  }
  return info;
}

}  // namespace particles
