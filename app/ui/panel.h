#pragma once
// The Dear ImGui control panel: reads and edits UiState, shows the painter's timings.
#include "app/core/block_sweep.h"
#include "app/core/canvas_view.h"
#include "app/ui/ui_state.h"
#include "render/frame_painter.h"

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

// Draws the panel beside the canvas and the status bar under both (window_layout.h); returns the
// area left for the canvas, in ImGui's coordinates.
RectD draw_panel(UiState& state, const PanelContext& ctx);

} // namespace kc
