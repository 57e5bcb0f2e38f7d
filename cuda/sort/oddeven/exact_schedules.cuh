#pragma once
// The two schedules that run the exact sort's phases (exact_merge_sort.cuh): a cooperative grid
// with a grid barrier between phases, or units handed out in order by tickets, which any grid
// finishes.
#include <cooperative_groups.h>

#include <cstdint>

#include <cuda/atomic>

#include "cuda/common/dynamic_shared.cuh"
#include "cuda/sort/oddeven/exact_tile_sort.cuh"

namespace particles::cuda::detail::exact {
// Internal linkage: each source that includes it compiles its own copy (no relocatable device
// code), the odd-even sorter's and the partition sort's.
namespace {

// Block-strided units on a cooperative grid, a grid barrier between phases.
class GridSchedule {
 public:
  template <typename Unit>
  __device__ void phase(std::uint32_t units, Unit&& unit) {
    wait_for_previous();
    for (std::uint32_t u = blockIdx.x; u < units; u += gridDim.x) unit(u);
    behind_ = true;
  }
  // Every unit of the phase before is done and its writes visible to the block.
  __device__ void wait_for_previous() {
    if (behind_) cooperative_groups::this_grid().sync();
    behind_ = false;
  }

 private:
  bool behind_ = false;
};

// Phases a sort takes at most: the partition sort's gather, the tile sort, one round or a merge
// per doubling of the run up to 2^32 keys (tiles of 2^12), the finish.
inline constexpr int kMaxTicketPhases = 1 + 1 + (32 - kBucketBits) + 1;
// The words a TicketSchedule counts with: zero before its first unit, and left zero by finish().
struct TicketWords {
  std::uint32_t next;                    // the next unit to hand out, numbered across the phases
  std::uint32_t exited;                  // blocks past their last unit
  std::uint32_t done[kMaxTicketPhases];  // finished units, by phase
};

// Units handed out in order (see the top of exact_merge_sort.cuh). Each block holds one unit at a
// time: the first from the constructor, the next once it finishes one. Every thread of every
// block of the grid constructs it and calls the same phases.
class TicketSchedule {
 public:
  __device__ explicit TicketSchedule(TicketWords* words) : words_(words) { held_ = take(); }

  template <typename Unit>
  __device__ void phase(std::uint32_t units, Unit&& unit) {
    const std::uint32_t end = begin_ + units;
    while (held_ < end) {
      wait_for_previous();
      unit(held_ - begin_);
      __syncthreads();  // the unit's writes, all of them, before its count (release, below)
      if (threadIdx.x == 0) {
        ::cuda::atomic_ref<std::uint32_t, ::cuda::thread_scope_device> done(words_->done[phase_]);
        done.fetch_add(1u, ::cuda::memory_order_release);
      }
      held_ = take();
    }
    begin_ = end;
    previous_units_ = units;
    ++phase_;
  }

  // Every unit of the phase before is done and its writes visible to the block. Called only with
  // a unit past that phase held (or all handed out), so its units all went to running blocks.
  __device__ void wait_for_previous() {
    if (phase_ == 0) return;
    if (threadIdx.x == 0) {
      ::cuda::atomic_ref<std::uint32_t, ::cuda::thread_scope_device> done(words_->done[phase_ - 1]);
      while (done.load(::cuda::memory_order_acquire) < previous_units_) __nanosleep(100);
    }
    __syncthreads();
  }

  // After the last phase: true in the block that exits last (then no block reads or writes the
  // words again), which has zeroed them for the next sort.
  __device__ bool finish() {
    Shared& sh = dynamic_shared<Shared>();
    __syncthreads();  // every thread has read the block's last unit
    if (threadIdx.x == 0) {
      ::cuda::atomic_ref<std::uint32_t, ::cuda::thread_scope_device> exited(words_->exited);
      const bool last_out = exited.fetch_add(1u, ::cuda::memory_order_acq_rel) == gridDim.x - 1;
      if (last_out) {
        words_->next = 0;
        words_->exited = 0;
        for (int p = 0; p < phase_; ++p) words_->done[p] = 0;
      }
      sh.ticket = last_out ? 1u : 0u;
    }
    __syncthreads();
    return sh.ticket != 0;
  }

 private:
  // Thread 0 takes the next unit for the block. The barrier before it also keeps the shared word
  // from being overwritten while a thread may still read the last one.
  __device__ std::uint32_t take() {
    Shared& sh = dynamic_shared<Shared>();
    __syncthreads();
    if (threadIdx.x == 0) sh.ticket = atomicAdd(&words_->next, 1u);
    __syncthreads();
    return sh.ticket;
  }

  TicketWords* words_;
  std::uint32_t held_ = 0;
  std::uint32_t begin_ = 0;  // the first unit of the phase being handed out
  std::uint32_t previous_units_ = 0;
  int phase_ = 0;
};

}  // namespace
}  // namespace particles::cuda::detail::exact
