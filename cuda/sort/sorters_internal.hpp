#pragma once
// Factories of the concrete sorters, one per translation unit; make_sorter picks among them.
#include <cstddef>
#include <memory>

#include "cuda/sort/sorter.hpp"

namespace particles::cuda::detail {

std::unique_ptr<Sorter> make_radix_sorter(std::size_t capacity);
std::unique_ptr<OddEvenSorter> make_odd_even_sorter_impl(std::size_t capacity);
std::unique_ptr<Sorter> make_quicksort_sorter(std::size_t capacity);
std::unique_ptr<Sorter> make_cub_sorter(std::size_t capacity);

// Argument checks shared by every sorter (throw std::invalid_argument).
void check_sort_arguments(std::size_t n, std::size_t capacity, int begin_bit, int end_bit);

}  // namespace particles::cuda::detail
