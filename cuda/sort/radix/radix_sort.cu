// Our LSD radix sort: the engine that plans a sort and launches its kernels (radix_kernels.cuh),
// and the radix Sorter. See radix_engine.hpp for the plan; block_radix.cuh for the ranking.
#include <algorithm>
#include <cstddef>
#include <iterator>
#include <stdexcept>
#include <utility>

#include "cuda/common/check.hpp"
#include "cuda/common/launch_grid.hpp"
#include "cuda/sort/copy_kernels.cuh"
#include "cuda/sort/radix/radix_bucket_sort.cuh"
#include "cuda/sort/radix/radix_engine.hpp"
#include "cuda/sort/radix/radix_kernels.cuh"
#include "cuda/sort/sorters_internal.hpp"

namespace particles::cuda {
namespace detail {
namespace {

template <RadixPolicy P>
constexpr std::size_t onesweep_shared_bytes() {
  return sizeof(
      OnesweepShared<P.threads, P.items_per_thread, static_cast<Multisplit>(P.multisplit)>);
}

template <RadixPolicy P, bool Routed>
constexpr auto onesweep_kernel_of() {
  return radix_onesweep_kernel<P.threads, P.items_per_thread, P.min_blocks_per_sm,
                               static_cast<Multisplit>(P.multisplit), Routed>;
}

template <RadixPolicy P>
void prepare_onesweep() {
  for (auto kernel : {onesweep_kernel_of<P, false>(), onesweep_kernel_of<P, true>()})
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(onesweep_shared_bytes<P>())));
}

template <RadixPolicy P>
void launch_onesweep(const OnesweepArgs& args, std::size_t tiles, bool routed,
                     cudaStream_t stream) {
  const auto kernel = routed ? onesweep_kernel_of<P, true>() : onesweep_kernel_of<P, false>();
  kernel<<<static_cast<unsigned>(tiles), P.threads, onesweep_shared_bytes<P>(), stream>>>(args);
  CUDA_CHECK_LAUNCH("radix_onesweep_kernel", stream);
}

// Compile-time index over kRadixPolicies, so each policy's kernel is instantiated once.
template <std::size_t... I>
void prepare_all(std::index_sequence<I...>) {
  (prepare_onesweep<kRadixPolicies[I]>(), ...);
}
template <std::size_t... I>
void launch_policy(std::size_t index, const OnesweepArgs& args, std::size_t tiles, bool routed,
                   cudaStream_t stream, std::index_sequence<I...>) {
  ((index == I ? launch_onesweep<kRadixPolicies[I]>(args, tiles, routed, stream) : void()), ...);
}
constexpr auto kPolicyIndices = std::make_index_sequence<std::size(kRadixPolicies)>();

template <RadixBucketPolicy P, bool Spread>
constexpr auto bucket_kernel_of() {
  return radix_bucket_sort_kernel<P.threads, P.items_per_thread, P.min_blocks_per_sm, Spread>;
}
template <RadixBucketPolicy P>
constexpr std::size_t bucket_shared_bytes() {
  return sizeof(BucketSortShared<P.threads, P.items_per_thread>);
}
template <RadixBucketPolicy P>
void prepare_bucket_sort() {
  for (auto kernel : {bucket_kernel_of<P, true>(), bucket_kernel_of<P, false>()})
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(bucket_shared_bytes<P>())));
}
template <std::size_t... I>
void prepare_bucket_sorts(std::index_sequence<I...>) {
  (prepare_bucket_sort<kRadixBucketPolicies[I]>(), ...);
}
// spread: whether buckets may be ranked by sub-buckets (radix_bucket_sort.cuh); sorts of 2 passes
// leave at most 8 bits below the partition digit, which LSD ranks faster.
template <RadixBucketPolicy P>
void launch_bucket_sort(const BucketSortArgs& args, unsigned buckets, bool spread,
                        cudaStream_t stream) {
  const auto kernel = spread ? bucket_kernel_of<P, true>() : bucket_kernel_of<P, false>();
  kernel<<<buckets, P.threads, bucket_shared_bytes<P>(), stream>>>(args);
  CUDA_CHECK_LAUNCH("radix_bucket_sort_kernel", stream);
}
template <std::size_t... I>
void launch_bucket_policy(std::size_t index, const BucketSortArgs& args, unsigned buckets,
                          bool spread, cudaStream_t stream, std::index_sequence<I...>) {
  ((index == I ? launch_bucket_sort<kRadixBucketPolicies[I]>(args, buckets, spread, stream)
               : void()),
   ...);
}
constexpr auto kBucketPolicyIndices = std::make_index_sequence<std::size(kRadixBucketPolicies)>();

// Our radix sort behind the Sorter interface, honouring every SortRequest option (the frame's
// sorts). A plain 32-bit sort of many pairs may end with the odd-even window sort instead of the
// two low passes (RadixSortOptions::window_finish), decided on the device; a request with any
// option does not: the window sort can neither write a final target nor start from a floor, and
// its own enable word is the engine's verdict, which a disabled sort would leave stale.
class RadixSorter final : public Sorter {
 public:
  explicit RadixSorter(std::size_t capacity)
      : engine_(capacity),
        window_(capacity >= kRadixWindowMinPairs ? make_odd_even_sorter_impl(capacity) : nullptr),
        window_finish_(1) {
    CUDA_CHECK(cudaMemset(window_finish_.data(), 0, sizeof(std::int32_t)));
  }
  Algorithm algorithm() const override { return Algorithm::radix; }
  std::size_t capacity() const override { return engine_.capacity(); }
  SorterTraits traits() const override {
    return {.enable = true, .final_values = true, .key_floor = true, .values_are_indices = true};
  }

 private:
  void enqueue(const SortRequest& r, cudaStream_t stream) override {
    const bool plain = r.enable == nullptr && r.final_values == nullptr && r.key_floor == nullptr &&
                       !r.values_are_indices;
    if (plain && window_ && r.n >= kRadixWindowMinPairs && r.begin_bit == 0 && r.end_bit == 32) {
      engine_.set_shortcut(RadixShortcut::by_size);  // not planned with a window finish
      engine_.sort(r.keys, r.values, r.n, 0, 32, stream, {.window_finish = window_finish_.data()});
      window_->sort({.keys = r.keys,
                     .values = r.values,
                     .n = r.n,
                     .begin_bit = 0,
                     .end_bit = 32,
                     .enable = window_finish_.data()},
                    stream);
      return;
    }
    engine_.set_shortcut(r.top_digit_crowded ? RadixShortcut::never : RadixShortcut::by_size);
    engine_.sort(r.keys, r.values, r.n, r.begin_bit, r.end_bit, stream,
                 {.enable = r.enable,
                  .final_values = r.final_values,
                  .key_floor = r.key_floor,
                  .values_are_indices = r.values_are_indices,
                  .keys_needed = r.keys_needed});
  }

  RadixSortEngine engine_;
  std::unique_ptr<OddEvenSorter> window_;     // only for capacities the window finish can use
  DeviceBuffer<std::int32_t> window_finish_;  // the engine's verdict, the window sort's enable
};

}  // namespace

std::unique_ptr<Sorter> make_radix_sorter(std::size_t capacity) {
  return std::make_unique<RadixSorter>(capacity);
}

}  // namespace detail

RadixSortEngine::RadixSortEngine(std::size_t capacity)
    : capacity_(capacity), alt_keys_(capacity), alt_values_(capacity) {
  if (capacity > detail::kMaxPairs)
    throw std::invalid_argument("radix sort capacity above 2^30 - 1 pairs");
  sm_count_ = static_cast<int>(detail::sm_count());
  detail::prepare_all(detail::kPolicyIndices);
  detail::prepare_bucket_sorts(detail::kBucketPolicyIndices);
  int smallest_tile = kRadixPolicies[0].tile();
  for (const RadixPolicy& p : kRadixPolicies) smallest_tile = std::min(smallest_tile, p.tile());
  max_tiles_ = std::max<std::size_t>(
      1, (capacity + static_cast<std::size_t>(smallest_tile) - 1) / smallest_tile);
  // The status words start at zero once (their epoch tells sorts apart), as does the control.
  control_ = DeviceBuffer<detail::RadixControl>(1);
  status_ = DeviceBuffer<std::uint64_t>(static_cast<std::size_t>(detail::kMaxPasses) * max_tiles_ *
                                        kRadixBuckets);
  CUDA_CHECK(cudaMemset(control_.data(), 0, control_.size_bytes()));
  CUDA_CHECK(cudaMemset(status_.data(), 0, status_.size() * sizeof(std::uint64_t)));
}

int RadixSortEngine::last_partition_pass() const {
  if (!shortcut_planned_) return -1;
  std::int32_t pass = -1;
  CUDA_CHECK(
      cudaMemcpy(&pass, &control_.data()->partition_pass, sizeof pass, cudaMemcpyDeviceToHost));
  return pass;
}

int RadixSortEngine::last_run_passes() const {
  if (!routed_) return -1;
  std::int32_t runs = 0;
  CUDA_CHECK(cudaMemcpy(&runs, &control_.data()->route.runs, sizeof runs, cudaMemcpyDeviceToHost));
  return runs;
}

// One sort's host plan: what RadixSortEngine::sort decided before it enqueues anything.
struct RadixSortEngine::Run {
  std::uint32_t n = 0;
  int begin_bit = 0;
  int end_bit = 0;
  int passes = 0;
  bool routed = false;         // the frame's plan: passes with a shared digit skipped
  bool window_finish = false;  // the library's: the two top passes, then the odd-even window
  int bucket_policy = -1;      // the library's MSD-first shortcut, or -1: not planned
  std::size_t policy_index = 0;
  std::size_t tiles = 0;
  bool parity_matters = false;  // the result must end in the caller's arrays
};

RadixSortEngine::Run RadixSortEngine::plan(std::size_t n, int begin_bit, int end_bit,
                                           const RadixSortOptions& options) const {
  Run run;
  run.n = static_cast<std::uint32_t>(n);
  run.begin_bit = begin_bit;
  run.end_bit = end_bit;
  run.passes = (end_bit - begin_bit + kRadixBits - 1) / kRadixBits;
  // Routed sorts skip shared digits; the shortcut is not planned for them (its partition already
  // stands in for every other pass).
  run.routed = options.routed();
  run.window_finish = options.window_finish != nullptr;  // checked by check_radix_options
  run.bucket_policy = run.routed || run.window_finish
                          ? -1
                          : radix_bucket_policy_for(n, run.passes, shortcut_, bucket_policy_);
  run.policy_index = radix_tile_policy_for(n, options.policy);
  const auto tile = static_cast<std::size_t>(kRadixPolicies[run.policy_index].tile());
  run.tiles = (n + tile - 1) / tile;
  run.parity_matters = options.keys_needed || options.final_values == nullptr;
  return run;
}

void RadixSortEngine::sort(std::uint32_t* keys, std::uint32_t* values, std::size_t n, int begin_bit,
                           int end_bit, cudaStream_t stream, const RadixSortOptions& options) {
  detail::check_sort_arguments(n, capacity_, begin_bit, end_bit);
  check_radix_options(options, n, begin_bit, end_bit);
  shortcut_planned_ = false;
  routed_ = false;
  if (n < 2 || begin_bit == end_bit) {
    enqueue_empty_sort(values, n, options, stream);
    return;
  }
  const Run run = plan(n, begin_bit, end_bit, options);
  routed_ = run.routed;
  shortcut_planned_ = run.bucket_policy >= 0;
  enqueue_histogram(run, keys, options, stream);
  enqueue_passes(run, keys, values, options, stream);
  if (shortcut_planned_) enqueue_shortcut_buckets(run, keys, values, options, stream);
  // An odd pass count leaves the result in our buffers (routed: an odd count of run passes,
  // which with an even pass count the route never leaves; radix_pass_route.hpp).
  if (run.passes % 2 == 1 && run.parity_matters)
    enqueue_copy_back(run, keys, values, options, stream);
}

void RadixSortEngine::enqueue_empty_sort(std::uint32_t* values, std::size_t n,
                                         const RadixSortOptions& options, cudaStream_t stream) {
  // Already in order; the values may still have to move.
  if (options.values_are_indices && n == 1)
    CUDA_CHECK(cudaMemsetAsync(values, 0, sizeof(std::uint32_t), stream));  // the index 0
  if (options.final_values != nullptr && n > 0) {
    detail::copy_values_to_kernel<<<1, 256, 0, stream>>>(
        values, options.final_values, static_cast<std::uint32_t>(n), options.enable);
    CUDA_CHECK_LAUNCH("copy_values_to_kernel", stream);
  }
}

void RadixSortEngine::enqueue_histogram(const Run& run, const std::uint32_t* keys,
                                        const RadixSortOptions& options, cudaStream_t stream) {
  detail::RadixControl* control = control_.data();
  CUDA_CHECK(cudaMemsetAsync(control, 0, offsetof(detail::RadixControl, epoch), stream));
  const detail::RouteDecision decide{
      run.bucket_policy >= 0
          ? static_cast<std::uint32_t>(kRadixBucketPolicies[run.bucket_policy].capacity())
          : 0u,
      run.parity_matters,
      options.final_values != nullptr || options.values_are_indices,
      &control->blocks_done,
      &control->partition_pass,
      &control->lsd_on,
      &control->route,
      control->tile_counters,
      options.window_finish,
      &control->window_skip,
      run.n};
  std::uint32_t* hist = &control->hist[0][0];
  const unsigned hist_blocks = static_cast<unsigned>(
      std::min<std::size_t>(static_cast<std::size_t>(sm_count_) * kHistogramBlocksPerSm,
                            (run.n + 4 * kHistogramThreads - 1) / (4 * kHistogramThreads)));
  if (run.routed) {
    detail::radix_histogram_kernel<true><<<hist_blocks, kHistogramThreads, 0, stream>>>(
        keys, run.n, run.begin_bit, run.end_bit, hist, &control->epoch, options.enable,
        options.key_floor, decide);
  } else {
    detail::radix_histogram_kernel<false><<<hist_blocks, kHistogramThreads, 0, stream>>>(
        keys, run.n, run.begin_bit, run.end_bit, hist, &control->epoch, options.enable, nullptr,
        decide);
  }
  CUDA_CHECK_LAUNCH("radix_histogram_kernel", stream);
}

void RadixSortEngine::enqueue_passes(const Run& run, std::uint32_t* keys, std::uint32_t* values,
                                     const RadixSortOptions& options, cudaStream_t stream) {
  // Unrouted: keys/values ping-pong between the caller's arrays and our buffers as the host
  // says; with the shortcut planned every pass is launched, and on the device all run (plain
  // LSD) or only the partition pass, reading the caller's arrays. Routed: every pass gets both
  // homes and runs or returns as the route says.
  detail::RadixControl* control = control_.data();
  const bool shortcut_planned = run.bucket_policy >= 0;
  std::uint32_t* src_k = keys;
  std::uint32_t* src_v = values;
  std::uint32_t* dst_k = alt_keys_.data();
  std::uint32_t* dst_v = alt_values_.data();
  for (int pass = 0; pass < run.passes; ++pass) {
    const int shift = run.begin_bit + pass * kRadixBits;
    const bool top = pass == run.passes - 1;
    const bool odd = pass % 2 == 1;
    const detail::OnesweepArgs args{
        run.routed ? keys : src_k,
        run.routed ? values : src_v,
        run.routed ? alt_keys_.data() : dst_k,
        run.routed ? alt_values_.data() : dst_v,
        run.n,
        shift,
        std::min(kRadixBits, run.end_bit - shift),
        &control->hist[pass][0],
        control->tile_counters + pass,
        status_.data() + static_cast<std::size_t>(pass) * max_tiles_ * kRadixBuckets,
        &control->epoch,
        options.enable,
        run.routed || top ? options.final_values : nullptr,
        shortcut_planned                ? &control->partition_pass
        : run.window_finish && pass < 2 ? &control->window_skip
                                        : nullptr,
        pass,
        shortcut_planned && odd,  // odd passes read our buffers; a partition, the caller's
        &control->route,
        options.key_floor,
        options.values_are_indices};
    detail::launch_policy(run.policy_index, args, run.tiles, run.routed, stream,
                          detail::kPolicyIndices);
    std::swap(src_k, dst_k);
    std::swap(src_v, dst_v);
  }
}

void RadixSortEngine::enqueue_shortcut_buckets(const Run& run, std::uint32_t* keys,
                                               std::uint32_t* values,
                                               const RadixSortOptions& options,
                                               cudaStream_t stream) {
  detail::RadixControl* control = control_.data();
  const detail::BucketSortArgs args{alt_keys_.data(), alt_values_.data(),      keys,
                                    values,           options.final_values,    &control->hist[0][0],
                                    run.begin_bit,    &control->partition_pass};
  detail::launch_bucket_policy(static_cast<std::size_t>(run.bucket_policy), args, kRadixBuckets,
                               run.passes > 2, stream, detail::kBucketPolicyIndices);
}

void RadixSortEngine::enqueue_copy_back(const Run& run, std::uint32_t* keys, std::uint32_t* values,
                                        const RadixSortOptions& options, cudaStream_t stream) {
  detail::RadixControl* control = control_.data();
  const unsigned blocks = static_cast<unsigned>(
      std::min<std::size_t>(static_cast<std::size_t>(sm_count_) * 4, (run.n + 255) / 256));
  // With final_values the values are already where they belong; only the keys come back.
  detail::copy_pairs_kernel<<<blocks, 256, 0, stream>>>(
      alt_keys_.data(), options.final_values != nullptr ? nullptr : alt_values_.data(), keys,
      values, run.n,
      run.routed               ? &control->route.copy_back
      : run.bucket_policy >= 0 ? &control->lsd_on
                               : options.enable);
  CUDA_CHECK_LAUNCH("copy_pairs_kernel", stream);
}

}  // namespace particles::cuda
