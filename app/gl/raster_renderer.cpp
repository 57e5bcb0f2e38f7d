#include "app/gl/raster_renderer.hpp"

namespace particles::gl {

void RasterRenderer::draw(const RenderFrame& frame, const RenderTarget& target) {
  if (frame.compare == CompareMode::heat) {
    draw_heat_view(frame, target);
  } else if (frame.compare) {
    sprites_.draw_split(frame.particles, frame.draw);
  } else {
    sprites_.draw_particles(frame.particles, frame.draw);
  }
}

void RasterRenderer::draw_heat_view(const RenderFrame& frame, const RenderTarget& target) {
  if (!heat_) heat_ = std::make_unique<HeatView>(target.size());
  heat_->exact.resize(target.size());
  heat_->drawn.resize(target.size());
  for (const bool exact : {true, false}) {
    const RenderTarget& image = exact ? heat_->exact : heat_->drawn;
    image.bind();
    sprites_.clear(frame.draw);
    frame.particles.use_compare_order(exact);
    sprites_.draw_particles(frame.particles, frame.draw);
  }
  frame.particles.use_compare_order(false);
  heat_->pass.draw(heat_->exact, heat_->drawn, target);
}

}  // namespace particles::gl
