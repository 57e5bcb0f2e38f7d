#pragma once
// The CPU backend's frame: the same five steps as the CUDA pipeline (simulate, extents, keys,
// sort, order), in plain C++ over the shared scene math. It is what CI renders with and the
// oracle the GPU stages are tested against.
#include <cstdint>
#include <span>
#include <vector>

#include "core/auto_policy.hpp"
#include "core/cpu_descents.hpp"
#include "core/cpu_radix_sort.hpp"
#include "core/frame_types.hpp"
#include "core/particle.hpp"
#include "core/scene_desc.hpp"

namespace particles {

class CpuPipeline {
 public:
  // A points scene's cloud is copied (core/point_cloud.hpp): `params` need not outlive the reset.
  void reset(const ModelParams& params, std::uint32_t count);

  // Runs one frame and leaves vertices() and order() ready for upload.
  FrameInfo run_frame(const FrameSettings& settings);

  std::uint32_t count() const { return static_cast<std::uint32_t>(state_.size()); }
  std::span<const ParticleState> state() const { return state_; }
  std::span<const ParticleVertex> vertices() const { return vertices_; }
  // Each particle's sprite scale (model_sprite_scale), by particle index; empty for a model whose
  // sprites all have the scene's size (model_scales_sprites).
  std::span<const float> sprite_scales() const { return sprite_scales_; }
  std::span<const std::uint32_t> order() const { return order_; }
  std::span<const std::uint32_t> keys() const { return keys_; }  // by particle index
  // The exact order of the particles as they are now, seen through `view`: exact view-depth
  // keys stably sorted from the identity, what DrawOrder::exact with exact keys draws (the
  // comparison view's left half).
  std::span<const std::uint32_t> exact_order(const DepthFrame& view);

  // Whether auto's schedule counts the frames' spans (core/auto_policy.hpp): on in the product;
  // off (the default), auto's paths follow from the frames alone, as its tests need.
  void set_auto_measures_cost(bool on) { auto_schedule_.set_measures_cost(on); }
  // The stint the last frame ran in: SortPath::radix for a frame of a radix stint (sorted from the
  // identity, so its ties are in index order), SortPath::unsorted for any other.
  SortPath last_auto_stint() const { return auto_stint_; }

 private:
  // Auto's frame: from last frame's order, or a radix stint's frame.
  SortPath sort_automatic();

  ModelParams params_;
  std::vector<PointRecord> points_;  // the points model's cloud, params_.points.records
  std::int64_t frame_ = 0;
  std::vector<ParticleState> state_;
  std::vector<ParticleVertex> vertices_;
  std::vector<float> sprite_scales_;
  std::vector<std::uint32_t> keys_;
  std::vector<std::uint32_t> order_;
  std::vector<std::uint32_t> error_keys_;  // exact view-depth keys, for the order error
  std::vector<std::uint32_t> exact_order_;
  SortScratch scratch_;
  StaleSchedule stale_;
  AutoSchedule auto_schedule_;
  SortKeys auto_keys_;                        // the keys auto's schedule has seen frames of
  SortPath auto_stint_ = SortPath::unsorted;  // this frame's stint
};

// ---- the individual stages, exposed as the CPU twins of the GPU kernels --------------------

void cpu_simulate(const ModelParams& params, std::span<ParticleState> state, float dt);
// `sprite_scales`: empty, or one per particle, written with model_sprite_scale.
void cpu_write_vertices(const ModelParams& params, std::span<const ParticleState> state,
                        std::span<ParticleVertex> out, std::span<float> sprite_scales = {});
Extents cpu_extents(std::span<const ParticleState> state, const DepthFrame& view);
void cpu_depth_keys(std::span<const ParticleState> state, const DepthFrame& view, KeyMode mode,
                    int bits, const Extents& extents, std::span<std::uint32_t> keys,
                    DepthMetric metric = DepthMetric::view_depth);
// The frame's pass over the particles, equal bit for bit to cpu_simulate, cpu_write_vertices,
// cpu_extents and exact cpu_depth_keys run one after the other (dt 0 leaves the state as it is).
Extents cpu_step_particles(const ModelParams& params, std::span<ParticleState> state, float dt,
                           const DepthFrame& view, std::span<ParticleVertex> vertices,
                           std::span<std::uint32_t> keys, std::span<float> sprite_scales = {});
// Turns the exact keys of cpu_step_particles into quantized ones, as cpu_depth_keys makes them.
void cpu_quantize_keys(const Extents& extents, int bits, std::span<std::uint32_t> keys);
// FrameInfo::order_error of `order`: its descents under exact view-depth keys (exact_keys, by
// particle index), over n - 1.
float cpu_order_error(std::span<const std::uint32_t> exact_keys,
                      std::span<const std::uint32_t> order);

}  // namespace particles
