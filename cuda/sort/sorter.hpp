#pragma once
// The one host-side interface to every GPU sort of the project. Host-only: no kernels here, so
// plain C++ translation units (g++ with cuda_runtime.h on the include path) can include it.
//
// Contract of Sorter::sort: sorts n (key, value) pairs in place (the result ends in keys/values),
// ascending by bits [begin_bit, end_bit) of the key, stably (equal keys keep their input order),
// asynchronously on `stream`: no host synchronisation, no allocation, nothing copied to the host,
// so a call can be captured into a CUDA graph. Requires n <= capacity() and
// 0 <= begin_bit <= end_bit <= 32. Temporary storage is owned by the sorter, sized once for its
// capacity at construction; a sorter must not be used by two streams at the same time.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/algorithm.hpp"

namespace particles::cuda {

// Each sorter is one of the user's algorithms (core/algorithm.hpp, whose table names them
// everywhere); Algorithm::automatic is not a sorter but the pipeline choosing among them.
class Sorter {
 public:
  virtual ~Sorter();
  virtual Algorithm algorithm() const = 0;
  virtual std::size_t capacity() const = 0;
  virtual void sort(std::uint32_t* keys, std::uint32_t* values, std::size_t n, int begin_bit,
                    int end_bit, cudaStream_t stream) = 0;
};

// Throws std::invalid_argument for Algorithm::automatic, which no one sorter implements.
std::unique_ptr<Sorter> make_sorter(Algorithm algorithm, std::size_t capacity);

// What the odd-even merge-split sort did in its last call, written on the device at the end of
// each sort() (read it after the stream reached that point, e.g. with cudaMemcpyAsync + sync).
struct OddEvenStatus {
  std::int32_t converged;  // 1: sorted tiles plus one round of merge-splits finished the sort
  std::int32_t phases;     // merge-split phases run: 2 (one even + odd round) or 0
  std::int32_t fell_back;  // 1: one round could not be proved enough; a merge sort of the
                           // sorted tiles, in the same kernel, finished the job
  std::int32_t reserved;
};

class OddEvenSorter : public Sorter {
 public:
  // Device pointer, valid for the sorter's lifetime, overwritten by every sort().
  virtual const OddEvenStatus* device_status() const = 0;
  // As sort(), but when enable is not null every kernel first reads *enable and the sort does
  // nothing when it is 0: a path chosen on the device, in a fixed graph, without a host round
  // trip (the pipeline's auto mode).
  virtual void sort_enabled(std::uint32_t* keys, std::uint32_t* values, std::size_t n,
                            int begin_bit, int end_bit, cudaStream_t stream,
                            const std::int32_t* enable) = 0;
};

std::unique_ptr<OddEvenSorter> make_odd_even_sorter(std::size_t capacity);

}  // namespace particles::cuda
