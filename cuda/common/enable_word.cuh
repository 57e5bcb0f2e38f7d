#pragma once
// Enable words: a device word that turns a launch captured in a graph on or off when the graph
// runs, so that a choice made on the device needs no host round trip or conditional node.
#include <cstdint>

namespace particles::cuda::detail {

// Whether an enable-gated launch is off: an enable word is given and holds 0.
__device__ __forceinline__ bool disabled(const std::int32_t* enable) {
  return enable != nullptr && *enable == 0;
}

}  // namespace particles::cuda::detail
