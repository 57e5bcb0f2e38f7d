// sort_bench: median time per sort call and throughput of radix, oddeven, quicksort and CUB, for
// N = 2^16 .. 2^24 (key, value) pairs, 32-bit and 16-bit keys, random and nearly sorted input,
// against the bytes-moved floor of an LSD radix sort at the measured copy bandwidth.
//
// Method: each sort call is captured once into a CUDA graph; a second graph restores the input
// (device-to-device copy from a pristine buffer). Per repetition: replay the restore, record an
// event, replay the sort, record an event; times are medians over the repetitions after warm-up
// replays. Every algorithm's output is checked against CUB's in the same run. A last table times
// quicksort against CUB on all six input distributions.
// Usage: sort_bench [--reps R] [--min-log2 K] [--max-log2 K] [--only radix|oddeven|quicksort]
//                   [--no-tuning]
// --only times that algorithm and CUB (the reference) alone, for profiler runs.
#include <algorithm>
#include <cstdio>
#include <iterator>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/key_distributions.hpp"
#include "bench/sort_bench_args.hpp"
#include "cuda/common/check.hpp"
#include "cuda/common/cuda_handles.hpp"
#include "cuda/common/device_buffer.hpp"
#include "cuda/common/graph_capture.hpp"
#include "cuda/sort/policy.hpp"
#include "cuda/sort/radix/radix_engine.hpp"
#include "cuda/sort/sorter.hpp"

using namespace particles::cuda;
using particles::cuda::testing::Distribution;

namespace {

int g_reps = 30;
constexpr int kWarmup = 3;

// A timing event made with its declaration, for vectors of them.
struct TimedEvent {
  Event event = Event::create(true);
  cudaEvent_t get() const noexcept { return event.get(); }
};

// `enqueue`'s work as a graph, or an empty one (timed without a graph) where it cannot be
// captured.
template <typename F>
GraphExec try_capture(cudaStream_t stream, F&& enqueue) {
  try {
    return capture_graph(stream, enqueue);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "capture failed: %s\n", e.what());
    return {};
  }
}

// Median microseconds of `sort` (enqueue on stream), input restored before each call.
template <typename F>
double time_sort(cudaStream_t stream, const GraphExec& restore, F&& sort) {
  const GraphExec g = try_capture(stream, sort);
  const bool graphed = static_cast<bool>(g);
  if (!graphed) std::fprintf(stderr, "  (timed without graph)\n");
  std::vector<TimedEvent> start(static_cast<std::size_t>(g_reps)),
      stop(static_cast<std::size_t>(g_reps));
  auto once = [&] {
    if (graphed) {
      CUDA_CHECK(cudaGraphLaunch(g.get(), stream));
    } else {
      sort();
    }
  };
  for (int w = 0; w < kWarmup; ++w) {
    CUDA_CHECK(cudaGraphLaunch(restore.get(), stream));
    once();
  }
  for (int r = 0; r < g_reps; ++r) {
    CUDA_CHECK(cudaGraphLaunch(restore.get(), stream));
    CUDA_CHECK(cudaEventRecord(start[static_cast<std::size_t>(r)].get(), stream));
    once();
    CUDA_CHECK(cudaEventRecord(stop[static_cast<std::size_t>(r)].get(), stream));
  }
  CUDA_CHECK(cudaStreamSynchronize(stream));
  std::vector<double> us;
  for (int r = 0; r < g_reps; ++r) {
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start[static_cast<std::size_t>(r)].get(),
                                    stop[static_cast<std::size_t>(r)].get()));
    us.push_back(1000.0 * ms);
  }
  std::nth_element(us.begin(), us.begin() + static_cast<long>(us.size() / 2), us.end());
  return us[us.size() / 2];
}

// Uploads `keys` (values: their input index) as the pristine input, and captures into `restore`
// the copies that put it back into the working buffers k, v before each timed call.
void stage_input(const std::vector<std::uint32_t>& keys, DeviceBuffer<std::uint32_t>& src_k,
                 DeviceBuffer<std::uint32_t>& src_v, DeviceBuffer<std::uint32_t>& k,
                 DeviceBuffer<std::uint32_t>& v, cudaStream_t stream, GraphExec& restore) {
  const std::size_t n = keys.size();
  std::vector<std::uint32_t> values(n);
  std::iota(values.begin(), values.end(), 0u);
  CUDA_CHECK(cudaMemcpy(src_k.data(), keys.data(), n * 4, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(src_v.data(), values.data(), n * 4, cudaMemcpyHostToDevice));
  restore = capture_graph(stream, [&] {
    CUDA_CHECK(cudaMemcpyAsync(k.data(), src_k.data(), n * 4, cudaMemcpyDeviceToDevice, stream));
    CUDA_CHECK(cudaMemcpyAsync(v.data(), src_v.data(), n * 4, cudaMemcpyDeviceToDevice, stream));
  });
}

double copy_bandwidth(cudaStream_t stream) {
  const std::size_t bytes = std::size_t{1} << 30;
  DeviceBuffer<unsigned char> a(bytes), b(bytes);
  CUDA_CHECK(cudaMemsetAsync(a.data(), 1, bytes, stream));
  TimedEvent s, e;
  std::vector<double> ms;
  for (int r = 0; r < 12; ++r) {
    CUDA_CHECK(cudaEventRecord(s.get(), stream));
    CUDA_CHECK(cudaMemcpyAsync(b.data(), a.data(), bytes, cudaMemcpyDeviceToDevice, stream));
    CUDA_CHECK(cudaEventRecord(e.get(), stream));
    CUDA_CHECK(cudaEventSynchronize(e.get()));
    float t = 0;
    CUDA_CHECK(cudaEventElapsedTime(&t, s.get(), e.get()));
    if (r >= 2) ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  return 2.0 * static_cast<double>(bytes) / (ms[ms.size() / 2] * 1e-3);  // read + write, B/s
}

}  // namespace

int main(int argc, char** argv) {
  particles::bench::SortBenchArgs args;
  try {
    args = particles::bench::parse_sort_bench_args(argc, argv);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "sort_bench: %s\n", e.what());
    return 2;
  }
  g_reps = args.reps;
  const int min_log2 = args.min_log2, max_log2 = args.max_log2;
  const bool tuning_table = args.tuning_table;
  const std::string& only = args.only;
  try {
    cudaDeviceProp prop{};
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    cudaStream_t stream = nullptr;
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    const double bw = copy_bandwidth(stream);
    std::printf(
        "# sort_bench on %s (%d SMs), copy bandwidth %.2f TB/s (read+write), %d reps, "
        "median us per call\n",
        prop.name, prop.multiProcessorCount, bw / 1e12, g_reps);

    const std::size_t capacity = std::size_t{1} << max_log2;
    const particles::Algorithm algorithms[] = {
        particles::Algorithm::radix, particles::Algorithm::oddeven, particles::Algorithm::quicksort,
        particles::Algorithm::cub};
    std::vector<std::unique_ptr<Sorter>> sorters;
    for (auto a : algorithms) sorters.push_back(make_sorter(a, capacity));
    RadixSortEngine tuning(capacity);
    DeviceBuffer<std::uint32_t> src_k(capacity), src_v(capacity), k(capacity), v(capacity);
    std::vector<std::uint32_t> ref_k(capacity), ref_v(capacity), got_k(capacity), got_v(capacity);

    for (auto dist : {Distribution::random, Distribution::nearly_sorted}) {
      for (int key_bits : {32, 16}) {
        std::printf("\n### %s input, %d-bit keys\n\n", testing::name(dist).c_str(), key_bits);
        std::printf(
            "| N | radix us | radix Gk/s | oddeven us | oddeven Gk/s | quicksort us | "
            "quicksort Gk/s | cub us | cub Gk/s | floor us | radix vs cub | oddeven vs cub "
            "| quick / cub time |\n");
        std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (int lg = min_log2; lg <= max_log2; ++lg) {
          const std::size_t n = std::size_t{1} << lg;
          GraphExec restore;
          stage_input(testing::make_keys(dist, n, 0, key_bits, 77 + static_cast<unsigned>(lg)),
                      src_k, src_v, k, v, stream, restore);
          double us[4] = {};
          bool ok[4] = {true, true, true, true};
          for (int a = 3; a >= 0; --a) {  // CUB first: its output is the reference
            if (a != 3 && !only.empty() && only != to_string(algorithms[a])) continue;
            Sorter& s = *sorters[static_cast<std::size_t>(a)];
            us[a] = time_sort(stream, restore,
                              [&] { s.sort(k.data(), v.data(), n, 0, key_bits, stream); });
            CUDA_CHECK(cudaMemcpy(got_k.data(), k.data(), n * 4, cudaMemcpyDeviceToHost));
            CUDA_CHECK(cudaMemcpy(got_v.data(), v.data(), n * 4, cudaMemcpyDeviceToHost));
            if (a == 3) {
              std::copy_n(got_k.begin(), n, ref_k.begin());
              std::copy_n(got_v.begin(), n, ref_v.begin());
            } else {
              ok[a] =
                  std::equal(got_k.begin(), got_k.begin() + static_cast<long>(n), ref_k.begin()) &&
                  std::equal(got_v.begin(), got_v.begin() + static_cast<long>(n), ref_v.begin());
            }
          }
          const int passes = (key_bits + 7) / 8;
          const double floor_us = static_cast<double>(n) * (16.0 * passes + 4.0) / bw * 1e6;
          auto gks = [&](double t) { return static_cast<double>(n) / (t * 1e-6) / 1e9; };
          std::printf(
              "| 2^%d | %.1f%s | %.2f | %.1f%s | %.2f | %.1f%s | %.2f | %.1f | %.2f | %.1f | "
              "%.2fx | %.2fx | %.2f |\n",
              lg, us[0], ok[0] ? "" : " WRONG", gks(us[0]), us[1], ok[1] ? "" : " WRONG",
              gks(us[1]), us[2], ok[2] ? "" : " WRONG", gks(us[2]), us[3], gks(us[3]), floor_us,
              us[3] / us[0], us[3] / us[1], us[2] / us[3]);
          std::fflush(stdout);
          if (tuning_table) {  // radix policy tuning, on stderr
            std::fprintf(stderr, "tuning %s %d-bit 2^%d:", testing::name(dist).c_str(), key_bits,
                         lg);
            for (std::size_t p = 0; p < std::size(kRadixPolicies); ++p) {
              const double t = time_sort(stream, restore, [&] {
                tuning.sort(k.data(), v.data(), n, 0, key_bits, stream,
                            {.policy = static_cast<int>(p)});
              });
              std::fprintf(stderr, "  %dx%d/%d %.1f", kRadixPolicies[p].threads,
                           kRadixPolicies[p].items_per_thread, kRadixPolicies[p].min_blocks_per_sm,
                           t);
            }
            // The MSD-first shortcut's share: the default policy with the shortcut off.
            tuning.set_shortcut(RadixShortcut::never);
            const double lsd_only = time_sort(
                stream, restore, [&] { tuning.sort(k.data(), v.data(), n, 0, key_bits, stream); });
            tuning.set_shortcut(RadixShortcut::by_size);
            std::fprintf(stderr, "  lsd-only %.1f", lsd_only);
            // Each bucket-sort policy of the shortcut, forced (where its block cannot hold the
            // fullest bucket the sort is plain LSD, which the time then shows).
            for (std::size_t b = 0; b < std::size(kRadixBucketPolicies); ++b) {
              tuning.set_shortcut(RadixShortcut::always);
              tuning.set_bucket_policy(static_cast<int>(b));
              const double t = time_sort(stream, restore, [&] {
                tuning.sort(k.data(), v.data(), n, 0, key_bits, stream);
              });
              std::fprintf(stderr, "  bucket %dx%d %.1f%s", kRadixBucketPolicies[b].threads,
                           kRadixBucketPolicies[b].items_per_thread, t,
                           tuning.last_sort_took_shortcut() ? "" : " (lsd)");
            }
            tuning.set_shortcut(RadixShortcut::by_size);
            tuning.set_bucket_policy(-1);
            std::fprintf(stderr, " us\n");
          }
        }
      }
    }
    // Quicksort's target holds on every input: its time against CUB's on all six distributions
    // (even powers of two, to keep the run short).
    if (only.empty() || only == "quicksort") {
      std::printf("\n### quicksort vs cub, every distribution, 32-bit keys\n\n");
      std::printf(
          "| N | input | quicksort us | cub us | quick / cub time |\n|---|---|---|---|---|\n");
    }
    Sorter& quick = *sorters[2];
    Sorter& cub = *sorters[3];
    for (int lg = min_log2; lg <= max_log2 && (only.empty() || only == "quicksort"); ++lg) {
      if (lg % 2 != 0) continue;
      const std::size_t n = std::size_t{1} << lg;
      for (auto dist :
           {Distribution::random, Distribution::nearly_sorted, Distribution::sorted,
            Distribution::reversed, Distribution::few_unique, Distribution::all_equal}) {
        GraphExec restore;
        stage_input(testing::make_keys(dist, n, 0, 32, 177 + static_cast<unsigned>(lg)), src_k,
                    src_v, k, v, stream, restore);
        const double cub_us =
            time_sort(stream, restore, [&] { cub.sort(k.data(), v.data(), n, 0, 32, stream); });
        CUDA_CHECK(cudaMemcpy(ref_k.data(), k.data(), n * 4, cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(ref_v.data(), v.data(), n * 4, cudaMemcpyDeviceToHost));
        const double quick_us =
            time_sort(stream, restore, [&] { quick.sort(k.data(), v.data(), n, 0, 32, stream); });
        CUDA_CHECK(cudaMemcpy(got_k.data(), k.data(), n * 4, cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(got_v.data(), v.data(), n * 4, cudaMemcpyDeviceToHost));
        const bool ok =
            std::equal(got_k.begin(), got_k.begin() + static_cast<long>(n), ref_k.begin()) &&
            std::equal(got_v.begin(), got_v.begin() + static_cast<long>(n), ref_v.begin());
        std::printf("| 2^%d | %s | %.1f%s | %.1f | %.2f |\n", lg, testing::name(dist).c_str(),
                    quick_us, ok ? "" : " WRONG", cub_us, quick_us / cub_us);
        std::fflush(stdout);
      }
    }
    CUDA_CHECK(cudaStreamDestroy(stream));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sort_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
