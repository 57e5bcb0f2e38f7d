#pragma once
// Sortedness probe: the number of descents, i.e. adjacent pairs (i, i+1) with
// key(i) > key(i+1) by bits [begin_bit, end_bit). 0 means sorted; a random permutation has about
// n/2. Used by the adaptive policy (choose odd-even when few) and by the tests.
//
// Chosen form: a free function, no scratch. It zeroes *d_count_out (cudaMemsetAsync) and then one
// grid-stride kernel reduces per block (warp shuffles, then shared memory) and adds each block's
// total with one atomicAdd. The result stays on the device (no host sync): read it after the
// stream passed this point. Graph-capturable.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace particles::cuda {

void count_descents(const std::uint32_t* keys, std::size_t n, int begin_bit, int end_bit,
                    std::uint32_t* d_count_out, cudaStream_t stream);

}  // namespace particles::cuda
