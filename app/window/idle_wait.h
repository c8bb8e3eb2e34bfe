#pragma once
// How the frame loop takes the window's events: at once (polling) while the screen moves by itself,
// else by waiting for input, at most a quarter of a second, so a static picture is drawn a few
// times a second (the timing panel, the clock) and at once on any event (issue 25: a static
// gradient kept a whole core busy drawing the same frame). After input a few frames follow at
// full rate, for what ImGui shows a frame later (a released click, a closed list).
#include <chrono>

namespace kc {

class IdleWait {
public:
    static constexpr std::chrono::milliseconds kLongest{250}; // a static window's longest wait
    static constexpr int kFramesAfterInput = 3;

    // Takes the pending events: polls when `moving` or input came lately (`input_seen`: the
    // mouse and key events so far), else waits for an event. Returns how long it waited.
    std::chrono::steady_clock::duration take_events(bool moving, unsigned long input_seen);

private:
    unsigned long input_seen_ = 0;
    int busy_frames_ = kFramesAfterInput; // the first frames settle the layout
};

} // namespace kc
