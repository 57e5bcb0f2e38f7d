#include "core/cpu_pipeline.hpp"

#include "core/auto_policy.hpp"
#include "core/parallel_for.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <numeric>
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
                        std::span<ParticleVertex> out) {
  parallel_for_chunks(state.size(), parallel_threads(),
                      [&](std::size_t, std::size_t begin, std::size_t end) {
                        for (std::size_t i = begin; i < end; ++i) {
                          out[i] = model_vertex(params, state[i]);
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
                    int bits, const Extents& extents, std::span<std::uint32_t> keys) {
  parallel_for_chunks(
      state.size(), parallel_threads(), [&](std::size_t, std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
          const float depth = view_depth(view, position_of(state[i]));
          keys[i] = mode == KeyMode::exact
                        ? exact_depth_key(depth)
                        : quantized_depth_key(depth, extents.depth_min, extents.depth_max, bits);
        }
      });
}

void cpu_sort_order(std::span<const std::uint32_t> keys, std::span<std::uint32_t> order,
                    SortScratch& scratch) {
  // LSD radix sort of (key, draw index) pairs, a byte of the key a pass: each pass is a stable
  // counting sort, so ties keep the incoming order. A pass whose byte every key shares moves
  // nothing and is skipped (16-bit quantized keys take two passes, not four).
  const std::size_t n = order.size();
  scratch.keys[0].resize(n);
  scratch.keys[1].resize(n);
  scratch.values[0].resize(n);
  scratch.values[1].resize(n);
  std::uint32_t* key_in = scratch.keys[0].data();
  std::uint32_t* value_in = scratch.values[0].data();
  std::uint32_t* key_out = scratch.keys[1].data();
  std::uint32_t* value_out = scratch.values[1].data();
  std::array<std::array<std::size_t, 256>, 4> counts{};
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t k = keys[order[i]];
    key_in[i] = k;
    value_in[i] = order[i];
    for (int d = 0; d < 4; ++d) ++counts[d][(k >> (8 * d)) & 0xffu];
  }
  for (int d = 0; d < 4; ++d) {
    std::array<std::size_t, 256>& count = counts[d];
    if (std::find(count.begin(), count.end(), n) != count.end()) continue;  // one bucket
    std::size_t at = 0;
    for (std::size_t& c : count) at += std::exchange(c, at);  // exclusive prefix sums
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t to = count[(key_in[i] >> (8 * d)) & 0xffu]++;
      key_out[to] = key_in[i];
      value_out[to] = value_in[i];
    }
    std::swap(key_in, key_out);
    std::swap(value_in, value_out);
  }
  std::copy(value_in, value_in + n, order.begin());
}

std::uint64_t cpu_count_descents(std::span<const std::uint32_t> keys,
                                 std::span<const std::uint32_t> order) {
  std::uint64_t descents = 0;
  for (std::size_t i = 1; i < order.size(); ++i) {
    descents += keys[order[i - 1]] > keys[order[i]] ? 1 : 0;
  }
  return descents;
}

std::uint64_t cpu_count_strided_descents(std::span<const std::uint32_t> keys,
                                         std::span<const std::uint32_t> order,
                                         std::uint32_t stride) {
  std::uint64_t descents = 0;
  for (std::size_t i = 0; i + stride < order.size(); ++i) {
    descents += keys[order[i]] > keys[order[i + stride]] ? 1 : 0;
  }
  return descents;
}

void CpuPipeline::reset(const ModelParams& params, std::uint32_t count) {
  params_ = params;
  state_.resize(count);
  for (std::uint32_t i = 0; i < count; ++i) state_[i] = model_init(params, i);
  vertices_.resize(count);
  keys_.resize(count);
  order_.resize(count);
  std::iota(order_.begin(), order_.end(), 0u);
  frame_ = 0;
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

FrameInfo CpuPipeline::run_frame(const FrameSettings& settings) {
  FrameInfo info;
  info.stages.frame = frame_++;
  StageClock clock(info.stages);
  cpu_simulate(params_, state_, settings.dt);
  clock.lap(Stage::simulate);
  info.extents = cpu_extents(state_, settings.view);
  clock.lap(Stage::extents);
  cpu_depth_keys(state_, settings.view, settings.key_mode, settings.key_bits, info.extents, keys_);
  clock.lap(Stage::keys);
  if (!settings.sort) {
    std::iota(order_.begin(), order_.end(), 0u);
    info.path = SortPath::unsorted;
  } else if (settings.algorithm == Algorithm::automatic) {
    // Start from last frame's order: ties keep it (no flicker) and a coherent scene is nearly
    // sorted already.
    // The CPU sorts every path the same way; it reports what the GPU policy would choose.
    info.path = choose_auto_path(
        cpu_count_descents(keys_, order_) == 0 ? 0u : 1u,
        cpu_count_strided_descents(keys_, order_, kAutoProbeStride) == 0 ? 0u : 1u);
    if (info.path != SortPath::skipped_sorted) cpu_sort_order(keys_, order_, scratch_);
  } else {
    std::iota(order_.begin(), order_.end(), 0u);
    cpu_sort_order(keys_, order_, scratch_);
    info.path = SortPath::full;
  }
  clock.lap(Stage::sort);
  // The CPU backend writes the order in place while sorting; this stage is the vertex write
  // that the GPU fuses into simulate, kept here so both report the same five stages.
  cpu_write_vertices(params_, state_, vertices_);
  clock.lap(Stage::order);
  info.stages.span_ms = info.stages.total();  // the host clock costs nothing: every stage is timed
  return info;
}

}  // namespace particles
