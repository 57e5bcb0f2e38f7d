#pragma once
// Host-side parallel loops for the CPU backend: work split over all cores with std::thread, in a
// fixed way (contiguous chunks in index order), so a loop whose chunks are independent gives the
// same result as the serial loop, bit for bit; the CPU backend stays the GPU tests' oracle.
#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstddef>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#ifdef __linux__
#include <sched.h>
#endif

#include "core/worker_pool.hpp"

namespace particles {

// The variable that sets how many threads the CPU backend's loops use (unset: every core this
// process may run on). One knob for the pipeline's stages, its sort and the CPU compositor, so a
// run on 1, 2 or N cores is measured without rebuilding.
inline constexpr const char* kThreadsVariable = "PARTICLES_THREADS";
inline constexpr unsigned kMaxThreads = 1024;

// The cores this process may run on: its CPU affinity (taskset, a container's cpuset), which
// std::thread::hardware_concurrency ignores.
inline unsigned available_cores() {
#ifdef __linux__
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    return static_cast<unsigned>(std::max(1, CPU_COUNT(&set)));
  }
#endif
  return std::max(1u, std::thread::hardware_concurrency());
}

// Parses a PARTICLES_THREADS value: a whole number in [1, kMaxThreads].
inline unsigned parse_thread_count(std::string_view text) {
  unsigned n = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (text.empty() || error != std::errc{} || end != text.data() + text.size() || n < 1 ||
      n > kMaxThreads) {
    throw std::invalid_argument(std::string(kThreadsVariable) + "=\"" + std::string(text) +
                                "\": expected a thread count from 1 to " +
                                std::to_string(kMaxThreads));
  }
  return n;
}

// The threads a parallel loop uses: PARTICLES_THREADS when set, else every available core.
inline unsigned parallel_threads() {
  const char* value = std::getenv(kThreadsVariable);
  return value != nullptr ? parse_thread_count(value) : available_cores();
}

// Runs work(i) for every i in [0, count) on up to `threads` threads, each taking the next index
// in turn (for uneven work, such as the compositor's bands).
template <class Work>
void parallel_for_each_index(unsigned threads, std::size_t count, const Work& work) {
  const unsigned n = static_cast<unsigned>(std::min<std::size_t>(std::max(threads, 1u), count));
  if (n <= 1) {
    for (std::size_t i = 0; i < count; ++i) work(i);
    return;
  }
  std::atomic<std::size_t> next{0};
  auto loop = [&] {
    for (std::size_t i = next++; i < count; i = next++) work(i);
  };
  if (WorkerPool::shared().run(n - 1, loop)) return;
  // Where the shared pool cannot serve (a nested loop, another thread's loop, a forked child):
  // threads of this loop's own.
  std::vector<std::jthread> pool;
  pool.reserve(n - 1);
  for (unsigned t = 1; t < n; ++t) pool.emplace_back(loop);
  loop();
}

// Splits [0, count) into `chunks` contiguous ranges in index order and runs work(chunk, begin,
// end) for each on its own thread. Small loops run serially: a thread costs more than they do.
template <class Work>
void parallel_for_chunks(std::size_t count, unsigned chunks, const Work& work) {
  constexpr std::size_t kSerialBelow = 16384;
  if (count < kSerialBelow) chunks = 1;
  chunks = std::max(1u, chunks);
  parallel_for_each_index(chunks, chunks, [&](std::size_t c) {
    work(c, count * c / chunks, count * (c + 1) / chunks);
  });
}

}  // namespace particles
