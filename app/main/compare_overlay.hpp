#pragma once
// The comparison view's labels, drawn by ImGui on the image (its background draw list, under the
// panel, never into a screenshot or a recording): in the split view which half is which order, at
// the top beside the divider; in the heat view the share of pixels that differ and a colour bar of
// the heat map's ramp, at the bottom. The words come from compare_labels.hpp.
#include "app/main/hud_layout.hpp"

namespace particles {

struct AppState;

// Call between ImGui::NewFrame and ImGui::Render; draws nothing unless the last frame was a
// comparison view. `panel` is where the HUD's panel lies (empty when hidden): the labels keep
// clear of it.
void draw_compare_overlay(const AppState& state, float ui_scale, const ImageRect& panel);

}  // namespace particles
