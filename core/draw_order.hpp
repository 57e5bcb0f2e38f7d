#pragma once
// The order the particles are drawn in: exact (sorted by view depth every frame), or one of the
// approximations other viewers settle for, so that a user can see what exact per-frame sorting
// buys (docs/scenes.md, "What exact sorting buys"). Both backends honour every choice; the
// names are those of the command line, the HUD and the bench.
//
//   exact     sorted by view depth every frame (the keys --key-mode asks for)
//   unsorted  index order, never sorted
//   stale     sorted every order_period-th frame; the frames between draw that frame's order
//   eye       sorted by distance to the eye instead of depth along the view axis (exact keys)
//   coarse    sorted by view depth quantized to coarse_bits bits (stable: ties keep index order)
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace particles {

enum class DrawOrder { exact, unsorted, stale, eye_distance, coarse };

inline constexpr std::array<DrawOrder, 5> kAllDrawOrders = {
    DrawOrder::exact, DrawOrder::unsorted, DrawOrder::stale, DrawOrder::eye_distance,
    DrawOrder::coarse};

// Defaults of FrameSettings::order_period and FrameSettings::coarse_bits.
inline constexpr int kDefaultOrderPeriod = 8;
inline constexpr int kDefaultCoarseBits = 8;
inline constexpr int kMaxOrderPeriod = 100000;

constexpr std::string_view to_string(DrawOrder o) {
  switch (o) {
    case DrawOrder::exact:
      return "exact";
    case DrawOrder::unsorted:
      return "unsorted";
    case DrawOrder::stale:
      return "stale";
    case DrawOrder::eye_distance:
      return "eye";
    case DrawOrder::coarse:
      return "coarse";
  }
  return "?";
}

constexpr std::optional<DrawOrder> draw_order_from_string(std::string_view name) {
  for (DrawOrder o : kAllDrawOrders) {
    if (to_string(o) == name) return o;
  }
  return std::nullopt;
}

// Every order's name, in kAllDrawOrders' order: the one list the command line checks against.
inline std::vector<std::string> draw_order_names() {
  std::vector<std::string> names;
  for (DrawOrder o : kAllDrawOrders) names.emplace_back(to_string(o));
  return names;
}

// Which frames of a stale order sort: the first stale frame after a reset or after another
// order, then every period-th. Both backends keep one, so that they sort the same frames.
class StaleSchedule {
 public:
  // Whether this frame sorts; call once per frame, with the frame's order and period.
  bool sorts(DrawOrder order, int period) {
    if (order != DrawOrder::stale) {
      age_ = 0;
      return order != DrawOrder::unsorted;
    }
    const bool due = age_ % (period < 1 ? 1 : period) == 0;
    ++age_;
    return due;
  }
  void reset() { age_ = 0; }

 private:
  long long age_ = 0;  // stale frames since the last frame of another order (or the reset)
};

}  // namespace particles
