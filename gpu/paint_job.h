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
    // Step mode: only blocks whose launch-order number (x fastest, then y, z) is below this paint;
    // the rest return at once. Negative: no limit.
    long long max_blocks = -1;
};

// What a backend needs to know before it touches the output: the grid it will launch, whether
// uncovered pixels must be cleared first, or why it must not launch at all.
struct PaintPlan {
    std::optional<std::string> error; // set: refuse, leave the output untouched
    Dim3 grid;
    bool clear_first = false; // pixels may stay unwritten: hatch them first (uncovered_pixel)
};
PaintPlan plan_paint(const PaintJob& job, const DeviceLimits& limits);
// Why these operation parameters are out of range (radius, level, iterations, matmul N...).
std::optional<std::string> params_error(const OpParams& p);

// The launch as the job's op uses it. Custom ops launch their own (OpInfo::own_launch). The
// user's kernel maps threads to pixels itself: its auto grid covers the canvas in 2d, one thread
// per pixel, whatever mapping the panel holds for the other ops.
LaunchConfig effective_launch(const PaintJob& job);

// Blocks a job launches and, of those, how many paint (step mode's limit applied).
long long painting_blocks(const PaintJob& job, const Dim3& grid);

} // namespace kc
