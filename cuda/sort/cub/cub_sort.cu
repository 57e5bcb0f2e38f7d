// The baseline: cub::DeviceRadixSort::SortPairs behind the Sorter interface.
#include <cub/device/device_radix_sort.cuh>

#include "cuda/common/check.hpp"
#include "cuda/common/device_buffer.hpp"
#include "cuda/sort/sorters_internal.hpp"

namespace particles::cuda::detail {
namespace {

class CubSorter final : public Sorter {
 public:
  explicit CubSorter(std::size_t capacity)
      : capacity_(capacity), alt_keys_(capacity), alt_values_(capacity) {
    // The temporary size depends on n and the bit range; the full range at capacity is the
    // largest, so one allocation covers every later call.
    std::size_t bytes = 0;
    cub::DoubleBuffer<std::uint32_t> k(nullptr, nullptr), v(nullptr, nullptr);
    CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, k, v,
                                               static_cast<std::int64_t>(capacity), 0, 32));
    temp_ = DeviceBuffer<unsigned char>(bytes > 0 ? bytes : 1);
    // A sort of an odd number of passes ends in these buffers and is copied back.
    // compute-sanitizer's initcheck checks a captured frame's copy of them when the graph is
    // launched, before the first launch's sort has written them, so they start initialized.
    CUDA_CHECK(cudaMemset(alt_keys_.data(), 0, alt_keys_.size_bytes()));
    CUDA_CHECK(cudaMemset(alt_values_.data(), 0, alt_values_.size_bytes()));
  }
  Algorithm algorithm() const override { return Algorithm::cub; }
  std::size_t capacity() const override { return capacity_; }
  SorterTraits traits() const override { return {}; }  // the plain sort only

 private:
  void enqueue(const SortRequest& request, cudaStream_t stream) override {
    std::uint32_t* keys = request.keys;
    std::uint32_t* values = request.values;
    const std::size_t n = request.n;
    const int begin_bit = request.begin_bit;
    const int end_bit = request.end_bit;
    if (n < 2 || begin_bit == end_bit) return;
    // DoubleBuffer: CUB ping-pongs without its own copy; the selector it returns is decided on the
    // host from the pass count, so reading it needs no synchronisation.
    cub::DoubleBuffer<std::uint32_t> k(keys, alt_keys_.data()), v(values, alt_values_.data());
    std::size_t bytes = temp_.size();
    CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
        temp_.data(), bytes, k, v, static_cast<std::int64_t>(n), begin_bit, end_bit, stream));
    if (k.Current() != keys) {
      CUDA_CHECK(cudaMemcpyAsync(keys, k.Current(), n * 4, cudaMemcpyDeviceToDevice, stream));
      CUDA_CHECK(cudaMemcpyAsync(values, v.Current(), n * 4, cudaMemcpyDeviceToDevice, stream));
    }
  }

  std::size_t capacity_;
  DeviceBuffer<std::uint32_t> alt_keys_;
  DeviceBuffer<std::uint32_t> alt_values_;
  DeviceBuffer<unsigned char> temp_;
};

}  // namespace

std::unique_ptr<Sorter> make_cub_sorter(std::size_t capacity) {
  return std::make_unique<CubSorter>(capacity);
}

}  // namespace particles::cuda::detail
