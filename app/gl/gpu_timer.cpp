#include "app/gl/gpu_timer.hpp"

#include <glad/gl.h>

#include <algorithm>

namespace particles::gl {

GpuTimer::GpuTimer(std::size_t ring_size) {
  ring_.resize(std::max<std::size_t>(ring_size, 1));
  for (Slot& slot : ring_) slot.query = create_query(GL_TIME_ELAPSED);
}

void GpuTimer::begin() {
  if (active_) return;
  collect();  // frees ring slots; the results wait in ready_ for poll()
  Slot& slot = ring_[next_];
  if (slot.pending) return;  // ring full: skip this measurement instead of stalling
  glBeginQuery(GL_TIME_ELAPSED, slot.query.get());
  active_ = true;
}

void GpuTimer::end() {
  const std::uint64_t serial = ends_++;  // skipped frames count too, so frames_ago stays true
  if (!active_) return;
  glEndQuery(GL_TIME_ELAPSED);
  ring_[next_].pending = true;
  ring_[next_].serial = serial;
  next_ = (next_ + 1) % ring_.size();
  active_ = false;
}

void GpuTimer::collect() {
  // Results become available in submission order, so stop at the first one that is not ready.
  while (ring_[oldest_].pending) {
    Slot& slot = ring_[oldest_];
    GLint available = GL_FALSE;
    glGetQueryObjectiv(slot.query.get(), GL_QUERY_RESULT_AVAILABLE, &available);
    if (available != GL_TRUE) break;
    GLuint64 ns = 0;
    glGetQueryObjectui64v(slot.query.get(), GL_QUERY_RESULT, &ns);
    latest_ms_ = static_cast<double>(ns) * 1e-6;
    ready_.emplace_back(*latest_ms_, slot.serial);
    slot.pending = false;
    oldest_ = (oldest_ + 1) % ring_.size();
  }
}

std::optional<GpuTiming> GpuTimer::poll() {
  collect();
  if (ready_.empty()) return std::nullopt;
  const auto [ms, serial] = ready_.front();
  ready_.pop_front();
  return GpuTiming{ms, ends_ - 1 - serial};
}

}  // namespace particles::gl
