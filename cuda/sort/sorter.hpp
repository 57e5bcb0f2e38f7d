#pragma once
// The one host-side interface to every GPU sort of the project. Host-only: no kernels here, so
// plain C++ translation units (g++ with cuda_runtime.h on the include path) can include it.
//
// Contract of Sorter::sort: sorts n (key, value) pairs in place (the result ends in keys/values,
// or the values at SortRequest::final_values), ascending by bits [begin_bit, end_bit) of the key,
// stably (equal keys keep their input order), asynchronously on `stream`: no host
// synchronisation, no allocation, nothing copied to the host, so a call can be captured into a
// CUDA graph. Requires n <= capacity() and 0 <= begin_bit <= end_bit <= 32, and only options the
// sorter's traits() honour (sort_request.hpp): anything else throws std::invalid_argument before
// any work is enqueued. Temporary storage is owned by the sorter, sized once for its capacity at
// construction; a sorter must not be used by two streams at the same time.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/algorithm.hpp"
#include "cuda/sort/sort_request.hpp"

namespace particles::cuda {

// Each sorter is one of the user's algorithms (core/algorithm.hpp, whose table names them
// everywhere); Algorithm::automatic is not a sorter but the pipeline choosing among them.
class Sorter {
 public:
  virtual ~Sorter();
  virtual Algorithm algorithm() const = 0;
  virtual std::size_t capacity() const = 0;
  // The SortRequest options this sorter honours; it refuses the others.
  virtual SorterTraits traits() const = 0;

  // Checks the request against capacity() and traits(), then enqueues the sort.
  void sort(const SortRequest& request, cudaStream_t stream);
  // The plain sort: no options.
  void sort(std::uint32_t* keys, std::uint32_t* values, std::size_t n, int begin_bit, int end_bit,
            cudaStream_t stream) {
    sort({.keys = keys, .values = values, .n = n, .begin_bit = begin_bit, .end_bit = end_bit},
         stream);
  }

 private:
  // A request sort() checked; only the work is left.
  virtual void enqueue(const SortRequest& request, cudaStream_t stream) = 0;
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

// The odd-even sorter with its diagnostic word, for the tests and the radix sorter's window
// finish; the frame needs only the Sorter (make_sorter).
class OddEvenSorter : public Sorter {
 public:
  // Device pointer, valid for the sorter's lifetime, overwritten by every sort().
  virtual const OddEvenStatus* device_status() const = 0;
};

std::unique_ptr<OddEvenSorter> make_odd_even_sorter(std::size_t capacity);

}  // namespace particles::cuda
