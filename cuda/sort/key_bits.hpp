#pragma once
// The key of a (key, value) pair as the sorts see it: bits [begin_bit, end_bit) shifted down.
// __host__ __device__ so the CPU twins and the kernels share one definition.
#include <cstdint>

#include "core/host_device.hpp"

namespace particles::cuda {

struct KeyBits {
  int begin_bit;
  int end_bit;

  PARTICLES_HD int width() const { return end_bit - begin_bit; }
  PARTICLES_HD std::uint32_t mask() const {
    return width() >= 32 ? 0xffffffffu : ((1u << width()) - 1u);
  }
  // The sort key; begin_bit == 32 only occurs with an empty range, which callers skip.
  PARTICLES_HD std::uint32_t operator()(std::uint32_t key) const {
    return begin_bit >= 32 ? 0u : (key >> begin_bit) & mask();
  }
};

}  // namespace particles::cuda
