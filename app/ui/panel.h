#pragma once
// The Dear ImGui control panel: reads and edits UiState, shows the painter's timings.
#include "app/core/block_sweep.h"
#include "app/core/canvas_view.h"
#include "app/core/messages.h"
#include "app/core/requests.h"
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
    Requests& requests;                // what the panel asks for, carried out between frames (window/requests.cpp)
    Messages& messages;                // what kcanvas says: the status bar and the panel's error lines
    const BlockSweep* sweep = nullptr; // the block tuner's running or last sweep
};

// Draws the panel beside the canvas and the status bar under both (window_layout.h); returns the
// area left for the canvas, in ImGui's coordinates.
RectD draw_panel(UiState& state, const PanelContext& ctx);

} // namespace kc
