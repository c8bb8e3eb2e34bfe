#pragma once
// What the SM timeline keeps between frames (a member of UiState): whether it records, and the
// block that ties the chart to the canvas both ways.
#include <optional>

namespace kc {

struct TimelineState {
    bool on = false;                       // record the SM timeline (its section's checkbox)
    std::optional<long long> hovered_bar;  // the block whose bar the mouse is over: outlined on the canvas
    std::optional<long long> canvas_block; // the block of the canvas pixel under the mouse: its bar marked
};

} // namespace kc
