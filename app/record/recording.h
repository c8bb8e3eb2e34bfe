#pragma once
// What a recording shows, frame by frame, as plain data: frame n's paint job (its time, the
// blocks step mode has painted, the swept parameter's value) and its caption. The window's Record
// button and `kcanvas record` both fill a RecordPlan; nothing here touches GL.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/core/time_clock.h"
#include "gpu/launch_config.h"
#include "gpu/paint_job.h"

namespace kc {

// A parameter going from one value to another over the recording: weight, cell, level, radius,
// iter or zoom (geometric), by the names of gpu/param_limits.h; or the block shape.
struct ParamSweep {
    std::string name;
    double from = 0, to = 0;
    Dim3 block_from, block_to; // name "block"
};

// What is drawn over the canvas in each frame: what the window draws over it.
struct RecordOverlays {
    bool outlines = false;                      // every block's boundary
    bool tint = true;                           // pixels several threads write, tinted red
    bool legend = true;                         // the view's colours (not for the pixels view)
    bool caption = true;                        // the launch, the mapping's formula, what moves
    std::optional<std::pair<int, int>> inspect; // the inspector pinned on this pixel
    bool any() const { return outlines || tint || legend || caption || inspect; }
};

struct RecordPlan {
    PaintJob job; // frame 0's (params.width/height: the recording's size)
    int frames = 150;
    double fps = 30;
    TimeClock clock;   // its speed and loop range; frame n is at clock.at_frame(n, fps, start)
    double start = 0;  // t of frame 0
    bool step = false; // step mode: blocks appear in launch order, counted from frame 0
    // 0, the default of `record --step` and of the window's Record section alike: every block
    // painted by 90 % of the recording.
    double blocks_per_second = 0;
    double first_blocks = 0; // blocks painted at frame 0 (a recording at the window's pace goes on from there)
    std::vector<ParamSweep> sweeps;
    std::optional<std::pair<double, double>> center_to; // a zoom's end centre (the fractals)
    RecordOverlays overlays;
};

struct RecordFrame {
    PaintJob job;
    double seconds = 0;
    std::vector<std::string> caption; // lines; the first is the title, the formula follows in `formula`
    std::string formula;
};

// How fast step mode paints: the plan's rate, or every block by 90 % of the recording.
double step_rate(const RecordPlan& plan);
// The blocks step mode has painted in frame n: first_blocks, then step_rate() a second of the
// recording's own time (n x speed / fps), whatever t it starts at or loops to.
long long step_blocks(const RecordPlan& plan, int n);
RecordFrame plan_frame(const RecordPlan& plan, int n);
// Why the plan cannot be recorded: a frame whose launch breaks a limit every GPU has (checked for
// every frame, as a block sweep may pass a shape with too many threads), a bad sweep.
std::optional<std::string> plan_error(const RecordPlan& plan);
// "weight=0:1", "zoom=1:1000", "block=8x8:64x16" -> a sweep, or why not.
std::optional<std::string> parse_sweep(const std::string& text, ParamSweep& out);

} // namespace kc
