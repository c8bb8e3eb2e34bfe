#pragma once
// The animation clock: the `t` user kernels see and the time step mode paints blocks by. The
// window advances it by wall time times a speed, unless paused; single frames step it by a fixed
// amount; a loop range wraps it. A recording asks for frame n's time instead, n / fps from its
// start: never wall clock, so a recording is the same on every run and drops no frame.
#include <algorithm>
#include <cmath>

namespace kc {

struct TimeClock {
    static constexpr double kMinSpeed = 0.1, kMaxSpeed = 8.0;
    double seconds = 0.0;
    bool paused = false;
    double speed = 1.0;
    bool loop = false;
    double loop_from = 0.0, loop_to = 10.0;
    double frame_seconds = 1.0 / 30; // one frame forward or back
    double furthest = 0.0;           // the latest t shown: the time slider keeps reaching it when scrubbed back

    // `t` as the clock shows it: never negative; inside [loop_from, loop_to) when looping.
    double wrapped(double t) const {
        if (loop && loop_to > loop_from) {
            const double span = loop_to - loop_from;
            if (t >= loop_to || t < loop_from) t = loop_from + std::fmod(std::fmod(t - loop_from, span) + span, span);
        }
        return std::max(0.0, t);
    }
    void set(double t) {
        seconds = wrapped(t);
        furthest = std::max(furthest, seconds);
    }
    void advance(double wall_seconds) {
        if (!paused) set(seconds + wall_seconds * speed);
    }
    void step_frames(int frames) {
        paused = true;
        set(seconds + frames * frame_seconds);
    }
    // The time of a recording's frame n at `fps`, started at `start`: start + n * speed / fps.
    double at_frame(long long n, double fps, double start = 0.0) const {
        return wrapped(start + double(n) * speed / fps);
    }
};

} // namespace kc
