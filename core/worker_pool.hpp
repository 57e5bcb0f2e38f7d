#pragma once
// The threads the CPU backend's parallel loops run on, started once and kept: a frame runs about
// ten loops, and starting and joining threads for each one cost more than some of the loops
// (docs/performance.md, "Threads started once").
#include <sys/types.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace particles {

class WorkerPool {
 public:
  // The pool every parallel loop of the process shares.
  static WorkerPool& shared();

  WorkerPool();
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Runs task() on `helpers` of the pool's threads (started as needed) and on the calling thread
  // at once, and returns when every one has returned, rethrowing the first exception any threw.
  // Returns false, having run nothing, where the pool cannot serve the call: from inside one of
  // its tasks (a nested loop), while another thread's call runs, or in a child process forked
  // after the pool started (its threads are not there). The caller then runs the work another
  // way.
  bool run(unsigned helpers, const std::function<void()>& task);

 private:
  void serve();

  std::mutex mutex_;
  std::condition_variable wake_;  // workers: a task, or the end
  std::condition_variable done_;  // the caller: every helper has finished
  std::vector<std::thread> workers_;
  const std::function<void()>* task_ = nullptr;
  unsigned to_start_ = 0;  // helpers still to take up the current task
  // Written under the mutex, also polled without it: helpers not yet done with the current task,
  // and the number of tasks (and of the end) posted so far.
  std::atomic<unsigned> unfinished_{0};
  std::atomic<std::uint64_t> posted_{0};
  std::exception_ptr error_;
  bool stopping_ = false;
  std::mutex one_call_;  // held by the call in progress
  pid_t owner_;          // the process whose threads these are
};

}  // namespace particles
