// The factory, and the argument checks every sorter shares.
#include <stdexcept>
#include <string>

#include "cuda/sort/sorter.hpp"
#include "cuda/sort/sorters_internal.hpp"

namespace particles::cuda {

Sorter::~Sorter() = default;

void Sorter::sort(const SortRequest& request, cudaStream_t stream) {
  check_sort_request(request, capacity(), traits(), to_string(algorithm()));
  enqueue(request, stream);
}

std::unique_ptr<Sorter> make_sorter(Algorithm algorithm, std::size_t capacity) {
  switch (algorithm) {
    case Algorithm::radix:
      return detail::make_radix_sorter(capacity);
    case Algorithm::oddeven:
      return detail::make_odd_even_sorter_impl(capacity);
    case Algorithm::quicksort:
      return detail::make_quicksort_sorter(capacity);
    case Algorithm::cub:
      return detail::make_cub_sorter(capacity);
    case Algorithm::automatic:
      throw std::invalid_argument(
          "no sorter for 'auto': it chooses among the sorters each frame (DevicePipeline); make "
          "one of radix, oddeven, quicksort or cub");
  }
  throw std::invalid_argument("unknown sort algorithm " +
                              std::to_string(static_cast<int>(algorithm)));
}

std::unique_ptr<OddEvenSorter> make_odd_even_sorter(std::size_t capacity) {
  return detail::make_odd_even_sorter_impl(capacity);
}

namespace detail {

void check_sort_arguments(std::size_t n, std::size_t capacity, int begin_bit, int end_bit) {
  if (n > capacity)
    throw std::invalid_argument("sort of " + std::to_string(n) + " pairs exceeds capacity " +
                                std::to_string(capacity));
  if (begin_bit < 0 || end_bit > 32 || begin_bit > end_bit)
    throw std::invalid_argument("bad key bit range [" + std::to_string(begin_bit) + ", " +
                                std::to_string(end_bit) + ")");
}

}  // namespace detail
}  // namespace particles::cuda
