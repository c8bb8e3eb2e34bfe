#include "app/window/idle_wait.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>

namespace kc {

std::chrono::steady_clock::duration IdleWait::take_events(bool moving, unsigned long input_seen) {
    using Clock = std::chrono::steady_clock;
    if (input_seen != input_seen_) input_seen_ = input_seen, busy_frames_ = kFramesAfterInput;
    if (moving || busy_frames_ > 0) {
        busy_frames_ = std::max(0, busy_frames_ - 1);
        glfwPollEvents();
        return {};
    }
    const auto start = Clock::now();
    glfwWaitEventsTimeout(std::chrono::duration<double>(kLongest).count());
    const auto waited = Clock::now() - start;
    // Woken early: an event that is not the mouse's or a key's (a resize, an uncovered window, a drop).
    if (waited < kLongest * 9 / 10) busy_frames_ = kFramesAfterInput;
    return waited;
}

} // namespace kc
