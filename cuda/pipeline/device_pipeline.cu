#include "cuda/pipeline/device_pipeline.hpp"

#include <algorithm>
#include <cstddef>
#include <stdexcept>

#include "core/auto_policy.hpp"
#include "core/point_cloud.hpp"
#include "core/scene_models.hpp"
#include "cuda/common/check.hpp"
#include "cuda/common/launch_grid.hpp"
#include "cuda/sort/copy_kernels.cuh"
#include "cuda/sort/sortedness.hpp"
#include "cuda/stages/keys/depth_keys.hpp"
#include "cuda/stages/reduce/extents_block.cuh"
#include "cuda/stages/reduce/extents_reduce.hpp"
#include "cuda/stages/sim/simulate.hpp"
#include "cuda/stages/sim/step_fused.hpp"

namespace particles::cuda {
namespace {

constexpr int kThreads = 256;

unsigned grid_for(std::uint32_t count) {
  return detail::grid_stride_blocks(count, kThreads, 32);
}

}  // namespace

DevicePipeline::DevicePipeline()
    : stream_(Stream::create()),
      extents_workspace_(extents_workspace_bytes()),
      key_floor_(1),
      constants_(1),
      report_(1),
      host_constants_(2),
      host_reports_(2),
      done_{Event::create(), Event::create()},
      graphs_(stream_.get(),
              [this](const FramePlan& plan, int slot, int timing_slot, bool stages,
                     MarkMap& marks) { record_frame(plan, slot, timing_slot, stages, marks); }) {
  CUDA_CHECK(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, kPipelineL2FetchBytes));
  init_extents_workspace(extents_workspace_.data(), stream_.get());
  CUDA_CHECK(cudaMemsetAsync(report_.data(), 0, sizeof(FrameReport), stream_.get()));
  CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
}

DevicePipeline::~DevicePipeline() {
  if (stream_) cudaStreamSynchronize(stream_.get());  // no throw: best effort before the frees
}

void DevicePipeline::synchronize() const {
  CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
}

void DevicePipeline::reset(const ModelParams& params, std::uint32_t count) {
  synchronize();    // frames in flight still use the old buffers
  graphs_.clear();  // they hold the old buffers' addresses
  slot_frame_ = {-1, -1};
  params_ = params;
  count_ = count;
  frame_ = 0;
  if (params.model == Model::points) {
    const std::vector<PointRecord> points = points_for_count(params.points, count);
    points_.resize(points.size());
    CUDA_CHECK(
        cudaMemcpy(points_.data(), points.data(), points_.size_bytes(), cudaMemcpyHostToDevice));
    params_.points.records = points_.data();
    params_.points.record_count = count;
  } else {
    points_.resize(0);
  }
  for (auto& state : states_) state.resize(count);
  keys_.resize(count);
  order_.resize(count);
  extents_partials_.resize(std::size_t{fused_step_blocks(params.model, count)} *
                           detail::kCombineWords);
  order_is_last_frames_ = true;  // the identity, below
  stale_.reset();
  error_keys_.resize(0);  // made again at this count by the first frame that measures
  exact_keys_.resize(0);  // and by the first that asks for the exact order
  stale_order_.resize(0);
  last_reported_frame_ = -1;
  if (count > capacity_) {
    sorters_.clear();
    capacity_ = count;
  }
  auto_.reset(capacity_, stream_.get());
  make_sorters();  // now, so that switching algorithm later allocates nothing
  launch_init(params_, states_[0].data(), count, stream_.get());
  write_identity_order();
  synchronize();
}

void DevicePipeline::write_identity_order() {
  if (count_ == 0) return;
  detail::identity_values_kernel<<<grid_for(count_), kThreads, 0, stream_.get()>>>(
      order_.data(), nullptr, count_, nullptr);
  CUDA_CHECK_LAUNCH("identity_values_kernel", stream_.get());
}

Sorter& DevicePipeline::sorter(Algorithm algorithm) {
  auto& slot = sorters_[algorithm];
  if (!slot) slot = make_sorter(algorithm, capacity_);  // allocates: never during a capture
  return *slot;
}

void DevicePipeline::make_sorters() {
  if (capacity_ == 0) return;
  for (Algorithm a : kAllAlgorithms) {
    if (a != Algorithm::automatic) sorter(a);
  }
}

StageTimes DevicePipeline::drain_stage_times() {
  synchronize();
  if (frame_ == 0) return {};
  return stage_times_of(static_cast<int>((frame_ - 1) & 1u));
}

FrameInfo DevicePipeline::run_frame(const FrameSettings& settings, const FrameTargets& targets) {
  const bool sorts = stale_.sorts(settings.order, settings.order_period);
  const FramePlan requested = plan_frame(settings, {.sorts = sorts});
  if (count_ == 0) {
    FrameInfo info;
    info.path = requested.sort == SortStage::held       ? SortPath::held
                : requested.sort == SortStage::unsorted ? SortPath::unsorted
                                                        : SortPath::full;
    if (settings.measure_order_error || order_error_is_zero(settings)) info.order_error = 0.0f;
    return info;
  }
  if (targets.vertices == nullptr || targets.order == nullptr ||
      (model_scales_sprites(params_.model) && targets.sprite_scales == nullptr)) {
    throw std::invalid_argument("DevicePipeline::run_frame: null frame target");
  }
  if (settings.order == DrawOrder::stale && stale_order_.size() != count_) {
    // Once per reset (which dropped every graph): no hold graph has read the old buffer.
    synchronize();
    stale_order_.resize(count_);
  }
  const SortPath stint = auto_.next_stint(requested);
  const FramePlan plan = stint == SortPath::unsorted
                             ? requested
                             : plan_frame(settings, {.sorts = sorts, .stint = stint});
  PlanGraphs& graphs = graphs_.ensure(plan);

  const int slot = static_cast<int>(frame_ & 1u);
  if (plan.automatic() && !order_is_last_frames_) {
    // Back from another frame (a stint, another algorithm): last frame's order is the layout
    // itself, and last auto frame's splitters are stale, so this frame does not try the
    // partition sort and the next one does.
    write_identity_order();
    auto_.restart_order(stream_.get());
  }
  order_is_last_frames_ = plan.automatic();
  host_constants_.data()[slot] = {settings.dt, settings.view, targets.vertices, targets.order,
                                  targets.sprite_scales};
  CUDA_CHECK(cudaMemcpyAsync(constants_.data(), host_constants_.data() + slot,
                             sizeof(FrameConstants), cudaMemcpyHostToDevice, stream_.get()));
  // Counted from the reset, so that frame 0 and every period-th one after time their stages.
  const std::int64_t period = std::max(1, settings.stage_sample_period);
  const bool stages = !graphs.timed || static_cast<std::int64_t>(frame_) % period == 0;
  CUDA_CHECK(cudaGraphLaunch(graphs_.exec(graphs, slot, stages).get(), stream_.get()));
  const bool order_error = settings.measure_order_error && !order_error_is_zero(settings);
  enqueue_after_graph(settings, targets, slot, sorts, order_error);
  slot_info_[slot] = {.plan = plan,
                      .timing = {.timed = graphs.timed,
                                 .marks = stages ? graphs.marks : graphs.span_marks,
                                 .stages = stages,
                                 .span_alone = stages && period > 1},
                      .stint = stint,
                      .requested = requested,
                      .order_error = order_error,
                      .order_exact = order_error_is_zero(settings)};
  slot_frame_[slot] = static_cast<std::int64_t>(frame_);
  return previous_frame_info(slot, requested);
}

void DevicePipeline::enqueue_after_graph(const FrameSettings& settings, const FrameTargets& targets,
                                         int slot, bool sorts, bool order_error) {
  if (order_error) enqueue_order_error(slot, targets.order);
  if (targets.exact_order != nullptr) enqueue_exact_order(slot, targets.exact_order);
  if (settings.order == DrawOrder::stale && sorts) {  // the order its hold frames draw
    CUDA_CHECK(cudaMemcpyAsync(stale_order_.data(), targets.order, count_ * sizeof(std::uint32_t),
                               cudaMemcpyDeviceToDevice, stream_.get()));
  }
  CUDA_CHECK(cudaMemcpyAsync(host_reports_.data() + slot, report_.data(), sizeof(FrameReport),
                             cudaMemcpyDeviceToHost, stream_.get()));
  CUDA_CHECK(cudaEventRecord(done_[slot].get(), stream_.get()));
}

FrameInfo DevicePipeline::previous_frame_info(int slot, const FramePlan& requested) {
  const int report_slot = frame_ == 0 ? slot : slot ^ 1;
  ++frame_;
  CUDA_CHECK(cudaEventSynchronize(done_[report_slot].get()));
  FrameInfo info = info_of(report_slot);
  info.stages = stage_times_of(report_slot);
  const SlotInfo& reported = slot_info_[report_slot];
  if (slot_frame_[report_slot] > last_reported_frame_) {
    last_reported_frame_ = slot_frame_[report_slot];
    auto_.on_report(requested, reported.requested, reported.stint, info.path, info.stages.span_ms);
  }
  return info;
}

FrameInfo DevicePipeline::info_of(int slot) const {
  const SlotInfo& s = slot_info_[slot];
  const FrameReport& r = host_reports_.data()[slot];
  FrameInfo info;
  info.extents = r.extents;
  if (s.order_error) {
    info.order_error = order_error_of(r.order_descents, count_);
  } else if (s.order_exact) {
    info.order_error = 0.0f;
  }
  if (s.plan.sort == SortStage::held) {
    info.path = SortPath::held;
  } else if (s.plan.sort == SortStage::unsorted) {
    info.path = SortPath::unsorted;
  } else if (!s.plan.automatic()) {
    info.path = s.stint == SortPath::radix ? SortPath::radix : SortPath::full;
  } else {
    info.path = AutoSort::path_of(s.plan, r.auto_report);
  }
  return info;
}

namespace {

// Exact view-depth keys of the frame's particles (state: the layout its vertices and drawn order
// index) through `order` (nullptr: the identity), for the two measures after the frame's graph.
DepthKeyArgs exact_view_keys(const ParticleState* state, std::uint32_t count,
                             const DepthFrame* view, const std::uint32_t* order,
                             std::uint32_t* values, std::uint32_t* keys) {
  DepthKeyArgs args;
  args.state = state;
  args.count = count;
  args.order = order;
  args.values = values;
  args.keys = keys;
  args.view = view;
  args.mode = KeyMode::exact;
  return args;
}

}  // namespace

void DevicePipeline::enqueue_order_error(int slot, std::uint32_t* drawn_order) {
  if (error_keys_.size() != count_) {
    synchronize();  // the first measure at this count: nothing may still use the old buffer
    error_keys_.resize(count_);
  }
  cudaStream_t s = stream_.get();
  // keyed in place, left as is
  launch_depth_keys(exact_view_keys(states_[slot ^ 1].data(), count_, &constants_.data()->view,
                                    drawn_order, drawn_order, error_keys_.data()),
                    s);
  count_descents(error_keys_.data(), count_, 0, 32, &report_.data()->order_descents, s);
}

void DevicePipeline::enqueue_exact_order(int slot, std::uint32_t* exact_order) {
  if (exact_keys_.size() != count_) {
    synchronize();  // the first at this count: nothing may still use the old buffer
    exact_keys_.resize(count_);
  }
  cudaStream_t s = stream_.get();
  // The identity, then sorted with its keys.
  launch_depth_keys(exact_view_keys(states_[slot ^ 1].data(), count_, &constants_.data()->view,
                                    nullptr, exact_order, exact_keys_.data()),
                    s);
  // The graph that used the radix sorter's scratch this frame ran before, on this stream.
  sorter(Algorithm::radix).sort(exact_keys_.data(), exact_order, count_, 0, 32, s);
}

}  // namespace particles::cuda
