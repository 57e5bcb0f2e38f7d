#pragma once
// The comparison view's labels, drawn by ImGui on the image (its background draw list, under the
// panel, never into a screenshot or a recording): in the split view which half is which order, at
// the top beside the divider; in the heat view the share of pixels that differ and a colour bar of
// the heat map's ramp, at the bottom. The words come from compare_labels.hpp.
namespace particles {

struct AppState;

// Call between ImGui::NewFrame and ImGui::Render; draws nothing unless the last frame was a
// comparison view.
void draw_compare_overlay(const AppState& state, float ui_scale);

}  // namespace particles
