#pragma once
// Host-side parallel loops for the CPU backend: work split over all cores with std::thread, in a
// fixed way (contiguous chunks in index order), so a loop whose chunks are independent gives the
// same result as the serial loop, bit for bit; the CPU backend stays the GPU tests' oracle.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace particles {

// The threads a parallel loop uses: every core.
inline unsigned parallel_threads() {
  return std::max(1u, std::thread::hardware_concurrency());
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
