#include "app/main/hud_text.hpp"

#include "app/main/hud_layout.hpp"
#include "core/frame_types.hpp"

namespace particles {

std::string count_label(std::uint32_t n) {
  if (n >= (1u << 20) && n % (1u << 20) == 0) return std::to_string(n >> 20) + "M";
  if (n >= (1u << 10) && n % (1u << 10) == 0) return std::to_string(n >> 10) + "K";
  const std::string digits = std::to_string(n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    // A comma before each group of three digits counted from the right, never in front.
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string stage_time_text(double ms, bool in_simulate) {
  return in_simulate ? std::string(kInSimulateText) : compact_ms(ms);
}

std::string graph_caption(const std::string& name, const Summary& s) {
  return name + "  med " + compact_ms(s.median) + " ms  p99 " + compact_ms(s.p99) + " ms";
}

}  // namespace particles
