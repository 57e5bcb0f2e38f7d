#pragma once
// The raster renderer: one point sprite per particle, blended back to front by GL in the draw
// order (ParticleRenderer), the reference image. Its comparison view draws the two orders side by
// side (split), or each into an image of its own and the heat map of their difference (heat).
#include <memory>

#include "app/gl/difference_heat_pass.hpp"
#include "app/gl/renderer.hpp"

namespace particles::gl {

class RasterRenderer final : public Renderer {
 public:
  explicit RasterRenderer(ParticleRenderer& sprites) : sprites_(sprites) {}
  void draw(const RenderFrame& frame, const RenderTarget& target) override;

 private:
  void draw_heat_view(const RenderFrame& frame, const RenderTarget& target);

  ParticleRenderer& sprites_;
  // The heat view's two images and its pass, made on its first frame.
  struct HeatView {
    explicit HeatView(glm::ivec2 size) : exact(size), drawn(size) {}
    RenderTarget exact, drawn;
    DifferenceHeatPass pass{find_shader_dir()};
  };
  std::unique_ptr<HeatView> heat_;
};

}  // namespace particles::gl
