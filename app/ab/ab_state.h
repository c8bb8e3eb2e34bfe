#pragma once
// The window's A/B split: its settings (a preset's "ab"), and what the frame loop measured of the
// two sides for the panel and the canvas overlay to show. Side A is the panel's own job.
#include <string>

#include "app/ab/ab_times.h"
#include "app/ab/pixel_diff.h"
#include "app/core/ab_split.h"
#include "app/core/canvas_view.h"
#include "gpu/launch_config.h"
#include "gpu/paint_job.h"

namespace kc {

// What the last frames measured: each side's kernel time, the ratio, the diff.
struct AbReadout {
    SideTime a, b;
    AbRatio ratio;
    PixelDiff diff;        // compared = 0 until the first comparison (or with the diff off)
    bool emulator = false; // the cpu backend: the CPU emulator's wall clock, not a GPU's time
    std::string b_refusal; // why side B's launch was refused ("": it ran)
    std::string b_compile; // side B's kernel did not compile: the compiler's log ("": it did, or none)
};

struct AbState {
    bool on = false;
    bool b_chosen = false; // side B was set (a preset, "B = A"); else turning the split on copies A
    AbSplit split;         // side B and the layout (job.params' size is set to A's each frame)
    ResolvedLaunch b_resolved = resolve_launch(split.b, universal_limits()); // as this frame paints it
    CanvasView b_view; // side by side: where B is drawn (A is UiState::view)
    AbReadout readout;
};

// Side B's job this frame: its own op, parameters and launch, on A's canvas and clock.
PaintJob side_b_job(const AbSplit& split, const PaintJob& a);

// B's parameters that differ from A's, as flags say them ("double on, iter 500"); "" when none
// do, or when the two run different ops (each then reads its own).
std::string differing_params(const PaintJob& a, const PaintJob& b);

} // namespace kc
