#pragma once
// Stage 3 of the frame: depth keys laid out in a given draw order, ready for a (key, value)
// sort, made from the particles' state or from exact keys that the fused step made by index. The
// CPU twin is cpu_depth_keys (keys by particle index); here keys[i] is the key of particle
// order[i], so a sort that starts from last frame's order needs no gather afterwards.
#include <cuda_runtime.h>

#include <cstdint>

#include "core/depth_keys.hpp"
#include "core/extents.hpp"
#include "core/particle.hpp"
#include "core/view_depth.hpp"
#include "cuda/auto/partition_append.hpp"

namespace particles::cuda {

struct DepthKeyArgs {
  const ParticleState* state = nullptr;
  // When not null, the keys come from these exact keys (the fused step's, in place is allowed)
  // instead of from the state: a 4-byte read per particle rather than 32. Quantized keys are
  // made from the depth each one encodes (depth_of_exact_key), equal to those made from the
  // state. Only in the identity order (no `order`): the pipeline makes them where the step laid
  // the particles out.
  const std::uint32_t* exact_keys = nullptr;
  std::uint32_t count = 0;
  // Draw order to key. nullptr means the identity (values[i] = i): the fixed algorithms start
  // from it every frame. When `values` == `order` the order is keyed in place and left as is.
  const std::uint32_t* order = nullptr;
  std::uint32_t* values = nullptr;   // values[i] = order[i]
  std::uint32_t* keys = nullptr;     // keys[i] = key of particle order[i]
  const DepthFrame* view = nullptr;  // device memory, read when the kernel runs
  const Extents* extents = nullptr;  // device memory; quantized mode reads depth_min/max
  KeyMode mode = KeyMode::exact;
  int bits = 16;  // quantized mode: 1..32
  // What the keys made from the state measure (sort_depth, core/view_depth.hpp); quantized keys
  // and keys from exact_keys are of view depth only.
  DepthMetric metric = DepthMetric::view_depth;
  // Optional: each key also appended, with its index, to the splitter partition sort's buckets
  // (partition_append.cuh), while its splitters are for `count` keys.
  PartitionAppend append;
};

void launch_depth_keys(const DepthKeyArgs& args, cudaStream_t stream);

}  // namespace particles::cuda
