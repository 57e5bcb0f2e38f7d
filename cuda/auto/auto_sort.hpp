#pragma once
// Auto behind one interface: everything the adaptive sort does in a CUDA frame, for a pipeline
// that knows only what the frame's plan (core/frame_plan.hpp) says. Between frames, on the host:
// which stint the next frame runs in (next_stint), and what each frame's report teaches the
// schedule (on_report); the policy itself is core/auto_policy.hpp, shared with the CPU backend.
// Inside a recorded frame, on the device and without a host round trip: the probe and the
// one-thread choice that enables one sort (record_sort), the partition sort the kernels that make
// keys append to (append_target), and the finish that copies the order to its target and takes
// the next frame's splitters (record_finish). Its device words are auto_words.hpp's.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "core/auto_policy.hpp"
#include "core/frame_plan.hpp"
#include "cuda/auto/partition_append.hpp"
#include "cuda/common/device_buffer.hpp"
#include "cuda/sort/sorter.hpp"

namespace particles::cuda {

class SplitterPartitionSort;

// What an auto frame tells the host, written on the device (the pipeline copies it back with
// the rest of its frame's report).
struct AutoReport {
  std::uint32_t descents = 0;          // of last frame's order under this frame's keys
  std::uint32_t strided_descents = 0;  // the same at stride kAutoProbeStride
  std::uint32_t partitioned = 0;       // 1 when the splitter partition sort did the sort
};

// The frame's device memory that auto's recorded work reads and writes, owned by the pipeline
// and fixed between resets.
struct AutoFrame {
  std::uint32_t* keys = nullptr;   // this frame's keys, laid out in last frame's order
  std::uint32_t* order = nullptr;  // last frame's order in, this frame's out
  std::uint32_t count = 0;
  std::uint32_t* const* target = nullptr;  // a device word: where the drawn order goes
  AutoReport* report = nullptr;
};

// The sorts auto chooses among, besides its own partition sort.
struct AutoSorters {
  Sorter& oddeven;
  Sorter& radix;
};

class AutoSort {
 public:
  AutoSort();
  ~AutoSort();
  AutoSort(const AutoSort&) = delete;
  AutoSort& operator=(const AutoSort&) = delete;

  // A new scene or count: sized for `capacity` keys (the partition sort is made again only when
  // that grows), the splitters, stints and costs forgotten, no sort enabled. Waits for `stream`.
  void reset(std::size_t capacity, cudaStream_t stream);
  // Whether frames' spans count toward auto's choice of radix (core/auto_policy.hpp); off, its
  // paths follow the frames alone, as the tests of those paths need.
  void set_measures_cost(bool on) { schedule_.set_measures_cost(on); }

  // The stint (SortPath::unsorted: none) the frame asking for `requested` runs in; a stint lasts
  // only while the same fused auto frame is asked for.
  SortPath next_stint(const FramePlan& requested);
  // The next auto frame starts from the identity order (the pipeline has written it): it cannot
  // try the partition sort, and the reports before it no longer make a streak.
  void restart_order(cudaStream_t stream);
  // The report of a frame that asked for `reported` and ran in `stint`, taking `path` in span_ms,
  // arriving while `requested` is asked for (a report counts only while its request stands).
  void on_report(const FramePlan& requested, const FramePlan& reported, SortPath stint,
                 SortPath path, float span_ms);
  // The path an auto frame of `plan` took, from its report.
  static SortPath path_of(const FramePlan& plan, const AutoReport& report);

  // Recording (under capture). Where the kernel the plan names (BucketAppend) appends the keys
  // it makes; a partition stint's step also stores an overflowed bucket's keys by place in
  // frame.keys, for the overflow sort.
  PartitionAppend append_target(const FramePlan& plan, const AutoFrame& frame) const;
  // The frame's sort: the probe, the choice and every sort it may enable; or a partition stint's
  // sort, which never refuses.
  void record_sort(const FramePlan& plan, const AutoFrame& frame, const AutoSorters& sorters,
                   cudaStream_t stream);
  // The order stage of an auto frame: the order copied to the target and, where the plan says,
  // the next frame's splitters taken, unless the partition sort did both already.
  void record_finish(const FramePlan& plan, const AutoFrame& frame, cudaStream_t stream);

 private:
  DeviceBuffer<std::int32_t> words_;  // auto_words.hpp
  std::unique_ptr<SplitterPartitionSort> partition_;
  std::size_t capacity_ = 0;
  AutoSchedule schedule_;
  std::optional<FramePlan> last_requested_;
};

}  // namespace particles::cuda
