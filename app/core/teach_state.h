#pragma once
// What the teaching tools (inspector, overlays, step mode) keep between frames; a member of UiState.
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kc {

struct TeachState {
    bool inspector = true;       // hovering the canvas names the thread that wrote the pixel
    bool block_outlines = false; // draw every block's boundary over the canvas
    bool flag_repeats = true;    // tint pixels that more than one thread writes
    // Step mode: blocks appear one by one in launch order, `blocks_per_second` of them per second
    // of the animation clock (UiState::clock), counted from `step_origin`: pausing, single frames,
    // the time slider and the speed move step mode as they move `t`.
    bool stepping = false;
    float blocks_per_second = 8.0f;
    double step_blocks = 0.0;           // blocks painted so far (fractional between frames)
    double step_origin = 0.0;           // the clock's time at block 0
    bool step_started = false;          // step_origin is set
    float step_rate = 0.0f;             // blocks_per_second when step_origin was last set
    std::optional<double> step_request; // show this many blocks from now on (+1 block, Restart, scripts)
    // Scripts pin the inspected pixel, as no mouse moves under xvfb.
    std::optional<std::pair<int, int>> pinned_pixel;
    std::vector<std::string> section_requests; // scripts: "device" opens that section, "-device" closes it
};

} // namespace kc
