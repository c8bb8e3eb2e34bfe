#pragma once
// The Dear ImGui control panel: reads and edits UiState, shows the painter's timings.
#include "block_sweep.h"
#include "frame_painter.h"
#include "ui_state.h"

namespace kc {

// CPU wall time of each part of the window's frame, in microseconds.
struct FrameBreakdown {
    TimingStats paint, panel, draw, swap, frame;
};

struct PanelContext {
    const FramePainter& painter;
    double frame_ms; // wall time of the last whole frame
    const FrameBreakdown& breakdown;
    const BlockSweep* sweep = nullptr; // the block tuner's running or last sweep
};

// Draws the panel; returns its width in pixels when it is docked at the window's left edge, 0
// otherwise, so the canvas can be drawn beside it.
float draw_panel(UiState& state, const PanelContext& ctx);

} // namespace kc
