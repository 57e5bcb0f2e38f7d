#pragma once
// The CUDA backend's frame without GL: simulate -> extents -> keys -> sort -> order, on one
// stream of its own, captured once as a CUDA graph and replayed while the frame's plan
// (core/frame_plan.hpp: what plan_frame makes of the algorithm, key mode and bits, draw order and
// auto's stint) and the count stay the same. CudaPipeline (cuda_pipeline.hpp)
// maps the GL buffers and hands their pointers in as FrameTargets; the GPU tests call this
// directly with plain device buffers.
//
// Per-frame inputs (dt, view, the two target pointers) live in a small device-side
// FrameConstants block that a copy from pinned memory fills before each graph launch, so the
// graph never has to change when they do, including when GL maps its buffers elsewhere.
//
// Switching algorithm or key mode costs no allocation: every sorter is made at reset(), and each
// plan's executable graphs are kept once built (frame_graphs.hpp). The jobs are in files of
// their own: the plan's recording (frame_recorder.cu), the graph cache (frame_graphs.hpp), the
// stage timing and its NVTX ranges (stage_timing.hpp); this file runs the frames.
//
// One frame of lag, on purpose: run_frame(f) enqueues frame f, then waits for frame f-1 to finish
// (not f: the GPU stays busy) and returns frame f-1's FrameInfo (extents, path). The first frame
// after reset() waits for itself. So the host never runs more than one frame ahead and never
// stalls the GPU.
//
// Automatic sorting ("auto"): the keys are laid out in last frame's order. With fused stages the
// particles themselves are: the step reads each one through last frame's order (which indexes
// the particles as they were laid out then) and writes it to the other state buffer at its
// place in that order, so its keys come out of the step already in that order, and the draw
// order indexes this new layout. (Unfused, the layout stays and the keys stage gathers through
// the order.) The sortedness probe counts
// descents (adjacent and strided, see core/auto_policy.hpp) on the device, and a
// one-thread kernel turns them, with choose_auto_path, into enable words: already sorted ->
// no sort runs, no element far from home -> the odd-even sort, else the splitter partition sort
// (cuda/auto/splitter_partition.hpp: buckets cut by last frame's sorted keys), which
// hands over to the radix sort, on the device, when those splitters do not fit this frame's keys.
// Every sort is in the graph and those not chosen return at once (a few empty launches). After
// fused auto frames that kept ending in radix or in the partition sort, a stint of frames runs a
// graph of that path alone, each stint of a path twice as long as the last up to kAutoStintLongest
// (core/auto_policy.hpp); and where its frames are measured to cost more than radix's (at small
// counts), auto runs radix stints instead (after_probing_frame). The choice is made on the device
// in the same frame, so every frame's order is exactly sorted and ties keep last frame's order;
// only the report of which path ran (FrameInfo::path) arrives a frame late, like the extents. (A
// conditional graph node did the same, but under CUDA-GL interop a graph holding one completed
// about 2 ms late every frame on the H200: bench/interop_bench.)
//
// Approximate draw orders (core/draw_order.hpp) are plans too: unsorted runs no sort and
// copies the identity; eye sorts keys of the distance to the eye, made by the keys stage (its
// frames run the stages apart); coarse sorts quantized keys of a few bits; stale sorts on the
// frames StaleSchedule picks as the exact order does, and a copy after the graph keeps that
// frame's drawn order (stale_order_); its frames between (hold) step the particles in place (the
// layout that order indexes), make no keys, sort nothing and draw stale_order_ again.
// The order error (FrameSettings::measure_order_error) is measured after the graph, on the same
// stream, by the keys kernel (exact view-depth keys gathered through the drawn order) and the
// descent count, into the frame's report: it arrives with the frame's extents, a frame late.
#include <cuda_runtime.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>

#include "core/auto_policy.hpp"
#include "core/frame_plan.hpp"
#include "core/frame_types.hpp"
#include "core/particle.hpp"
#include "core/scene_desc.hpp"
#include "cuda/auto/auto_sort.hpp"
#include "cuda/common/cuda_handles.hpp"
#include "cuda/pipeline/frame_graphs.hpp"
#include "cuda/pipeline/stage_timing.hpp"
#include "cuda/sort/sorter.hpp"

namespace particles::cuda {

// Where a frame's results go: `count` vertices and `count` indices (far first), device memory.
struct FrameTargets {
  ParticleVertex* vertices = nullptr;
  std::uint32_t* order = nullptr;
  // When not null (count entries), also the frame's exact order, whatever order was drawn: exact
  // view-depth keys from the identity, stably sorted, as CpuPipeline::exact_order makes it. The
  // comparison view draws it beside the drawn order.
  std::uint32_t* exact_order = nullptr;
  // `count` sprite scales, for a model that sizes its sprites (model_scales_sprites); else null.
  float* sprite_scales = nullptr;
};

// What the graph reads at run time; one device copy, refilled before every launch.
struct FrameConstants {
  float dt = 0.0f;
  DepthFrame view;
  ParticleVertex* vertices = nullptr;
  std::uint32_t* order = nullptr;
  float* sprite_scales = nullptr;
};

// What the graph writes for the host; copied back after every launch.
struct FrameReport {
  Extents extents;
  AutoReport auto_report;            // auto frames only
  std::uint32_t order_descents = 0;  // measured frames only: descents of the drawn order
};

// The bytes the L2 fetches from DRAM on a miss, which a DevicePipeline asks of the device (a
// device-wide limit, cudaLimitMaxL2FetchGranularity; the default is 64). Auto's step reads each
// particle's 32-byte state through last frame's order, a few places from its own, so whole lines
// bring in the neighbours' states before their threads ask. (H200, galaxy 1M auto 48.51-48.70 ->
// 47.97-48.00 us, fountain 53.79-54.02 -> 53.22, radix and 16M unchanged; 32 bytes: 50.2-50.3.)
inline constexpr std::size_t kPipelineL2FetchBytes = 128;

class DevicePipeline {
 public:
  DevicePipeline();
  ~DevicePipeline();  // waits for the stream's work
  DevicePipeline(const DevicePipeline&) = delete;
  DevicePipeline& operator=(const DevicePipeline&) = delete;

  // New scene or count: state = model_init, order = identity, graph dropped. A points scene's
  // cloud (host memory, params.points) is uploaded here, resampled to `count`
  // (core/point_cloud.hpp): `params` need not outlive the reset.
  void reset(const ModelParams& params, std::uint32_t count);
  // Enqueues one frame writing into `targets`; returns the previous frame's FrameInfo (see top).
  FrameInfo run_frame(const FrameSettings& settings, const FrameTargets& targets);

  void synchronize() const;
  // Waits for the stream and returns the stage timings of the newest frame, which run_frame has
  // not reported yet (it reports the frame before). frame < 0 when there is none.
  StageTimes drain_stage_times();
  bool stage_timing() const noexcept { return graphs_.timed_ok(); }
  cudaStream_t stream() const noexcept { return stream_.get(); }
  std::uint32_t count() const noexcept { return count_; }
  std::uint64_t graphs_built() const noexcept { return graphs_.built(); }

  // Device views of the last enqueued frame, for tests (read after synchronize()). The state is
  // in the layout the frame's vertices and draw order index (see auto above).
  const ParticleState* device_state() const noexcept { return states_[frame_ & 1u].data(); }
  const std::uint32_t* device_order() const noexcept { return order_.data(); }
  // The sorted keys, except after a fixed radix frame, whose sort leaves them in scratch, and a
  // frame the partition sort sorted (device_report()->auto_report.partitioned), which keeps only
  // its splitters.
  const std::uint32_t* device_sorted_keys() const noexcept { return keys_.data(); }
  const FrameReport* device_report() const noexcept { return report_.data(); }
  // Whether auto times its frames and radix's and runs radix where radix is measured cheaper
  // (core/auto_policy.hpp, after_probing_frame). The app's backend (CudaPipeline) turns it on;
  // off, auto's paths depend on the frames alone, which the tests of its paths need.
  void set_auto_measures_cost(bool on) { auto_.set_measures_cost(on); }
  // The stint (core/auto_policy.hpp) the last enqueued auto frame ran in: radix, partition, or
  // unsorted for none; for tests.
  SortPath newest_frame_stint() const noexcept {
    return frame_ > 0 ? slot_info_[(frame_ - 1) & 1u].stint : SortPath::unsorted;
  }
  // The plan (core/frame_plan.hpp) the last enqueued frame's graph was recorded from, none
  // before the first frame; for tests, which check it is plan_frame's for the same inputs.
  std::optional<FramePlan> newest_frame_plan() const {
    if (frame_ == 0) return std::nullopt;
    return slot_info_[(frame_ - 1) & 1u].plan;
  }

 private:
  struct SlotInfo {
    FramePlan plan;  // what ran
    SlotTiming timing;
    SortPath stint = SortPath::unsorted;  // an auto frame's stint, unsorted for none
    FramePlan requested;                  // what the settings asked for, before any stint
    bool order_error = false;             // the report's order_descents were measured
    bool order_exact = false;             // order_error_is_zero: 0 unmeasured
  };
  // Waits for the frame before the one just enqueued in `slot` (or for that one, the first after
  // a reset) and returns its FrameInfo, its report counted by auto's schedule.
  FrameInfo previous_frame_info(int slot, const FramePlan& requested);
  // After the frame's graph: the measures and copies its settings ask for, its report's copy
  // back and its done event.
  void enqueue_after_graph(const FrameSettings& settings, const FrameTargets& targets, int slot,
                           bool sorts, bool order_error);
  // The order error's kernels after the frame's graph (see the top), into report_.
  void enqueue_order_error(int slot, std::uint32_t* drawn_order);
  // The frame's exact order (FrameTargets::exact_order) after its graph, by the radix sorter.
  void enqueue_exact_order(int slot, std::uint32_t* exact_order);
  Sorter& sorter(Algorithm algorithm);
  void make_sorters();
  StageTimes stage_times_of(int slot) const {
    StageTimes t = stage_events_.times_of(slot, slot_info_[slot].timing, slot_frame_[slot]);
    for (int s = 0; s < kStageCount; ++s) {
      t.in_simulate[s] = runs_in_step(slot_info_[slot].plan, static_cast<Stage>(s));
    }
    return t;
  }

  // Recording one frame of a plan under capture (frame_recorder.cu; FrameGraphs calls it).
  // slot: the frame slot (which state buffer is read, which written); timing_slot: whose stage
  // events the markers record, -1 for an untimed graph; stages: every boundary is recorded, not
  // only the first and the last.
  void record_frame(const FramePlan& plan, int slot, int timing_slot, bool stages, MarkMap& marks);
  void record_step(const FramePlan& plan, int slot, StageMarker& marker);
  void record_fused_step(const FramePlan& plan, int slot);
  void record_keys_stage(const FramePlan& plan, int slot, StageMarker& marker);
  void record_sort(const FramePlan& plan);
  void record_order_stage(const FramePlan& plan);
  // The buffers auto's recorded work reads and writes (cuda/auto/auto_sort.hpp).
  AutoFrame auto_frame() noexcept {
    return {.keys = keys_.data(),
            .order = order_.data(),
            .count = count_,
            .target = &constants_.data()->order,
            .report = &report_.data()->auto_report};
  }
  // order_ = the identity: auto's next frame starts from it (after a reset, or a frame whose
  // order_ auto cannot lay its particles out by).
  void write_identity_order();
  FrameInfo info_of(int slot) const;

  // Declared first so it is destroyed last, after everything that may still use it.
  Stream stream_;
  ModelParams params_;
  std::uint32_t count_ = 0;
  std::size_t capacity_ = 0;  // sorters are made for this many pairs

  // Frame f steps states_[f % 2] into states_[(f + 1) % 2] (one graph per frame slot), so the
  // step can also move each particle to a new place (auto's layout, above).
  std::array<DeviceBuffer<ParticleState>, 2> states_;
  DeviceBuffer<PointRecord> points_;  // the points model's cloud, params_.points.records
  DeviceBuffer<std::uint32_t> keys_;
  DeviceBuffer<std::uint32_t> order_;  // the draw order; last frame's order at the frame's start
  // Whether order_ holds the last frame's order in the current layout, as auto needs: false after
  // a frame of a fixed algorithm, whose order_ may be scratch; auto then starts from the identity.
  bool order_is_last_frames_ = true;
  std::int64_t last_reported_frame_ = -1;  // reports reach the policy once each
  DeviceBuffer<unsigned char> extents_workspace_;
  // A stint's step leaves its extents as a combine's words per block, folded on branch_ beside
  // the sort (record_frame); fork_ and joined_ order the branch in the captured graph.
  DeviceBuffer<std::uint32_t> extents_partials_;
  Stream branch_ = Stream::create();
  Event fork_ = Event::create();
  Event joined_ = Event::create();
  DeviceBuffer<std::uint32_t> key_floor_;  // the frame's smallest exact key (the step's)
  DeviceBuffer<FrameConstants> constants_;
  DeviceBuffer<FrameReport> report_;

  // Two frames in flight at most, so two pinned slots each: slot f % 2 was last used by frame
  // f - 2, which run_frame(f - 1) waited for.
  PinnedBuffer<FrameConstants> host_constants_;
  PinnedBuffer<FrameReport> host_reports_;
  std::array<Event, 2> done_;
  std::array<SlotInfo, 2> slot_info_;
  std::array<std::int64_t, 2> slot_frame_{-1, -1};
  StageEventPool stage_events_;
  std::uint64_t frame_ = 0;

  std::map<Algorithm, std::unique_ptr<Sorter>> sorters_;  // every algorithm but auto
  AutoSort auto_;       // its stints between frames and its work in them
  FrameGraphs graphs_;  // every plan's graphs since reset()
  StaleSchedule stale_;
  // Exact view-depth keys in the drawn order, for the order error; allocated on its first use.
  DeviceBuffer<std::uint32_t> error_keys_;
  DeviceBuffer<std::uint32_t> exact_keys_;  // the exact order's keys (enqueue_exact_order)
  // The stale order's last sorted frame's order, which its hold frames draw; allocated by the
  // first stale frame after a reset (before any hold graph that reads it is captured).
  DeviceBuffer<std::uint32_t> stale_order_;
};

}  // namespace particles::cuda
