#include "cuda/pipeline/device_pipeline.hpp"

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>

#include "core/auto_policy.hpp"
#include "core/point_cloud.hpp"
#include "core/scene_models.hpp"
#include "cuda/auto/auto_probe.hpp"
#include "cuda/auto/splitter_partition.hpp"
#include "cuda/common/check.hpp"
#include "cuda/common/launch_grid.hpp"
#include "cuda/sort/copy_kernels.cuh"
#include "cuda/sort/policy.hpp"
#include "cuda/sort/sortedness.hpp"
#include "cuda/stages/keys/depth_keys.hpp"
#include "cuda/stages/reduce/extents_block.cuh"
#include "cuda/stages/reduce/extents_fold.hpp"
#include "cuda/stages/reduce/extents_reduce.hpp"
#include "cuda/stages/sim/simulate.hpp"
#include "cuda/stages/sim/step_fused.hpp"

namespace particles::cuda {
namespace {

constexpr int kThreads = 256;

// Body indices of the auto path's switch node; a value past the last body runs nothing.
static_assert(2 * kAutoProbeStride == kBlockSortTile,
              "the strided probe must match the odd-even tile it predicts convergence for");

unsigned grid_for(std::uint32_t count) {
  return detail::grid_stride_blocks(count, kThreads, 32);
}

// Auto's enable words. The choice sets the sorts' and the finish's from the probe and from
// PartitionTries, which it keeps from frame to frame in two more; the partition sort, when it
// runs, sets kRadixRuns (1: it refused, and radix runs; a partition stint's sort never refuses)
// and kFinishRuns (0: it wrote the target and the splitters itself).
enum AutoWord : int {
  kOddEvenRuns = 0,
  kRadixRuns = 1,
  kPartitionRuns = 2,
  kTriesWait = 3,
  kTriesTried = 4,
  kFinishRuns = 5,  // the order copy to the target and the splitters
  kAlwaysOne = 6,   // set by reset(): a partition stint's partition sort always runs
  kAutoWords = 7
};

// Auto's PartitionTries words as after a reset.
__global__ void reset_partition_tries_kernel(std::int32_t* enable) {
  enable[kTriesWait] = kPartitionTriesAfterReset.wait;
  enable[kTriesTried] = kPartitionTriesAfterReset.tried ? 1 : 0;
}

// The words from the probe's counts and last frame's try.
__global__ void choose_auto_path_kernel(FrameReport* report, std::int32_t* enable, int key_bits) {
  const SortPath path = choose_auto_path(report->descents, report->strided_descents);
  const PartitionTries last{enable[kTriesWait], enable[kTriesTried] != 0};
  const bool failed = last.tried && report->partitioned == 0;  // it ran and fell back
  const PartitionTries tries = next_partition_tries(last, failed, path, key_bits);
  enable[kOddEvenRuns] = path == SortPath::oddeven ? 1 : 0;
  enable[kRadixRuns] = path == SortPath::radix && !tries.tried ? 1 : 0;
  enable[kPartitionRuns] = tries.tried ? 1 : 0;
  enable[kTriesWait] = tries.wait;
  enable[kTriesTried] = tries.tried ? 1 : 0;
  enable[kFinishRuns] = 1;
  report->partitioned = 0;
}

// Ends a capture that an exception interrupted, so the stream is usable again.
void abandon_capture(cudaStream_t stream) noexcept {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &status) == cudaSuccess &&
      status != cudaStreamCaptureStatusNone) {
    cudaGraph_t graph = nullptr;
    cudaStreamEndCapture(stream, &graph);
    if (graph != nullptr) cudaGraphDestroy(graph);
  }
  cudaGetLastError();  // the failure was reported by the throw; clear it
}

}  // namespace

DevicePipeline::DevicePipeline()
    : stream_(Stream::create()),
      extents_workspace_(extents_workspace_bytes()),
      key_floor_(1),
      constants_(1),
      report_(1),
      auto_enable_(kAutoWords),
      host_constants_(2),
      host_reports_(2),
      done_{Event::create(), Event::create()} {
  for (auto& slot : stage_marks_) {
    for (Event& e : slot) e = Event::create(true);
  }
  CUDA_CHECK(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, kPipelineL2FetchBytes));
  init_extents_workspace(extents_workspace_.data(), stream_.get());
  CUDA_CHECK(cudaMemsetAsync(report_.data(), 0, sizeof(FrameReport), stream_.get()));
  CUDA_CHECK(cudaMemsetAsync(auto_enable_.data(), 0, auto_enable_.size_bytes(), stream_.get()));
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
  auto_schedule_.reset();
  last_requested_.reset();
  last_reported_frame_ = -1;
  if (count > capacity_) {
    sorters_.clear();
    radix_.reset();
    partition_.reset();
    capacity_ = count;
  }
  make_sorters();  // now, so that switching algorithm later allocates nothing
  if (partition_) partition_->forget_splitters(stream_.get());  // last scene's keys
  // No sort enabled; PartitionTries as after a reset (the first frame has no splitters), set by
  // the kernel that also resets them when auto comes back from another frame.
  std::array<std::int32_t, kAutoWords> auto_words{};
  auto_words[kFinishRuns] = 1;
  auto_words[kAlwaysOne] = 1;
  CUDA_CHECK(cudaMemcpy(auto_enable_.data(), auto_words.data(), sizeof auto_words,
                        cudaMemcpyHostToDevice));
  launch_init(params_, states_[0].data(), count, stream_.get());
  restart_auto_order();
  synchronize();
}

void DevicePipeline::restart_auto_order() {
  if (count_ > 0) {
    detail::identity_values_kernel<<<grid_for(count_), kThreads, 0, stream_.get()>>>(
        order_.data(), nullptr, count_, nullptr);
    CUDA_CHECK_LAUNCH("identity_values_kernel", stream_.get());
  }
  reset_partition_tries_kernel<<<1, 1, 0, stream_.get()>>>(auto_enable_.data());
  CUDA_CHECK_LAUNCH("reset_partition_tries_kernel", stream_.get());
}

DevicePipeline::GraphShape DevicePipeline::shape_of(const FrameSettings& s, bool sorts) {
  const SortKeys keys = sort_keys_of(s);
  if (keys.mode == KeyMode::quantized && (keys.bits < 1 || keys.bits > 32)) {
    throw std::invalid_argument(
        std::string(s.order == DrawOrder::coarse ? "coarse_bits" : "key_bits") +
        " must be in 1..32, got " + std::to_string(keys.bits));
  }
  GraphShape shape;
  shape.sort = s.order != DrawOrder::unsorted && sorts;
  shape.hold = s.order == DrawOrder::stale && !sorts;
  shape.algorithm = shape.sort ? s.algorithm : Algorithm::radix;
  shape.mode = keys.mode;
  shape.bits = keys.mode == KeyMode::quantized ? keys.bits : 32;
  shape.metric = keys.metric;
  // The fused step makes view-depth keys only: eye keys come from the keys stage.
  shape.fused = s.fuse_stages && keys.metric == DepthMetric::view_depth;
  return shape;
}

OddEvenSorter& DevicePipeline::odd_even() {
  // make_sorter's odd-even sorter is one (a std::bad_cast here would be a library bug).
  return dynamic_cast<OddEvenSorter&>(sorter(Algorithm::oddeven));
}

Sorter& DevicePipeline::sorter(Algorithm algorithm) {
  auto& slot = sorters_[algorithm];
  if (!slot) slot = make_sorter(algorithm, capacity_);  // allocates: never during a capture
  return *slot;
}

RadixSortEngine& DevicePipeline::radix() {
  if (!radix_) {
    radix_ = std::make_unique<RadixSortEngine>(capacity_);
    // Depth keys crowd the radix sort's MSD-first shortcut out: the fullest 8-bit bucket below
    // the shared top bits holds 29K-98K of 1M keys in the bundled scenes (CPU backend, the
    // scenes' first frames), against 20K that a bucket-sort block holds. Planned, the shortcut
    // would only add its empty launches to every frame.
    radix_->set_shortcut(RadixShortcut::never);
  }
  return *radix_;
}

void DevicePipeline::make_sorters() {
  if (capacity_ == 0) return;
  radix();
  if (!partition_) partition_ = std::make_unique<SplitterPartitionSort>(capacity_);
  for (Algorithm a : {Algorithm::oddeven, Algorithm::quicksort, Algorithm::cub}) sorter(a);
}

DevicePipeline::Graphs& DevicePipeline::ensure_graph(const GraphShape& shape) {
  for (Graphs& g : graphs_)
    if (g.shape == shape) return g;
  // Stage timing (event-record nodes) is optional: if the driver refuses it, it is given up for
  // good. An untimed graph must always build.
  bool built = false;
  if (timed_ok_) {
    try {
      graphs_.push_back(build_graphs(shape, true));
      built = true;
    } catch (const std::exception&) {
      timed_ok_ = false;
    }
  }
  if (!built) graphs_.push_back(build_graphs(shape, false));
  ++graphs_built_;
  return graphs_.back();
}

DevicePipeline::Graphs DevicePipeline::build_graphs(const GraphShape& shape, bool timed) {
  // One capture per slot: each slot's markers record that slot's events directly.
  Graphs g;
  g.shape = shape;
  g.timed = timed;
  for (int slot = 0; slot < 2; ++slot)
    g.execs[slot] = capture_frame(shape, slot, timed, true, g.marks);
  return g;
}

GraphExec DevicePipeline::capture_frame(const GraphShape& shape, int slot, bool timed, bool stages,
                                        MarkMap& marks) {
  CUDA_CHECK(cudaStreamBeginCapture(stream_.get(), cudaStreamCaptureModeThreadLocal));
  try {
    record_frame(shape, slot, timed ? slot : -1, stages, marks);
  } catch (...) {
    abandon_capture(stream_.get());  // the stream, and what unwinds after this, usable again
    throw;
  }
  cudaGraph_t raw = nullptr;
  CUDA_CHECK(cudaStreamEndCapture(stream_.get(), &raw));
  const Graph graph(raw);
  cudaGraphExec_t exec = nullptr;
  CUDA_CHECK(cudaGraphInstantiate(&exec, graph.get(), 0));
  return GraphExec(exec);
}

// Stage boundary `boundary` of the frame under capture, as an event-record node recording the
// timing slot's event; timing_slot < 0 records nothing. Boundaries must be marked in order.
void DevicePipeline::mark(int boundary, int timing_slot, MarkMap& marks) {
  marks[boundary] = boundary;
  if (timing_slot < 0) return;
  CUDA_CHECK(cudaEventRecordWithFlags(stage_marks_[timing_slot][boundary].get(), stream_.get(),
                                      cudaEventRecordExternal));
}

StageTimes DevicePipeline::stage_times_of(int slot) const {
  StageTimes t;
  const SlotInfo& info = slot_info_[slot];
  if (!info.timed || slot_frame_[slot] < 0) return t;
  const auto elapsed = [&](int from, int to, float& ms) {
    if (from == to) return true;
    if (cudaEventElapsedTime(&ms, stage_marks_[slot][from].get(), stage_marks_[slot][to].get()) ==
        cudaSuccess)
      return true;
    cudaGetLastError();
    return false;  // not recorded (e.g. the first frame of a new graph): report none
  };
  if (info.stages) {
    for (int k = 0; k < kStageCount; ++k) {
      if (!elapsed(info.marks[k], info.marks[k + 1], t.ms[k])) return StageTimes{};
    }
    if (!info.span_alone) t.span_ms = t.total();
  } else {
    if (!elapsed(info.marks[0], info.marks[kStageCount], t.span_ms)) return StageTimes{};
    t.has_stages = false;
  }
  t.frame = slot_frame_[slot];
  return t;
}

StageTimes DevicePipeline::drain_stage_times() {
  synchronize();
  if (frame_ == 0) return {};
  return stage_times_of(static_cast<int>((frame_ - 1) & 1u));
}

// The whole frame as stream work; run under capture only. Every pointer but the targets' is
// owned here and fixed until reset(); the targets come through constants_.
void DevicePipeline::record_frame(const GraphShape& shape, int slot, int timing_slot, bool stages,
                                  MarkMap& marks) {
  cudaStream_t s = stream_.get();
  FrameConstants* c = constants_.data();
  FrameReport* report = report_.data();
  const ParticleState* state_in = states_[slot].data();
  ParticleState* state_out = states_[slot ^ 1].data();
  const bool automatic = shape.sort && shape.algorithm == Algorithm::automatic;

  // Exact keys need only the view, so the simulate pass itself makes them. The fixed algorithms
  // sort them from the identity order. Auto's fused step lays the particles out in last frame's
  // order (gathering them through order_), so its keys, made there too, are in that order with
  // no gather of their own; quantized ones are then remade from them in place.
  const bool layout_in_step = shape.fused && automatic;
  // A hold frame makes no keys: it sorts nothing and draws stale_order_ again.
  const bool keys_in_step =
      shape.fused && !shape.hold && (shape.mode == KeyMode::exact || layout_in_step);
  // The radix sort of a fixed-algorithm frame writes its last pass straight into the target;
  // every other path sorts order_ in place and copies it there. With keys from the step, that
  // sort also makes the index values itself, so the step does not write them.
  const bool direct_to_target = shape.sort && !automatic && shape.algorithm == Algorithm::radix;
  const bool sort_makes_values = keys_in_step && direct_to_target;
  // Auto's laid-out keys are appended to the partition sort's buckets by the kernel that makes
  // them (record_auto_sort).
  const bool appends_keys = layout_in_step && partition_sort_worth_trying(shape.bits);
  // A partition stint's sorts and the radix sort of a fixed-algorithm frame write the target
  // themselves: no order stage, so the sort's end is the frame's (a stint is fused auto's alone).
  const bool order_stage = !direct_to_target && !shape.partition_stint;
  // A span-only frame records only its first boundary and its last; the ones between are marked
  // but not recorded (nothing reads them).
  const int inner_slot = stages ? timing_slot : -1;
  mark(0, timing_slot, marks);
  bool extents_on_branch = false;  // the extents folded on branch_, joined below
  if (shape.fused) {
    FusedStepArgs step;
    step.params = params_;
    step.state_in = state_in;
    step.state_out = state_out;
    // Read before the step overwrites it with the identity (values), each place by its thread.
    step.gather = layout_in_step ? order_.data() : nullptr;
    step.count = count_;
    step.dt = &c->dt;
    step.vertices = &c->vertices;
    step.sprite_scales = &c->sprite_scales;
    step.view = &c->view;
    // A stint's frame of exact keys needs its extents only once it is done (the report): its
    // step leaves them as partials, folded on a branch beside the sort (joined before the
    // frame's end), so that the step ends without the combine's tail. (H200, galaxy 1M auto: a
    // build without that combine ran the frame in 49.3 us against 51.3; with the fold beside,
    // 49.7 against 51.0.) Quantized keys are made from the extents, and radix's frame needs the
    // key floor, the combine's extra minimum, before its sort: both keep the combine.
    const bool fold_beside = shape.partition_stint && shape.mode == KeyMode::exact;
    step.extents_workspace = extents_workspace_.data();
    if (fold_beside) {
      step.extents_partials = extents_partials_.data();
    } else {
      step.extents = &report->extents;
    }
    step.keys = keys_in_step ? keys_.data() : nullptr;
    // A partition stint's sorts take the values as the keys' places (record_auto_sort): the
    // identity is not written, and order_ keeps last frame's order until the sort overwrites it.
    step.values = sort_makes_values || shape.partition_stint ? nullptr : order_.data();
    step.key_floor = keys_in_step && !automatic ? key_floor_.data() : nullptr;  // radix only
    // Auto's exact keys go to the partition sort's buckets as they are made (quantized ones from
    // the keys stage below): the sort then needs no pass of its own to split them.
    if (appends_keys && shape.mode == KeyMode::exact) {
      step.append = partition_->append_target();
      // A stint's keys are read only by its overflow sort (no probe, no note_sorted): they stay
      // in the buckets' slots, and reach keys_ only when a bucket overflows. (H200, galaxy 1M auto:
      // 53.5-53.8 -> 52.5-52.7 us, 2M 103.7 -> 101.9; an earlier try, whose bucket kernel still
      // spilled 88 bytes, lost in the sort what the step gained.)
      step.append.keys_by_place = stint_keys_by_place(shape.partition_stint);
    }
    launch_step_fused(step, s);
    if (fold_beside) {
      CUDA_CHECK(cudaEventRecord(fork_.get(), s));
      CUDA_CHECK(cudaStreamWaitEvent(branch_.get(), fork_.get(), 0));
      launch_extents_fold(extents_partials_.data(), fused_step_blocks(params_.model, count_),
                          &report->extents, branch_.get());
      CUDA_CHECK(cudaEventRecord(joined_.get(), branch_.get()));
      extents_on_branch = true;
    }
    mark(1, inner_slot, marks);
    marks[2] = marks[1];  // extents ran inside the step
  } else {
    launch_step(params_, state_in, state_out, count_, &c->dt, &c->vertices, &c->sprite_scales, s);
    mark(1, inner_slot, marks);
    launch_extents(state_out, count_, &c->view, &report->extents, extents_workspace_.data(), s);
    mark(2, inner_slot, marks);
  }

  if (!shape.hold && (!keys_in_step || (layout_in_step && shape.mode == KeyMode::quantized))) {
    DepthKeyArgs keys;
    keys.state = state_out;
    keys.count = count_;
    keys.keys = keys_.data();
    if (layout_in_step) {  // from the step's exact keys, in place; the values are made
      keys.exact_keys = keys_.data();
      if (appends_keys) keys.append = partition_->append_target();
    } else {
      // Unfused auto keys last frame's order in place; the others start from the identity.
      keys.order = automatic ? order_.data() : nullptr;
      keys.values = order_.data();
    }
    keys.view = &c->view;
    keys.extents = &report->extents;
    keys.mode = shape.mode;
    keys.bits = shape.bits;
    keys.metric = shape.metric;
    launch_depth_keys(keys, s);
    mark(3, inner_slot, marks);
  } else {
    marks[3] = marks[2];
  }

  if (shape.sort) {
    if (automatic) {
      record_auto_sort(shape.bits, shape.partition_stint, layout_in_step);
    } else if (direct_to_target) {
      // The sorted keys are not kept (nothing reads them). With keys made in the step, the
      // frame's smallest key is their floor: a galaxy frame's depth keys span less than 2^24
      // above it, so the top pass is skipped, and 3 passes, an odd count, need no copy back.
      radix().sort(keys_.data(), order_.data(), count_, 0, shape.bits, s,
                   {.final_values = &c->order,
                    .key_floor = keys_in_step ? key_floor_.data() : nullptr,
                    .values_are_indices = sort_makes_values,
                    .keys_needed = false});
    } else {
      // A fixed algorithm here: auto's sorts are recorded above.
      sorter(shape.algorithm).sort(keys_.data(), order_.data(), count_, 0, shape.bits, s);
    }
  }
  if (extents_on_branch) CUDA_CHECK(cudaStreamWaitEvent(s, joined_.get(), 0));
  mark(4, order_stage ? inner_slot : timing_slot, marks);
  if (!order_stage) {
    marks[5] = marks[4];
  } else {
    // The GL element buffer's address is read when the copy runs (see FrameConstants). Auto's
    // partition sort, when it sorted, wrote the target and its splitters itself (kFinishRuns).
    const std::int32_t* finish = automatic ? auto_enable_.data() + kFinishRuns : nullptr;
    if (automatic && partition_sort_worth_trying(shape.bits)) {
      // Whichever path sorted them, keys_ now holds this frame's sorted keys: the splitters of
      // the next frame's partition sort, taken in the copy's launch.
      partition_->note_sorted(keys_.data(), count_, s, finish, {order_.data(), &c->order});
    } else {
      // A hold frame draws the stale order's last sorted frame's order again.
      const std::uint32_t* drawn = shape.hold ? stale_order_.data() : order_.data();
      detail::copy_values_to_kernel<<<detail::grid_stride_blocks(count_, detail::kCopyThreads, 1),
                                      detail::kCopyThreads, 0, s>>>(drawn, &c->order, count_,
                                                                    finish);
      CUDA_CHECK_LAUNCH("copy_values_to_kernel", s);
    }
    mark(5, timing_slot, marks);
  }
}

// Every sort, each enabled by its word, which a one-thread kernel sets from the probe's counts
// (and the partition sort, when it cannot sort, hands to radix): the decision is made on the
// device, in the same frame, without a host round trip. A partition stint's frame has no probe,
// no choice and no other sort: its partition sort always runs, and never refuses.
void DevicePipeline::record_auto_sort(int end_bit, bool partition_stint, bool keys_appended) {
  cudaStream_t s = stream_.get();
  // A stint's sort has no fallback: it must be one the partition sort never refuses.
  if (partition_stint && !(keys_appended && partition_sort_worth_trying(end_bit) &&
                           partition_buckets(count_) <= kPartitionMaxBuckets))
    throw std::logic_error("a partition stint for keys the partition sort never takes");
  std::int32_t* words = auto_enable_.data();
  FrameReport* report = report_.data();
  if (!partition_stint) {
    // Quantized keys leave the unused high bits zero, so full-word comparisons are exact.
    static_assert(offsetof(FrameReport, strided_descents) ==
                  offsetof(FrameReport, descents) + sizeof(std::uint32_t));
    launch_sortedness_probes(keys_.data(), count_, kAutoProbeStride, &report->descents, s);
    choose_auto_path_kernel<<<1, 1, 0, s>>>(report, words, end_bit);
    CUDA_CHECK_LAUNCH("choose_auto_path_kernel", s);
    odd_even().sort_enabled(keys_.data(), order_.data(), count_, 0, end_bit, s,
                            words + kOddEvenRuns);
  }
  // The choice never enables it for narrower keys: no launches for them at all.
  if (partition_sort_worth_trying(end_bit)) {
    const std::int32_t* enable = words + (partition_stint ? kAlwaysOne : kPartitionRuns);
    const PartitionExtras extras{.final_values = &constants_.data()->order,
                                 .note_splitters = true,
                                 // A stint's frame has no finish to turn off.
                                 .finish_enable = partition_stint ? nullptr : words + kFinishRuns,
                                 .keys_by_place = stint_keys_by_place(partition_stint)};
    if (keys_appended) {  // by the step or the keys stage, each with its place as its value
      // Its sorted keys are not kept: when it sorts, it takes the next splitters itself and the
      // finish (note_sorted, their only reader) does not run.
      partition_->sort_appended(nullptr, order_.data(), count_, s, enable, words + kRadixRuns,
                                &report->partitioned, extras);
    } else {
      partition_->sort_enabled(keys_.data(), order_.data(), count_, s, enable, words + kRadixRuns,
                               &report->partitioned, extras);
    }
  }
  if (partition_stint) {
    // A stint's partition sort never refuses: a frame that moved too far, past a bucket's
    // capacity, is sorted in the same kernel by its overflow sort (PartitionExtras::keys_by_place),
    // which ends the stint through the report. No fallback launch: a node fewer on every frame.
    // (H200, galaxy 1M auto: the odd-even exact kernel as a fallback, launched early and returning
    // at once, cost 0.6-0.9 us a frame.) The sort writes the target itself, so a stint's frame has
    // no order stage either.
    return;
  }
  // Unrouted, without the step's key floor: measured on the H200 at 1M (galaxy, exact keys),
  // 3 routed passes plus the copy back of an odd pass count took 95 us, 4 plain ones 90.
  radix().sort(keys_.data(), order_.data(), count_, 0, end_bit, s, {.enable = words + kRadixRuns});
}

FrameInfo DevicePipeline::run_frame(const FrameSettings& settings, const FrameTargets& targets) {
  const bool sorts = stale_.sorts(settings.order, settings.order_period);
  const GraphShape shape = shape_of(settings, sorts);
  if (count_ == 0) {
    FrameInfo info;
    info.path = !shape.sort ? (shape.hold ? SortPath::held : SortPath::unsorted) : SortPath::full;
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
  GraphShape run_shape = shape;
  const bool fused_auto = shape.sort && shape.algorithm == Algorithm::automatic && shape.fused;
  if (!fused_auto || last_requested_ != shape) auto_schedule_.reset();
  last_requested_ = shape;
  SortPath stint = SortPath::unsorted;  // none
  if (fused_auto) stint = auto_schedule_.next_frame();
  if (stint != SortPath::unsorted) {
    if (stint == SortPath::radix) run_shape.algorithm = Algorithm::radix;
    run_shape.partition_stint = stint == SortPath::partition;
  }
  Graphs& graphs = ensure_graph(run_shape);

  const int slot = static_cast<int>(frame_ & 1u);
  const bool automatic = run_shape.sort && run_shape.algorithm == Algorithm::automatic;
  if (automatic && !order_is_last_frames_) {
    // Back from another frame (a stint, another algorithm): last frame's order is the layout
    // itself, and last auto frame's splitters are stale, so this frame does not try the
    // partition sort and the next one does.
    restart_auto_order();
    auto_schedule_.restart_order();
  }
  order_is_last_frames_ = automatic;
  host_constants_.data()[slot] = {settings.dt, settings.view, targets.vertices, targets.order,
                                  targets.sprite_scales};
  CUDA_CHECK(cudaMemcpyAsync(constants_.data(), host_constants_.data() + slot,
                             sizeof(FrameConstants), cudaMemcpyHostToDevice, stream_.get()));
  // Counted from the reset, so that frame 0 and every period-th one after time their stages.
  const std::int64_t period = std::max(1, settings.stage_sample_period);
  const bool stages = !graphs.timed || static_cast<std::int64_t>(frame_) % period == 0;
  if (!stages && !graphs.span_execs[slot]) {
    graphs.span_execs[slot] = capture_frame(run_shape, slot, true, false, graphs.span_marks);
  }
  const GraphExec& exec = stages ? graphs.execs[slot] : graphs.span_execs[slot];
  CUDA_CHECK(cudaGraphLaunch(exec.get(), stream_.get()));
  const bool order_error = settings.measure_order_error && !order_error_is_zero(settings);
  if (order_error) enqueue_order_error(slot, targets.order);
  if (targets.exact_order != nullptr) enqueue_exact_order(slot, targets.exact_order);
  if (settings.order == DrawOrder::stale && sorts) {  // the order its hold frames draw
    CUDA_CHECK(cudaMemcpyAsync(stale_order_.data(), targets.order, count_ * sizeof(std::uint32_t),
                               cudaMemcpyDeviceToDevice, stream_.get()));
  }
  CUDA_CHECK(cudaMemcpyAsync(host_reports_.data() + slot, report_.data(), sizeof(FrameReport),
                             cudaMemcpyDeviceToHost, stream_.get()));
  CUDA_CHECK(cudaEventRecord(done_[slot].get(), stream_.get()));
  slot_info_[slot] = {.shape = run_shape,
                      .timed = graphs.timed,
                      .marks = stages ? graphs.marks : graphs.span_marks,
                      .stint = stint,
                      .requested = shape,
                      .stages = stages,
                      .span_alone = stages && period > 1,
                      .order_error = order_error,
                      .order_exact = order_error_is_zero(settings)};
  slot_frame_[slot] = static_cast<std::int64_t>(frame_);

  const int report_slot = frame_ == 0 ? slot : slot ^ 1;
  ++frame_;
  CUDA_CHECK(cudaEventSynchronize(done_[report_slot].get()));
  FrameInfo info = info_of(report_slot);
  info.stages = stage_times_of(report_slot);
  const SlotInfo& reported = slot_info_[report_slot];
  if (slot_frame_[report_slot] > last_reported_frame_) {
    last_reported_frame_ = slot_frame_[report_slot];
    // Reports count only while the frame they report was asked for as this one is.
    if (fused_auto && reported.requested == shape) {
      auto_schedule_.on_report(reported.stint, info.path, info.stages.span_ms);
    }
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
  if (s.shape.hold) {
    info.path = SortPath::held;
  } else if (!s.shape.sort) {
    info.path = SortPath::unsorted;
  } else if (s.shape.algorithm != Algorithm::automatic) {
    info.path = s.stint == SortPath::radix ? SortPath::radix : SortPath::full;
  } else if (s.stint == SortPath::partition) {
    // Not partitioned: its overflow sort, the odd-even sorter's exact merge sort, sorted it.
    info.path = r.partitioned != 0 ? SortPath::partition : SortPath::oddeven;
  } else {
    info.path = choose_auto_path(r.descents, r.strided_descents);
    if (info.path == SortPath::radix && r.partitioned != 0) info.path = SortPath::partition;
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
