#pragma once
// One paint request, as the backends take it, and the checks every backend makes before painting.
#include <optional>
#include <string>

#include "launch_config.h"
#include "op_params.h"
#include "thread_body.h"

namespace kc {

struct PaintJob {
    int op = 0; // index into op_registry()
    OpParams params;
    LaunchConfig launch;
    View view = View::Pixels;
};

// What a backend needs to know before it touches the output: the grid it will launch, whether
// uncovered pixels must be cleared first, or why it must not launch at all.
struct PaintPlan {
    std::optional<std::string> error; // set: refuse, leave the output untouched
    Dim3 grid;
    bool clear_first = false; // the grid leaves pixels uncovered: fill them with kUncoveredPixel
};
PaintPlan plan_paint(const PaintJob& job, const DeviceLimits& limits);
// Why these operation parameters are out of range (radius, level, iterations, matmul N...).
std::optional<std::string> params_error(const OpParams& p);

} // namespace kc
