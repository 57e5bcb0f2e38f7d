#include "core/cpu_radix_sort.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "core/parallel_for.hpp"

namespace particles {
namespace {

struct KeyRange {
  std::uint32_t min = std::numeric_limits<std::uint32_t>::max();
  std::uint32_t max = 0;
};

KeyRange key_range(std::span<const std::uint32_t> keys, unsigned chunks) {
  std::vector<KeyRange> partial(chunks);
  parallel_for_chunks(keys.size(), chunks, [&](std::size_t c, std::size_t begin, std::size_t end) {
    KeyRange r;
    for (std::size_t i = begin; i < end; ++i) {
      r.min = std::min(r.min, keys[i]);
      r.max = std::max(r.max, keys[i]);
    }
    partial[c] = r;
  });
  KeyRange r;
  for (const KeyRange& p : partial) {
    r.min = std::min(r.min, p.min);
    r.max = std::max(r.max, p.max);
  }
  return r;
}

}  // namespace

RadixPlan plan_radix(std::uint32_t min_key, std::uint32_t max_key, int max_digit_bits) {
  if (max_digit_bits < 1 || max_digit_bits > 16) {
    throw std::invalid_argument("plan_radix: digit width " + std::to_string(max_digit_bits) +
                                " outside [1, 16]");
  }
  RadixPlan plan;
  plan.floor = min_key;
  const int bits = std::bit_width(max_key - min_key);
  if (bits == 0) return plan;
  plan.passes = (bits + max_digit_bits - 1) / max_digit_bits;
  plan.digit_bits = (bits + plan.passes - 1) / plan.passes;  // even digits: smaller count arrays
  return plan;
}

namespace {

void check_sizes(const char* what, std::size_t keys, std::size_t n) {
  if (n > std::numeric_limits<std::uint32_t>::max()) {
    throw std::length_error(std::string(what) + ": " + std::to_string(n) +
                            " pairs, at most 2^32 - 1");
  }
  if (keys != n) {
    throw std::invalid_argument(std::string(what) + ": " + std::to_string(keys) + " keys for " +
                                std::to_string(n) + " draw indices");
  }
}

unsigned sort_chunks(std::size_t n, unsigned threads) {
  return n < kRadixSerialBelow ? 1u : (threads != 0 ? threads : parallel_threads());
}

// The passes of plan. Pass 0 reads its keys from `gathered` (keys[order[i]], in scratch.keys[0])
// or, when null, from keys[order[i]] itself.
void radix_passes(std::span<const std::uint32_t> keys, const std::uint32_t* gathered,
                  std::span<std::uint32_t> order, SortScratch& scratch, unsigned chunks,
                  const RadixPlan& plan);

}  // namespace

void cpu_sort_order(std::span<const std::uint32_t> keys, std::span<std::uint32_t> order,
                    SortScratch& scratch, unsigned threads, int max_digit_bits) {
  check_sizes("cpu_sort_order", keys.size(), order.size());
  if (order.size() < 2) return;
  const unsigned chunks = sort_chunks(order.size(), threads);
  const KeyRange range = key_range(keys, chunks);  // `order` is a permutation: the same keys
  radix_passes(keys, nullptr, order, scratch, chunks,
               plan_radix(range.min, range.max, max_digit_bits));
}

void cpu_sort_gathered(std::span<std::uint32_t> order, SortScratch& scratch, std::uint32_t min_key,
                       std::uint32_t max_key, unsigned threads) {
  check_sizes("cpu_sort_gathered", scratch.keys[0].size(), order.size());
  if (order.size() < 2) return;
  radix_passes({}, scratch.keys[0].data(), order, scratch, sort_chunks(order.size(), threads),
               plan_radix(min_key, max_key));
}

namespace {

// What one pass reads and writes. Pass 0 ranks key - floor (from `gathered`, or keys[value_in[i]]
// when it is null); later passes rank key_in, the keys the pass before kept.
struct RadixPass {
  std::span<const std::uint32_t> keys;
  const std::uint32_t* gathered;
  std::uint32_t floor, mask;
  int shift;
  const std::uint32_t* key_in;
  const std::uint32_t* value_in;
  std::uint32_t* key_out;
  std::uint32_t* value_out;
};

// One chunk's counts do not depend on the arrangement: every pass's are made in one read up
// front, as a serial LSD sort does.
void count_every_pass(const RadixPass& p, std::size_t n, const RadixPlan& plan, std::size_t buckets,
                      std::uint32_t* counts) {
  const std::uint32_t mask = p.mask, floor = p.floor;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t k = (p.gathered != nullptr ? p.gathered[i] : p.keys[p.value_in[i]]) - floor;
    for (int pass = 0; pass < plan.passes; ++pass) {
      ++counts[pass * buckets + ((k >> (pass * plan.digit_bits)) & mask)];
    }
  }
}

// The digits of the chunk [begin, end) in this pass.
void count_chunk(const RadixPass& p, std::size_t begin, std::size_t end, std::size_t buckets,
                 std::uint32_t* count) {
  const std::uint32_t mask = p.mask, floor = p.floor;
  const int shift = p.shift;
  const std::uint32_t *key_in = p.key_in, *gathered = p.gathered, *value_in = p.value_in;
  const std::span<const std::uint32_t> keys = p.keys;
  auto key_at = [&](std::size_t i) {
    if (key_in != nullptr) return key_in[i];
    return (gathered != nullptr ? gathered[i] : keys[value_in[i]]) - floor;
  };
  std::fill(count, count + buckets, 0u);
  for (std::size_t i = begin; i < end; ++i) ++count[(key_at(i) >> shift) & mask];
}

// Counts to exclusive prefix sums, digit-major, chunk-minor: the scatter offsets put chunk c's
// pairs of a digit after those of chunks 0..c-1.
void scatter_offsets(std::uint32_t* counts, std::size_t buckets, unsigned chunks) {
  std::uint32_t at = 0;
  for (std::size_t d = 0; d < buckets; ++d) {
    for (unsigned c = 0; c < chunks; ++c) {
      std::uint32_t& count = counts[c * buckets + d];
      const std::uint32_t here = count;
      count = at;
      at += here;
    }
  }
}

// The chunk [begin, end)'s pairs to their places (`next`: the chunk's offsets), keeping the keys
// for the next pass when kKeepKey. Once per kind of pass and of key, so no test of either runs
// per pair; the pass's fields are copied to locals, which the stores cannot alias.
template <bool kKeepKey, class KeyOf>
void scatter(const RadixPass& p, std::uint32_t* next, std::size_t begin, std::size_t end,
             KeyOf key_of) {
  const std::uint32_t mask = p.mask;
  const int shift = p.shift;
  const std::uint32_t* value_in = p.value_in;
  std::uint32_t *key_out = p.key_out, *value_out = p.value_out;
  for (std::size_t i = begin; i < end; ++i) {
    const std::uint32_t k = key_of(i);
    const std::uint32_t to = next[(k >> shift) & mask]++;
    if constexpr (kKeepKey) key_out[to] = k;
    value_out[to] = value_in[i];
  }
}

template <bool kKeepKey>
void scatter_chunk(const RadixPass& p, std::uint32_t* next, std::size_t begin, std::size_t end) {
  if (p.key_in != nullptr) {
    scatter<kKeepKey>(p, next, begin, end,
                      [key_in = p.key_in](std::size_t i) { return key_in[i]; });
  } else if (p.gathered != nullptr) {
    scatter<kKeepKey>(p, next, begin, end, [gathered = p.gathered, floor = p.floor](std::size_t i) {
      return gathered[i] - floor;
    });
  } else {
    scatter<kKeepKey>(p, next, begin, end,
                      [keys = p.keys, value_in = p.value_in, floor = p.floor](std::size_t i) {
                        return keys[value_in[i]] - floor;
                      });
  }
}

void radix_passes(std::span<const std::uint32_t> keys, const std::uint32_t* gathered,
                  std::span<std::uint32_t> order, SortScratch& scratch, unsigned chunks,
                  const RadixPlan& plan) {
  // Every chunk sees the same contiguous range in every pass, and the scatter offsets put chunk
  // c's pairs of a digit after those of chunks 0..c-1: each pass is a stable counting sort, so
  // the order does not depend on the thread count.
  if (plan.passes == 0) return;  // one key: the stable order is the incoming one
  const std::size_t n = order.size();
  scratch.keys[0].resize(n);  // (a no-op when it holds `gathered`)
  scratch.keys[1].resize(n);
  for (int b = 0; b < 2; ++b) {
    scratch.values[b].resize(n);
  }
  const std::size_t buckets = std::size_t{1} << plan.digit_bits;
  RadixPass p{.keys = keys,
              .gathered = gathered,
              .floor = plan.floor,
              .mask = static_cast<std::uint32_t>(buckets - 1),
              .shift = 0,
              .key_in = nullptr,
              .value_in = order.data(),
              .key_out = nullptr,
              .value_out = nullptr};
  // Several chunks need each pass's own counts, once the pass before has moved the pairs
  // between chunks; one chunk's are all made up front.
  const bool counted_up_front = chunks == 1;
  scratch.counts.resize((counted_up_front ? plan.passes : chunks) * buckets);
  if (counted_up_front) {
    std::fill(scratch.counts.begin(), scratch.counts.end(), 0u);
    count_every_pass(p, n, plan, buckets, scratch.counts.data());
  }
  for (int pass = 0; pass < plan.passes; ++pass) {
    const bool last = pass + 1 == plan.passes;
    p.shift = pass * plan.digit_bits;
    p.key_out = scratch.keys[(pass + 1) % 2].data();  // keys[0] holds `gathered`
    // The last pass writes the draw order itself, unless it is also the first, which reads it.
    p.value_out = last && pass > 0 ? order.data() : scratch.values[pass % 2].data();
    std::uint32_t* counts = scratch.counts.data() + (counted_up_front ? pass * buckets : 0);
    if (!counted_up_front) {
      parallel_for_chunks(n, chunks, [&](std::size_t c, std::size_t begin, std::size_t end) {
        count_chunk(p, begin, end, buckets, counts + c * buckets);
      });
    }
    scatter_offsets(counts, buckets, chunks);
    parallel_for_chunks(n, chunks, [&](std::size_t c, std::size_t begin, std::size_t end) {
      if (last) {
        scatter_chunk<false>(p, counts + c * buckets, begin, end);
      } else {
        scatter_chunk<true>(p, counts + c * buckets, begin, end);
      }
    });
    p.key_in = p.key_out;
    p.value_in = p.value_out;
  }
  if (p.value_in != order.data()) std::copy(p.value_in, p.value_in + n, order.begin());
}

}  // namespace

}  // namespace particles
