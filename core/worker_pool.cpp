#include "core/worker_pool.hpp"

#include <unistd.h>

#include <chrono>

namespace particles {
namespace {

thread_local bool in_pool_task = false;

// Runs task as a pool task; returns what it threw, if anything.
std::exception_ptr run_task(const std::function<void()>& task) {
  in_pool_task = true;
  std::exception_ptr error;
  try {
    task();
  } catch (...) {
    error = std::current_exception();
  }
  in_pool_task = false;
  return error;
}

// Whether done() turned true within kSpin of polling. A parallel frame runs its loops back to
// back, so the next loop (or a helper's end) usually comes within microseconds, far sooner than
// a thread blocked in the kernel wakes; past kSpin the caller blocks.
constexpr std::chrono::microseconds kSpin{50};

template <class Done>
bool spin_until(const Done& done) {
  const auto end = std::chrono::steady_clock::now() + kSpin;
  while (!done()) {
    if (std::chrono::steady_clock::now() > end) return false;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#else
    std::this_thread::yield();
#endif
  }
  return true;
}

}  // namespace

WorkerPool& WorkerPool::shared() {
  static WorkerPool pool;
  return pool;
}

WorkerPool::WorkerPool() : owner_(getpid()) {}

WorkerPool::~WorkerPool() {
  {
    const std::scoped_lock lock(mutex_);
    stopping_ = true;
    posted_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

bool WorkerPool::run(unsigned helpers, const std::function<void()>& task) {
  if (in_pool_task || getpid() != owner_) return false;
  std::unique_lock call(one_call_, std::try_to_lock);
  if (!call.owns_lock()) return false;
  while (workers_.size() < helpers) workers_.emplace_back([this] { serve(); });
  {
    const std::scoped_lock lock(mutex_);
    task_ = &task;
    to_start_ = helpers;
    error_ = nullptr;
    unfinished_.store(helpers, std::memory_order_relaxed);
    posted_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_all();
  const std::exception_ptr mine = run_task(task);
  spin_until([this] { return unfinished_.load(std::memory_order_acquire) == 0; });
  std::unique_lock lock(mutex_);
  done_.wait(lock, [this] { return unfinished_.load(std::memory_order_relaxed) == 0; });
  task_ = nullptr;
  const std::exception_ptr error = mine ? mine : error_;
  lock.unlock();
  if (error) std::rethrow_exception(error);
  return true;
}

void WorkerPool::serve() {
  std::uint64_t seen = posted_.load(std::memory_order_acquire);
  std::unique_lock lock(mutex_);
  for (;;) {
    if (!stopping_ && to_start_ == 0) {
      lock.unlock();
      spin_until([&] { return posted_.load(std::memory_order_acquire) != seen; });
      lock.lock();
    }
    wake_.wait(lock, [this] { return stopping_ || to_start_ > 0; });
    if (stopping_) return;
    seen = posted_.load(std::memory_order_relaxed);
    --to_start_;
    const std::function<void()>& task = *task_;
    lock.unlock();
    const std::exception_ptr error = run_task(task);
    lock.lock();
    if (error && !error_) error_ = error;
    if (unfinished_.fetch_sub(1, std::memory_order_release) == 1) done_.notify_one();
  }
}

}  // namespace particles
