#pragma once
// GPU time of a stretch of GL commands (the particle draw), measured with GL_TIME_ELAPSED
// queries. A query's result arrives a frame or more after its end(); reading it at once would
// stall the CPU until the GPU catches up, so queries rotate through a ring and results are
// collected only once GL says they are available.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <utility>
#include <vector>

#include "app/gl/gl_handle.hpp"

namespace particles::gl {

// A measurement, and how many begin/end pairs (frames) were ended after the measured one: 0 is
// the pair just ended, so the frame that issued it is `current frame - frames_ago`.
struct GpuTiming {
  double milliseconds = 0.0;
  std::uint64_t frames_ago = 0;
};

class GpuTimer {
 public:
  // `ring_size` queries may be in flight at once; 4 covers the usual 2-3 frames of latency.
  explicit GpuTimer(std::size_t ring_size = 4);

  // Brackets the commands to time. GL_TIME_ELAPSED queries cannot nest or overlap, so at most
  // one GpuTimer may be between begin() and end() at a time. When every query is still in
  // flight this frame goes unmeasured rather than waiting.
  void begin();
  void end();

  // Collects whatever results have arrived, without waiting, and returns the oldest result not
  // yet returned (each result is returned once, in order), or nothing. Call it until it returns
  // nothing to drain every arrived result.
  std::optional<GpuTiming> poll();
  // The newest result ever collected, in milliseconds.
  std::optional<double> latest_ms() const { return latest_ms_; }

  // Scoped begin/end.
  class Scope {
   public:
    explicit Scope(GpuTimer& timer) : timer_(timer) { timer_.begin(); }
    ~Scope() { timer_.end(); }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    GpuTimer& timer_;
  };

 private:
  struct Slot {
    Query query;
    bool pending = false;      // ended, result not yet collected
    std::uint64_t serial = 0;  // value of ends_ when it was ended
  };
  std::vector<Slot> ring_;
  std::size_t next_ = 0;    // slot the next begin() uses
  std::size_t oldest_ = 0;  // oldest slot that may be pending
  bool active_ = false;     // between a begin() that started a query and its end()
  std::uint64_t ends_ = 0;  // end() calls so far, measured or skipped
  // Results collected from the ring but not yet handed out by poll(), oldest first, each with
  // the end() serial it belongs to.
  std::deque<std::pair<double, std::uint64_t>> ready_;
  void collect();
  std::optional<double> latest_ms_;
};

}  // namespace particles::gl
