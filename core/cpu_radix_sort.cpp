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
  const std::uint32_t mask = static_cast<std::uint32_t>(buckets - 1);
  const std::uint32_t floor = plan.floor;
  // One chunk's counts do not depend on the arrangement: every pass's are made in one read up
  // front, as a serial LSD sort does. Several chunks need each pass's own, once the pass before
  // has moved the pairs between chunks.
  const bool counted_up_front = chunks == 1;
  scratch.counts.resize((counted_up_front ? plan.passes : chunks) * buckets);
  if (counted_up_front) {
    std::fill(scratch.counts.begin(), scratch.counts.end(), 0u);
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint32_t k = (gathered != nullptr ? gathered[i] : keys[order[i]]) - floor;
      for (int pass = 0; pass < plan.passes; ++pass) {
        ++scratch.counts[pass * buckets + ((k >> (pass * plan.digit_bits)) & mask)];
      }
    }
  }
  const std::uint32_t* key_in = nullptr;  // pass 0 ranks key - floor, later passes key_in
  const std::uint32_t* value_in = order.data();
  for (int pass = 0; pass < plan.passes; ++pass) {
    const int shift = pass * plan.digit_bits;
    const bool last = pass + 1 == plan.passes;
    std::uint32_t* key_out = scratch.keys[(pass + 1) % 2].data();  // keys[0] holds `gathered`
    // The last pass writes the draw order itself, unless it is also the first, which reads it.
    std::uint32_t* value_out = last && pass > 0 ? order.data() : scratch.values[pass % 2].data();
    auto key_at = [&](std::size_t i) {
      if (key_in != nullptr) return key_in[i];
      return (gathered != nullptr ? gathered[i] : keys[value_in[i]]) - floor;
    };
    std::uint32_t* counts = scratch.counts.data() + (counted_up_front ? pass * buckets : 0);
    if (!counted_up_front) {
      parallel_for_chunks(n, chunks, [&](std::size_t c, std::size_t begin, std::size_t end) {
        std::uint32_t* count = counts + c * buckets;
        std::fill(count, count + buckets, 0u);
        for (std::size_t i = begin; i < end; ++i) ++count[(key_at(i) >> shift) & mask];
      });
    }
    std::uint32_t at = 0;  // exclusive prefix sums, digit-major, chunk-minor
    for (std::size_t d = 0; d < buckets; ++d) {
      for (unsigned c = 0; c < chunks; ++c) {
        std::uint32_t& count = counts[c * buckets + d];
        const std::uint32_t here = count;
        count = at;
        at += here;
      }
    }
    parallel_for_chunks(n, chunks, [&](std::size_t c, std::size_t begin, std::size_t end) {
      std::uint32_t* next = counts + c * buckets;
      // The loop once per kind of pass, so no test of the pass's kind runs per pair.
      auto scatter = [&](auto key_of, auto keep_key) {
        for (std::size_t i = begin; i < end; ++i) {
          const std::uint32_t k = key_of(i);
          const std::uint32_t to = next[(k >> shift) & mask]++;
          if constexpr (decltype(keep_key)::value) key_out[to] = k;
          value_out[to] = value_in[i];
        }
      };
      auto run = [&](auto keep_key) {
        if (key_in != nullptr) {
          scatter([&](std::size_t i) { return key_in[i]; }, keep_key);
        } else if (gathered != nullptr) {
          scatter([&](std::size_t i) { return gathered[i] - floor; }, keep_key);
        } else {
          scatter([&](std::size_t i) { return keys[value_in[i]] - floor; }, keep_key);
        }
      };
      if (last) {
        run(std::false_type{});
      } else {
        run(std::true_type{});
      }
    });
    key_in = key_out;
    value_in = value_out;
  }
  if (value_in != order.data()) std::copy(value_in, value_in + n, order.begin());
}

}  // namespace

}  // namespace particles
