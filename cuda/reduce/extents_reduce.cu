#include "cuda/reduce/extents_reduce.hpp"

#include <algorithm>

#include "core/scene_models.hpp"
#include "cuda/check.hpp"
#include "cuda/pipeline/launch_check.hpp"

namespace particles::cuda {
namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr unsigned kMaxBlocks = 2048;         // > 132 SMs x the occupancy of this kernel on H200
constexpr std::size_t kPartialsOffset = 256;  // keeps the partials aligned past the ticket

static_assert(sizeof(Extents) == 9 * sizeof(float), "Extents is shuffled as nine floats");

struct Workspace {
  unsigned* ticket;
  Extents* partials;
};

Workspace split(void* workspace) {
  auto* bytes = static_cast<unsigned char*>(workspace);
  return {reinterpret_cast<unsigned*>(bytes), reinterpret_cast<Extents*>(bytes + kPartialsOffset)};
}

// Two 16-byte loads per particle through the read-only path: the state is 32 bytes, so this is
// the whole of the stage's memory traffic.
__device__ __forceinline__ ParticleState load_state(const ParticleState* s) {
  const float4* p = reinterpret_cast<const float4*>(s);
  const float4 a = __ldg(p);
  const float4 b = __ldg(p + 1);
  return {a.x, a.y, a.z, a.w, b.x, b.y, b.z, __float_as_uint(b.w)};
}

__device__ __forceinline__ void add_particle(Extents& e, const ParticleState& s,
                                             const DepthFrame& view) {
  const Vec3 p = position_of(s);
  extents_add(e, p, view_depth(view, p), speed_of(s));
}

__device__ __forceinline__ float* as_floats(Extents& e) {
  return reinterpret_cast<float*>(&e);
}

// Butterfly over the warp with __shfl_xor_sync: every lane ends with the warp's extents. The
// merge never lets a NaN win (min_f/max_f keep the accumulator when a comparison is false).
__device__ __forceinline__ Extents warp_reduce(Extents e) {
#pragma unroll
  for (int mask = 16; mask > 0; mask >>= 1) {
    Extents other;
    float* o = as_floats(other);
    float* m = as_floats(e);
#pragma unroll
    for (int k = 0; k < 9; ++k) o[k] = __shfl_xor_sync(0xffffffffu, m[k], mask);
    e = extents_merge(e, other);
  }
  return e;
}

// Warp results meet in shared memory and warp 0 folds them. Every thread of the block must call
// it (no divergent __syncthreads); the result is valid in thread 0.
__device__ Extents block_reduce(Extents e, Extents* warp_results) {
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int warp = static_cast<int>(threadIdx.x) >> 5;
  e = warp_reduce(e);
  if (lane == 0) warp_results[warp] = e;
  __syncthreads();
  if (warp == 0) {
    e = lane < kWarps ? warp_results[lane] : Extents{};
    e = warp_reduce(e);
  }
  return e;
}

// Partials written by other blocks: read through L2 (.cg), never a stale L1 line.
__device__ __forceinline__ Extents load_partial(const Extents* p) {
  Extents e;
  const float* src = reinterpret_cast<const float*>(p);
  float* dst = as_floats(e);
#pragma unroll
  for (int k = 0; k < 9; ++k) dst[k] = __ldcg(src + k);
  return e;
}

__global__ void __launch_bounds__(kThreads)
    extents_kernel(const ParticleState* __restrict__ state, std::uint32_t count,
                   const DepthFrame* view_in, Extents* out, Workspace ws) {
  __shared__ Extents warp_results[kWarps];
  __shared__ bool is_last_block;
  const DepthFrame view = *view_in;

  // Grid-stride, four particles in flight per thread so enough loads are outstanding to reach
  // memory bandwidth with a grid of only a few blocks per SM.
  Extents e;
  const std::uint32_t stride = gridDim.x * blockDim.x;
  std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < count; i += 4 * stride) {
    ParticleState s[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) s[k] = load_state(state + i + k * stride);
#pragma unroll
    for (int k = 0; k < 4; ++k) add_particle(e, s[k], view);
  }
  for (; i < count; i += stride) add_particle(e, load_state(state + i), view);

  e = block_reduce(e, warp_results);

  // Last-block-done: publish this block's partial, then take a ticket; the block that draws
  // the last ticket sees every partial and writes the result. No second launch, no host sync.
  if (threadIdx.x == 0) {
    ws.partials[blockIdx.x] = e;
    __threadfence();
    is_last_block = atomicAdd(ws.ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!is_last_block) return;  // uniform across the block
  __threadfence();

  Extents total;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) {
    total = extents_merge(total, load_partial(ws.partials + b));
  }
  __syncthreads();  // warp_results is reused
  total = block_reduce(total, warp_results);
  if (threadIdx.x == 0) {
    *out = total;
    *ws.ticket = 0;  // ready for the next launch or graph replay
  }
}

unsigned grid_for(std::uint32_t count) {
  int device = 0, sms = 0, per_sm = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, extents_kernel, kThreads, 0));
  const unsigned resident = static_cast<unsigned>(std::max(1, sms * std::max(1, per_sm)));
  const unsigned needed = (count + kThreads - 1) / kThreads;
  return std::clamp(needed, 1u, std::min(resident, kMaxBlocks));
}

}  // namespace

std::size_t extents_workspace_bytes() {
  return kPartialsOffset + kMaxBlocks * sizeof(Extents);
}

void init_extents_workspace(void* workspace, cudaStream_t stream) {
  CUDA_CHECK(cudaMemsetAsync(workspace, 0, sizeof(unsigned), stream));
}

void launch_extents(const ParticleState* state, std::uint32_t count, const DepthFrame* view,
                    Extents* out, void* workspace, cudaStream_t stream) {
  // Even with no particles one block runs, so *out is always written (the empty Extents).
  extents_kernel<<<grid_for(count), kThreads, 0, stream>>>(state, count, view, out,
                                                           split(workspace));
  PARTICLES_CHECK_LAUNCH("extents_kernel", stream);
}

}  // namespace particles::cuda
