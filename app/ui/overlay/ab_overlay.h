#pragma once
// The A/B split over the canvas: the divider (a handle the mouse drags: ImGui takes the drag, so
// the canvas does not pan), and each side's label with its time. Draws only; the divider's drag
// moves s.ab.split.divider.
#include "app/ui/ui_state.h"

namespace kc {

// Call after the canvas' viewport is set (s.view, and s.ab.b_view side by side), before the
// canvas' own input is handled.
void draw_ab_overlay(UiState& s);

// Side by side: the canvas area split into A's half and B's half, a small gap between.
struct AbAreas {
    RectD a, b;
};
AbAreas side_by_side_areas(const RectD& area, float gap);

} // namespace kc
