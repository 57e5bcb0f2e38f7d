// libFuzzer target: bench-file text through parse_bench_text (the loader behind --file) and
// finish_bench_config. Every input must either give a BenchConfig within the documented ranges
// or be refused with a std::runtime_error; another exception, a crash, a sanitizer report or a
// hang is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

#include "app/main/bench_config.hpp"

namespace {

void require(bool condition) {
  if (!condition) std::abort();  // libFuzzer keeps the input that got here
}

void check_accepted(const particles::BenchConfig& c) {
  require(!c.scenes.empty() && !c.algorithms.empty() && !c.key_modes.empty());
  for (const std::uint32_t n : c.counts) require(n >= 1 && n <= (1u << 27));
  require(c.choices.key_bits >= 1 && c.choices.key_bits <= 32);
  require(c.frames >= 1 && c.warmup >= 0 && c.choices.stage_sample_period >= 1);
  require(c.width >= 1 && c.width <= 16384 && c.height >= 1 && c.height <= 16384);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    particles::BenchConfig config;
    particles::parse_bench_text(text, "fuzz.toml", config);
    particles::finish_bench_config(config);
    check_accepted(config);
  } catch (const std::runtime_error&) {
    // Refused with a message.
  }
  return 0;
}
