#pragma once
// The panel's "A/B split" section: split the canvas into side A (the panel's launch) and side B
// (set here: op, variant, block, grid, mapping, pixels per thread, or a kernel), as a divider
// over one picture or side by side; each side's kernel time, their ratio, and the pixel diff.
#include "app/ui/panel.h"
#include "app/ui/ui_state.h"

namespace kc {

void ab_section(UiState& s, const PanelContext& ctx);

} // namespace kc
