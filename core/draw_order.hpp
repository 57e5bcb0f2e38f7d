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

#include "core/enum_names.hpp"

namespace particles {

enum class DrawOrder { exact, unsorted, stale, eye_distance, coarse };

inline constexpr EnumNames<DrawOrder, 5> kDrawOrderNames = {{{DrawOrder::exact, "exact"},
                                                             {DrawOrder::unsorted, "unsorted"},
                                                             {DrawOrder::stale, "stale"},
                                                             {DrawOrder::eye_distance, "eye"},
                                                             {DrawOrder::coarse, "coarse"}}};

inline constexpr std::array<DrawOrder, 5> kAllDrawOrders = values_of(kDrawOrderNames);

// Defaults of FrameSettings::order_period and FrameSettings::coarse_bits.
inline constexpr int kDefaultOrderPeriod = 8;
inline constexpr int kDefaultCoarseBits = 8;
inline constexpr int kMaxOrderPeriod = 100000;

constexpr std::string_view to_string(DrawOrder o) {
  return name_of(kDrawOrderNames, o);
}

constexpr std::optional<DrawOrder> draw_order_from_string(std::string_view name) {
  return value_named(kDrawOrderNames, name);
}

inline std::vector<std::string> draw_order_names() {
  return names_of(kDrawOrderNames);
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
