// The shared worker pool behind the CPU backend's parallel loops (core/worker_pool.hpp): every
// index runs once, on the pool's threads and the caller's; a nested loop, a loop from another
// thread and an exception are served too.
#include "core/worker_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/parallel_for.hpp"

namespace particles {
namespace {

TEST(WorkerPool, EveryIndexRunsOnceOnSeveralThreadsAndThePoolIsKept) {
  for (int round = 0; round < 50; ++round) {
    std::vector<std::atomic<int>> hits(1000);
    parallel_for_each_index(4, hits.size(), [&](std::size_t i) { ++hits[i]; });
    for (std::size_t i = 0; i < hits.size(); ++i) ASSERT_EQ(hits[i].load(), 1) << i;
  }
  // A pool's threads are started once: 20 calls with 3 helpers run on the caller and at most 3
  // other threads (a helper that is done may take up a slot of the same call again).
  WorkerPool pool;
  std::mutex mutex;
  std::set<std::thread::id> threads;
  for (int round = 0; round < 20; ++round) {
    ASSERT_TRUE(pool.run(3, [&] {
      const std::scoped_lock lock(mutex);
      threads.insert(std::this_thread::get_id());
    }));
  }
  EXPECT_GE(threads.size(), 2u);
  EXPECT_LE(threads.size(), 4u);
}

TEST(WorkerPool, ChunksCoverTheRangeInOrderOnAnyThreadCount) {
  for (unsigned chunks : {1u, 2u, 3u, 7u}) {
    constexpr std::size_t n = 100000;
    std::vector<int> owner(n, -1);
    parallel_for_chunks(n, chunks, [&](std::size_t c, std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) owner[i] = static_cast<int>(c);
    });
    for (std::size_t i = 1; i < n; ++i) ASSERT_LE(owner[i - 1], owner[i]) << i;
    EXPECT_EQ(owner.front(), 0);
    EXPECT_EQ(owner.back(), static_cast<int>(chunks) - 1);
  }
}

TEST(WorkerPool, ANestedLoopRunsOnThreadsOfItsOwn) {
  std::vector<std::atomic<int>> hits(64 * 64);
  parallel_for_each_index(2, 64, [&](std::size_t outer) {
    parallel_for_each_index(2, 64, [&](std::size_t inner) { ++hits[outer * 64 + inner]; });
  });
  for (std::size_t i = 0; i < hits.size(); ++i) ASSERT_EQ(hits[i].load(), 1) << i;
}

TEST(WorkerPool, LoopsFromSeveralThreadsAtOnceEachRunWhole) {
  std::vector<std::jthread> callers;
  std::vector<std::vector<std::atomic<int>>> hits(4);
  for (auto& h : hits) h = std::vector<std::atomic<int>>(5000);
  for (std::size_t t = 0; t < hits.size(); ++t) {
    callers.emplace_back([&, t] {
      for (int round = 0; round < 20; ++round) {
        parallel_for_each_index(3, hits[t].size(), [&](std::size_t i) { ++hits[t][i]; });
      }
    });
  }
  callers.clear();  // joined
  for (const auto& h : hits) {
    for (std::size_t i = 0; i < h.size(); ++i) ASSERT_EQ(h[i].load(), 20) << i;
  }
}

TEST(WorkerPool, AnExceptionReachesTheCallerAndThePoolServesOn) {
  for (int round = 0; round < 10; ++round) {
    EXPECT_THROW(parallel_for_each_index(3, 300,
                                         [&](std::size_t i) {
                                           if (i == 150) throw std::runtime_error("index 150");
                                         }),
                 std::runtime_error);
  }
  std::atomic<int> sum{0};
  parallel_for_each_index(3, 300, [&](std::size_t i) { sum += static_cast<int>(i); });
  EXPECT_EQ(sum.load(), 299 * 300 / 2);
}

}  // namespace
}  // namespace particles
