#pragma once
// One paint request, as the backends take it, and the checks every backend makes before painting.
#include <optional>
#include <string>

#include "gpu/kernel_check.h"
#include "gpu/launch_config.h"
#include "gpu/op_params.h"
#include "gpu/thread_body.h"

namespace kc {
struct OpInfo; // registry.h
}

namespace kc {

struct PaintJob {
    int op = 0; // index into op_registry()
    OpParams params;
    LaunchConfig launch;
    View view = View::Pixels;
    // Step mode: only blocks whose launch-order number (x fastest, then y, z) is below this paint;
    // the rest return at once. Negative: no limit.
    long long max_blocks = -1;
    // The user's kernel in checked mode: what its writer record adds to the picture.
    WriterMarks marks;
};

// A job's launch, resolved and checked once per frame: what the painter runs and what the panel,
// the overlay and the report show. `launch`, `grid` are set whatever the refusal (the panel shows
// them beside it); `coverage` only for a legal launch.
struct ResolvedLaunch {
    LaunchConfig launch;                       // what runs: a custom op's own, the user's kernel's 2d, else the job's
    Dim3 grid;                                 // the grid it launches
    Coverage coverage;                         // which pixels it reaches (zeros when launch_refusal)
    bool own = false;                          // a custom op's own launch (the panel's does not apply)
    bool clear_first = false;                  // pixels may stay unwritten: hatch them first (uncovered_pixel)
    std::optional<std::string> launch_refusal; // the launch breaks a limit (universal ones first)
    std::optional<std::string> refusal;        // set: refuse the job (size, parameters, launch), output untouched
};
// Checks against the limits every CUDA GPU shares first (the same message with or without a GPU),
// then against `limits`.
ResolvedLaunch resolve_launch(const PaintJob& job, const DeviceLimits& limits);
// Why these operation parameters are out of range (radius, level, iterations, matmul N...).
std::optional<std::string> params_error(const OpParams& p);
// Why `variant` (a valid value of the parameter) is not one of op's kernels; nullopt when it is,
// or when op has one kernel (it ignores the parameter).
std::optional<std::string> variant_error(const OpInfo& op, int variant);

// The launch as the job's op uses it. Custom ops launch their own (OpInfo::own_launch). The
// user's kernel maps threads to pixels itself: its auto grid covers the canvas in 2d, one thread
// per pixel, whatever mapping the panel holds for the other ops.
LaunchConfig effective_launch(const PaintJob& job);

// Blocks a job launches and, of those, how many paint (step mode's limit applied).
long long painting_blocks(const PaintJob& job, const Dim3& grid);

} // namespace kc
