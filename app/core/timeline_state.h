#pragma once
// What the SM timeline keeps between frames (a member of UiState): whether it records, the block
// that ties the chart to the canvas both ways, and a timeline recorded elsewhere, when one is open.
#include <optional>

#include "app/core/timeline_file.h"

namespace kc {

struct TimelineState {
    bool on = false;                          // record the SM timeline (its section's checkbox)
    std::optional<long long> hovered_bar;     // the block whose bar the mouse is over: outlined on the canvas
    std::optional<long long> canvas_block;    // the block of the canvas pixel under the mouse: its bar marked
    std::optional<RecordedTimeline> recorded; // --timeline-in: shown instead of this machine's recording
};

} // namespace kc
