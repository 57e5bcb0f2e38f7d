#pragma once
// Device-side pieces of the extents reduction, shared by the stand-alone extents kernel and the
// fused simulate+extents kernel: the warp merge and the grid-wide combine through integer atomics,
// whose last block writes the result (no second launch, no host sync).
#include <cstddef>
#include <cstdint>

#include "core/extents.hpp"

namespace particles::cuda::detail {

static_assert(sizeof(Extents) == 9 * sizeof(float), "Extents is shuffled as nine floats");

// The grid-wide combine's words (see grid_combine_extents) and the ticket that finds the last
// block. Zero is every word's starting value; the combine leaves them all at zero again.
struct ExtentsWorkspace {
  unsigned* ticket;
  unsigned* words;  // kCombineWords
};
inline constexpr int kExtentsFields = 9;                  // Extents as floats
inline constexpr int kCombineWords = kExtentsFields + 1;  // and one caller's minimum
inline constexpr std::size_t kCombineWordsOffset = 128;   // the words on a line of their own
inline constexpr std::size_t kExtentsWorkspaceBytes =
    kCombineWordsOffset + kCombineWords * sizeof(unsigned);

// The layout of the workspace that extents_workspace_bytes() sizes.
inline ExtentsWorkspace split_extents_workspace(void* workspace) {
  auto* bytes = static_cast<unsigned char*>(workspace);
  return {reinterpret_cast<unsigned*>(bytes),
          reinterpret_cast<unsigned*>(bytes + kCombineWordsOffset)};
}

__device__ __forceinline__ float* as_floats(Extents& e) {
  return reinterpret_cast<float*>(&e);
}

// Butterfly over the warp with __shfl_xor_sync: every lane ends with the warp's extents. The
// merge never lets a NaN win (min_f/max_f keep the accumulator when a comparison is false).
__device__ __forceinline__ Extents warp_reduce_extents(Extents e) {
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

// Which Extents fields (as floats, in order: min x y z, max x y z, depth min, depth max, max
// speed) are minima.
__device__ __forceinline__ bool is_min_field(int k) {
  return k < 3 || k == 6;
}

// Floats as words whose unsigned order is the floats' order (-0 before +0), so one integer
// atomicMax combines them; a minimum is combined as the maximum of the complemented word. Every
// word starts at 0, below any encoded value.
__device__ __forceinline__ unsigned ordered_word(float f) {
  const unsigned bits = __float_as_uint(f);
  return (bits & 0x80000000u) != 0 ? ~bits : bits | 0x80000000u;
}
__device__ __forceinline__ float float_of_ordered(unsigned word) {
  return __uint_as_float((word & 0x80000000u) != 0 ? word & 0x7fffffffu : ~word);
}
__device__ __forceinline__ unsigned combine_word(int k, float f) {
  return is_min_field(k) ? ~ordered_word(f) : ordered_word(f);
}
__device__ __forceinline__ float field_of_combined(int k, unsigned word) {
  return float_of_ordered(is_min_field(k) ? ~word : word);
}

// The block's extents (and a word whose minimum is wanted) as kCombineWords combine words in
// shared memory: each warp's merge, then its lane 0's integer atomicMax (combine_word; the minimum
// as the maximum of the complemented word). Every thread of the block calls it; the words are
// final for every thread once it returns (it ends at a barrier).
template <int Threads>
__device__ const unsigned* fold_block_words(Extents e, unsigned min_word) {
  static_assert(Threads >= kCombineWords && Threads % 32 == 0);
  __shared__ unsigned block_words[kCombineWords];
  if (threadIdx.x < kCombineWords) block_words[threadIdx.x] = 0;
  __syncthreads();
  e = warp_reduce_extents(e);
  min_word = __reduce_min_sync(0xffffffffu, min_word);
  if ((threadIdx.x & 31u) == 0) {
    const float* fields = as_floats(e);
#pragma unroll
    for (int k = 0; k < kExtentsFields; ++k) atomicMax(&block_words[k], combine_word(k, fields[k]));
    atomicMax(&block_words[kExtentsFields], ~min_word);
  }
  __syncthreads();
  return block_words;
}

// Combine word k of the whole grid, decoded to where it goes: an Extents field of *out, or the
// minimum to *min_out (when given).
__device__ __forceinline__ void write_combined(int k, unsigned word, Extents* out,
                                               unsigned* min_out) {
  if (k < kExtentsFields) {
    reinterpret_cast<float*>(out)[k] = field_of_combined(k, word);
  } else if (min_out != nullptr) {
    *min_out = ~word;
  }
}

// Every thread of every block calls this with its own accumulated extents (and, optionally, a
// word whose grid-wide minimum goes to *min_out); *out gets the extents of the whole grid.
// Each block folds its warps' extents into ten words in shared memory and those into the
// workspace's words with integer atomicMax (combine_word), then takes a ticket; the block that
// draws the last one reads the words, resetting them, and writes the results. The last block so
// reads ten words instead of every block's partial and reduces nothing, which made both the fused
// step and the extents kernel faster than the last block folding one partial per block
// (docs/notes/frame.md, "Figures from the code comments").
// Min and max are exact, so the result does not depend on the order of the atomics, except for
// the sign of a zero met with both signs: the words order -0 before +0, but each thread and warp
// keeps the zero it met first (extents_merge), as the CPU reduction does.
template <int Threads>
__device__ void grid_combine_extents(Extents e, ExtentsWorkspace ws, Extents* out,
                                     unsigned min_word = 0xffffffffu, unsigned* min_out = nullptr) {
  __shared__ bool is_last_block;
  const unsigned* block_words = fold_block_words<Threads>(e, min_word);
  if (threadIdx.x < kCombineWords) {
    atomicMax(ws.words + threadIdx.x, block_words[threadIdx.x]);
    __threadfence();  // this block's words land before its ticket
  }
  __syncthreads();
  if (threadIdx.x == 0) is_last_block = atomicAdd(ws.ticket, 1u) == gridDim.x - 1;
  __syncthreads();
  if (!is_last_block || threadIdx.x >= kCombineWords) return;
  __threadfence();
  const int k = static_cast<int>(threadIdx.x);
  // Read, and ready for the next launch.
  write_combined(k, atomicExch(ws.words + k, 0u), out, min_out);
  if (k == 0) *ws.ticket = 0;
}

// Instead of the grid-wide combine: the block's ten words go to partials[blockIdx.x *
// kCombineWords + k] with plain stores, for launch_extents_fold (extents_fold.hpp) to combine
// in a later launch. The grid then ends without the combine's fence, atomics and ticket, which
// cost the fused step's last blocks measurably (docs/notes/frame.md, "Figures from the code
// comments").
template <int Threads>
__device__ void store_block_extents(Extents e, unsigned* partials,
                                    unsigned min_word = 0xffffffffu) {
  const unsigned* block_words = fold_block_words<Threads>(e, min_word);
  if (threadIdx.x < kCombineWords)
    partials[blockIdx.x * kCombineWords + threadIdx.x] = block_words[threadIdx.x];
}

}  // namespace particles::cuda::detail
