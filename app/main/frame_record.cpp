#include "app/main/frame_record.hpp"

#include <filesystem>
#include <sstream>
#include <stdexcept>

#include "core/output_file.hpp"

namespace particles {

void FrameHistory::push(const FrameRecord& record) {
  records_.push_back(record);
  if (keep_ > 0 && records_.size() >= 2 * keep_) {
    records_.erase(records_.begin(), records_.begin() + static_cast<std::ptrdiff_t>(keep_));
    first_ += keep_;
  }
}

FrameRecord* FrameHistory::find(std::uint64_t frame) {
  if (frame < first_ || frame - first_ >= records_.size()) return nullptr;
  return &records_[static_cast<std::size_t>(frame - first_)];
}

void write_frame_report(const std::string& path, const std::vector<FrameRecord>& frames,
                        const std::string& algorithm, const std::string& backend,
                        std::uint32_t count) {
  std::ostringstream out;
  out << "frame,backend,algorithm,count,frame_ms,backend_ms,draw_ms";
  for (int s = 0; s < kStageCount; ++s) out << ',' << to_string(static_cast<Stage>(s)) << "_ms";
  // descents_pct: % of the drawn order's adjacent pairs out of exact order; pixels_off_pct: % of
  // lit pixels whose image differs visibly from the exact order's (the comparison view's,
  // core/pixels_off.hpp); -1 where not measured.
  out << ",span_ms,sort_path,renderer,composite_ms,present_ms,descents_pct,pixels_off_pct\n";
  for (const FrameRecord& r : frames) {
    out << r.frame << ',' << backend << ',' << algorithm << ',' << count << ',' << r.frame_ms << ','
        << r.backend_ms << ',' << r.draw_ms;
    for (float v : r.stage_ms) out << ',' << v;
    out << ',' << r.span_ms << ',' << to_string(r.path) << ',' << to_string(r.renderer) << ','
        << r.composite_ms << ',' << r.present_ms << ','
        << (r.order_error >= 0.0f ? 100.0f * r.order_error : -1.0f) << ',' << r.pixels_off << '\n';
  }
  write_file_atomically(path, out.str());  // whole or not at all
}

}  // namespace particles
